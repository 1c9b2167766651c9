import Foundation
import Testing

@testable import GLibKit

/// Thumbnails read with libpng, their checksums not verified (`Pixbuf.loadThumbnail(contentsOf:)`).
@Suite struct ThumbnailReadTests {
    let folder: TemporaryDirectory

    init() throws { folder = try TemporaryDirectory() }

    func stored(width: Int, height: Int) throws -> [UInt8] {
        let picture = try #require(
            Pixbuf.loadThumbnail(
                contentsOf: folder.write(TestImages.png(width: width, height: height), to: "source.png")))
        let png = try #require(picture.storedPNG(text: [("Thumb::URI", "file:///a.jpg"), ("Thumb::MTime", "42")]))
        return [UInt8](png)
    }

    @Test func readsThePixelsAndTheTextAThumbnailWasWrittenWith() throws {
        let path = try folder.write(stored(width: 40, height: 30), to: "thumbnail.png")
        let thumbnail = try #require(Pixbuf.loadThumbnail(contentsOf: path))
        #expect((thumbnail.width, thumbnail.height) == (40, 30))
        #expect(thumbnail.text("Thumb::URI") == "file:///a.jpg")
        #expect(thumbnail.text("Thumb::MTime") == "42")
        let pixels = thumbnail.pixels
        // TestImages.png's gradient: red rises across, green down, blue 128.
        #expect(pixels.bytes[pixels.bytes.startIndex + 39 * 3] == 255)
        #expect(pixels.bytes[pixels.bytes.startIndex + 29 * pixels.rowstride + 1] == 255)
        #expect(pixels.bytes[pixels.bytes.startIndex + 2] == 128)
    }

    /// Another file's thumbnail says so in the text before its pixels: it is refused unread.
    @Test func textThatNamesAnotherFileOrTimeIsRefused() throws {
        let path = try folder.write(stored(width: 40, height: 30), to: "thumbnail.png")
        let own = [("Thumb::URI", "file:///a.jpg"), ("Thumb::MTime", "42")]
        #expect(Pixbuf.loadThumbnail(contentsOf: path, expectedText: own)?.width == 40)
        #expect(Pixbuf.loadThumbnail(contentsOf: path, expectedText: [("Thumb::URI", "file:///b.jpg")]) == nil)
        #expect(Pixbuf.loadThumbnail(contentsOf: path, expectedText: [("Thumb::MTime", "43")]) == nil)
        // A key the file leaves out is the caller's to judge.
        #expect(Pixbuf.loadThumbnail(contentsOf: path, expectedText: [("Thumb::Size", "1")]) != nil)
    }

    @Test func aDamagedChecksumIsNotVerifiedButACutFileFails() throws {
        var bytes = try stored(width: 40, height: 30)
        // The last four bytes are IEND's CRC; the four before IEND's type, its length and the image data's CRC.
        bytes[bytes.count - 1] ^= 0xFF
        bytes[bytes.count - 13] ^= 0xFF
        #expect(Pixbuf.loadThumbnail(contentsOf: try folder.write(bytes, to: "crc.png")) != nil)
        #expect(
            Pixbuf.loadThumbnail(contentsOf: try folder.write(Array(bytes.prefix(bytes.count / 2)), to: "cut.png"))
                == nil)
        #expect(Pixbuf.loadThumbnail(contentsOf: try folder.write(Array("not a png".utf8), to: "text.png")) == nil)
        #expect(Pixbuf.loadThumbnail(contentsOf: folder.url.appendingPathComponent("missing.png").path) == nil)
    }

    @Test func aSideLongerThanAThumbnailsIsRefused() throws {
        let path = try folder.write(TestImages.pngClaiming(width: 100_000, height: 10), to: "wide.png")
        #expect(Pixbuf.loadThumbnail(contentsOf: path) == nil)
        let tall = try folder.write(TestImages.png(width: 10, height: 600), to: "tall.png")
        #expect(Pixbuf.loadThumbnail(contentsOf: tall, maximumSide: 512) == nil)
        #expect(Pixbuf.loadThumbnail(contentsOf: tall, maximumSide: 600) != nil)
    }
}
