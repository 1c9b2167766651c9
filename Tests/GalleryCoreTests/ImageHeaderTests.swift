import Foundation
import GalleryCore
import Testing

/// What decoding costs, from the header alone.
@Suite struct ImageHeaderTests {
    /// A baseline JPEG is decoded at 1/8 for a cell; a progressive one keeps every coefficient first.
    @Test func progressiveJPEGCostsItsCoefficients() {
        let baseline = ImageHeader(
            formatName: "JPEG", width: 8_000, height: 8_000, layout: .dctScaled(coefficientBytes: 0))
        #expect(baseline.isWithinLimits(fit: (256, 256)))
        let progressive = ImageHeader(
            formatName: "JPEG", width: 8_000, height: 8_000, layout: .dctScaled(coefficientBytes: 192_000_000))
        #expect(!progressive.isWithinLimits(fit: (256, 256)))
        #expect(progressive.fitWithinLimits((256, 256)) == nil)
    }

    /// A whole decode within the budget at its own size; beyond it, the largest half, quarter… that fits.
    @Test func theFitShrinksToTheBudget() {
        let photo = ImageHeader(formatName: "PNG", width: 4_000, height: 3_000, layout: .rowByRow)
        #expect(photo.fitWithinLimits(nil).map { [$0.width, $0.height] } == [2_000, 1_500])
        #expect(photo.fitWithinLimits((1_000, 1_000)).map { [$0.width, $0.height] } == [1_000, 1_000])
        let small = ImageHeader(
            formatName: "TIFF", width: 2_000, height: 1_000, layout: .whole(bytesPerPixel: 4, extraBytes: 0))
        #expect(small.fitWithinLimits(nil).map { [$0.width, $0.height] } == [2_000, 1_000])
    }

    /// Whatever the fit, a format that decodes whole is refused when the whole picture is beyond the budget.
    @Test func aWholeDecodeBeyondTheBudgetIsRefusedAtAnyFit() {
        let tiff = ImageHeader(
            formatName: "TIFF", width: 5_000, height: 5_000, layout: .whole(bytesPerPixel: 4, extraBytes: 0))
        #expect(tiff.fitWithinLimits((64, 64)) == nil)
    }

    @Test func sizesAreReadFromEachFormatsHeader() {
        let xpm = Data("/* XPM */\nstatic char *x[] = {\n\"20 10 2 1\",\n".utf8)
        #expect(ImageHeader.read(xpm).map { [$0.width, $0.height] } == [20, 10])
        let xbm = Data("#define x_width 33\n#define x_height 7\nstatic char x_bits[] = {".utf8)
        #expect(ImageHeader.read(xbm).map { [$0.width, $0.height] } == [33, 7])
        let pnm = Data("P6\n# a comment\n640 480\n255\n".utf8)
        #expect(ImageHeader.read(pnm).map { [$0.width, $0.height] } == [640, 480])
        #expect(ImageHeader.read(Data("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)) == nil)
    }
}
