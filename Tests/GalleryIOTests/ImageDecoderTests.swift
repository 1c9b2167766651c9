import Foundation
import GalleryCore
import GalleryIO
import Testing

/// The decoder's limits against hostile bytes, with images built in code.
@Suite struct ImageDecoderTests {
    private func decode(_ bytes: [UInt8], fit: (width: Int, height: Int)? = (64, 64))
        -> Result<DecodedPicture, DecodeError>
    {
        ImageDecoder.decodePicture(Data(bytes), fit: fit)
    }

    @Test func pngDecodesFittedWithItsOwnSize() throws {
        let picture = try decode(TestImages.png(width: 300, height: 200), fit: (60, 60)).get()
        #expect((picture.originalWidth, picture.originalHeight) == (300, 200))
        #expect((picture.pixbuf.width, picture.pixbuf.height) == (60, 40))
    }

    @Test func jpegDecodes() throws {
        let picture = try decode(TestImages.jpeg, fit: nil).get()
        #expect((picture.originalWidth, picture.originalHeight) == (24, 16))
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
