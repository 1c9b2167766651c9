import Foundation
import GLibKit
import GalleryCore
import GalleryIO
import Testing

/// The decoder's limits against hostile bytes, with images built in code.
@Suite struct ImageDecoderTests {
    private func decode(_ bytes: [UInt8], fit: (width: Int, height: Int)? = (64, 64))
        -> Result<DecodedImage<Pixbuf>, DecodeError>
    {
        ImageDecoder.decodePicture(Data(bytes), fit: fit)
    }

    @Test func pngDecodesFittedWithItsOwnSize() throws {
        let picture = try decode(TestImages.png(width: 300, height: 200), fit: (60, 60)).get()
        #expect((picture.originalWidth, picture.originalHeight) == (300, 200))
        #expect((picture.bitmap.width, picture.bitmap.height) == (60, 40))
    }

    @Test func jpegDecodes() throws {
        let picture = try decode(TestImages.jpeg, fit: nil).get()
        #expect((picture.originalWidth, picture.originalHeight) == (24, 16))
    }

    /// Decoded at libjpeg's DCT scale 1/2 and shrunk from there: the fitted size, the file's own recorded.
    @Test func jpegDecodesFittedWithItsOwnSize() throws {
        let picture = try decode(HostileImages.jpeg(width: 1_702, height: 1_135, progressive: false), fit: (512, 512))
            .get()
        #expect((picture.originalWidth, picture.originalHeight) == (1_702, 1_135))
        #expect((picture.bitmap.width, picture.bitmap.height) == (512, 341))
    }

    /// Each shrunk pixel averages the area it covers: a checkerboard of single black and white pixels turns grey,
    /// where sampling would keep black or white.
    @Test func shrinkingAveragesTheAreaEachPixelCovers() throws {
        let (width, height) = (851, 568)
        let bytes = (0..<height).flatMap { y in
            (0..<width).flatMap { x in [UInt8](repeating: (x + y).isMultiple(of: 2) ? 0 : 255, count: 3) }
        }
        let board = try #require(
            Pixbuf(.init(width: width, height: height, rowstride: width * 3, hasAlpha: false, bytes: Data(bytes))))
        let shrunk = board.shrunk(width: 512, height: 341)
        #expect((shrunk.width, shrunk.height) == (512, 341))
        let levels = shrunk.withPixelBytes { pixels, rowstride, _ in
            (0..<341).flatMap { y in (0..<512 * 3).map { Int(pixels[y * rowstride + $0]) } }
        }
        #expect(levels.allSatisfy { (64...192).contains($0) })
    }

    /// The image data holds one empty row: a decoder that went past the header would call it incomplete.
    @Test func pngClaimingThirtyThousandSquareIsRefusedFromItsHeader() {
        let result = decode(TestImages.pngClaiming(width: 30_000, height: 30_000))
        #expect(throws: DecodeError.tooLarge(width: 30_000, height: 30_000)) { try result.get() }
    }

    @Test func truncatedPNGIsIncomplete() {
        let png = TestImages.png(width: 64, height: 64)
        let result = decode(Array(png.prefix(png.count / 2)))
        #expect(throws: DecodeError.incomplete) { try result.get() }
    }

    /// Cut in its scan data: libjpeg would fill the rest with grey.
    @Test func truncatedJPEGIsIncomplete() {
        let result = decode(Array(TestImages.jpeg.prefix(TestImages.jpeg.count - 12)))
        #expect(throws: DecodeError.incomplete) { try result.get() }
    }

    /// Wherever its scan data is cut, up to the end marker's last byte, a JPEG is no picture.
    @Test func jpegCutAnywhereInItsScanIsNoPicture() throws {
        let jpeg = TestImages.jpeg
        let scan = try #require(jpeg.indices.dropLast().first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA })
        for cut in (scan + 2)..<(jpeg.count - 1) {
            #expect((try? decode(Array(jpeg.prefix(cut))).get()) == nil, "cut at \(cut) of \(jpeg.count)")
        }
        #expect((try? decode(jpeg).get()) != nil)
    }

    /// An EXIF thumbnail's end marker comes before the image's own; bytes after the image's end are not
    /// part of it (a motion photo appends its video there).
    @Test func jpegEndIsTheImagesOwn() throws {
        let thumbnail: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD9]
        let exif = [0xFF, 0xE1] + Deflate.bigEndian(UInt16(2 + thumbnail.count)) + thumbnail
        let jpeg = TestImages.jpeg
        let withThumbnail = Array(jpeg.prefix(2)) + exif + jpeg.dropFirst(2)
        #expect((try? decode(withThumbnail).get()) != nil)
        #expect((try? decode(withThumbnail + [0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70]).get()) != nil)
        let cut = Array(withThumbnail.prefix(withThumbnail.count - 12))
        #expect(throws: DecodeError.incomplete) { try decode(cut).get() }
    }

    @Test func randomBytesAreNotAnImage() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let bytes = (0..<4_096).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        let result = decode(bytes)
        #expect(throws: DecodeError.notAnImage) { try result.get() }
    }

    @Test func gifOverTheUnscaledCapIsRefused() {
        #expect(6_000 * 6_000 > ImageLimits.maximumWholePixels)
        let result = decode(TestImages.gif(width: 6_000, height: 6_000))
        #expect(throws: DecodeError.tooLarge(width: 6_000, height: 6_000)) { try result.get() }
    }

    @Test func gifUnderTheCapDecodes() throws {
        let picture = try decode(TestImages.gif(width: 40, height: 30), fit: nil).get()
        #expect((picture.originalWidth, picture.originalHeight) == (40, 30))
    }
}

/// Decoders that would ignore a refusal at `size-prepared`: each hostile file is refused from its header
/// before a decoder sees it, or stopped by the decoder process's limits; ordinary files of every format decode.
@Suite struct HostileDecoderTests {
    private func decode(_ bytes: [UInt8], fit: (width: Int, height: Int)? = (256, 256))
        -> Result<DecodedImage<Pixbuf>, DecodeError>
    {
        ImageDecoder.decodePicture(Data(bytes), fit: fit)
    }

    private let huge = HostileImages.huge

    @Test func tiffDeclaringThirtyThousandSquareIsRefused() {
        #expect(HostileImages.tiff([(huge, huge)]).count < 5_000)
        #expect(throws: DecodeError.tooLarge(width: huge, height: huge)) {
            try decode(HostileImages.tiff([(huge, huge)])).get()
        }
    }

    /// gdk-pixbuf reads the first directory; another reader may pick any.
    @Test func tiffWithAHugeSecondDirectoryIsRefused() {
        #expect(throws: DecodeError.tooLarge(width: 6_000, height: 6_000)) {
            try decode(HostileImages.tiff([(4, 3), (6_000, 6_000)])).get()
        }
    }

    /// 8000×8000 is within the pixel cap, and a baseline JPEG that size is decoded at 1/8; a progressive
    /// one holds 192 MB of coefficients first.
    @Test func progressiveJPEGIsRefusedWhereABaselineOneIsScaled() {
        #expect(throws: DecodeError.tooLarge(width: 8_000, height: 8_000)) {
            try decode(HostileImages.jpeg(width: 8_000, height: 8_000, progressive: true)).get()
        }
        let baseline = decode(HostileImages.jpeg(width: 8_000, height: 8_000, progressive: false))
        #expect(throws: Never.self) {
            do { _ = try baseline.get() } catch DecodeError.tooLarge { Issue.record("refused") } catch {}
        }
    }

    @Test(arguments: ["avif", "heic"]) func isoMediaWithAHugeItemIsRefused(brand: String) {
        #expect(throws: DecodeError.tooLarge(width: huge, height: huge)) {
            try decode(HostileImages.isoMedia(brand: brand, width: huge, height: huge)).get()
        }
    }

    @Test func xpmAndXBMDeclaringHugeSizesAreRefused() {
        #expect(throws: DecodeError.tooLarge(width: huge, height: huge)) {
            try decode(HostileImages.xpm(width: huge, height: huge)).get()
        }
        #expect(throws: DecodeError.tooLarge(width: 5_000, height: 5_000)) {
            try decode(HostileImages.xbm(width: 5_000, height: 5_000)).get()
        }
    }

    @Test func gifWithAHugeFrameIsRefused() {
        #expect(throws: DecodeError.tooLarge(width: huge, height: huge)) {
            try decode(HostileImages.gifWithFrame(width: huge, height: huge)).get()
        }
    }

    /// The directory says 256×256; the PNG inside says otherwise.
    @Test func icoWithAHugeEmbeddedPNGIsRefused() {
        #expect(throws: DecodeError.tooLarge(width: huge, height: huge)) {
            try decode(HostileImages.icoWithPNG(width: huge, height: huge)).get()
        }
    }

    /// librsvg would draw it for minutes: the decoder process runs out of its processor time.
    @Test func svgWithASlowFilterIsStopped() {
        #expect(throws: DecodeError.tookTooLong) { try decode(HostileImages.slowSVG).get() }
    }

    /// A whole decode beyond the budget comes back at a size within it, with the file's own size.
    @Test func aWholeDecodeBeyondTheBudgetIsSmaller() throws {
        let picture = try decode(TestImages.gif(width: 3_000, height: 2_000), fit: nil).get()
        #expect((picture.originalWidth, picture.originalHeight) == (3_000, 2_000))
        #expect((picture.bitmap.width, picture.bitmap.height) == (1_500, 1_000))
    }

    @Test(arguments: [
        ("TIFF", HostileImages.smallTIFF, 4, 3), ("ICO", HostileImages.ico, 4, 3), ("TGA", HostileImages.tga, 4, 3),
        ("XPM", HostileImages.xpm, 4, 3), ("PNM", HostileImages.ppm, 4, 3),
    ])
    func ordinaryFilesDecodeInTheDecoderProcess(format: String, bytes: [UInt8], width: Int, height: Int) throws {
        let picture = try decode(bytes, fit: nil).get()
        #expect((picture.originalWidth, picture.originalHeight) == (width, height), "\(format)")
        #expect((picture.bitmap.width, picture.bitmap.height) == (width, height), "\(format)")
        let pixels = picture.bitmap.pixels
        #expect(Array(pixels.bytes.prefix(3)) == [255, 0, 0], "\(format)")
    }

    /// Drawn at the size asked, in the decoder process.
    @Test func svgIsDrawnAtTheSizeAsked() throws {
        let picture = try decode(HostileImages.svg, fit: (80, 80)).get()
        #expect((picture.bitmap.width, picture.bitmap.height) == (80, 60))
        #expect(Array(picture.bitmap.pixels.bytes.prefix(3)) == [255, 0, 0])
    }
}
