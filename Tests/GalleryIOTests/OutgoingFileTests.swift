import Foundation
import GLibKit
import GalleryCore
import Testing

@testable import GalleryIO

/// What another application gets as a file for an image: only bytes that are an image.
@Suite struct OutgoingFileTests {
    static let key = Array("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU=\n".utf8)

    @Test func onlyImageBytesMayLeave() {
        #expect(OutgoingImageFile.mayLeave(TestImages.png(width: 2, height: 2)))
        #expect(OutgoingImageFile.mayLeave([0xFF, 0xD8, 0xFF, 0xE0]))
        #expect(OutgoingImageFile.mayLeave(Array("<?xml version=\"1.0\"?>\n<!-- made by hand -->\n<svg/>".utf8)))
        #expect(!OutgoingImageFile.mayLeave(Self.key))
        #expect(!OutgoingImageFile.mayLeave(Array("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5 user@host\n".utf8)))
        #expect(!OutgoingImageFile.mayLeave(Array("#define icon_width 8\n#define icon_height 8\n".utf8)))
        #expect(!OutgoingImageFile.mayLeave(Array("<?xml version=\"1.0\"?><config><svg/></config>".utf8)))
        #expect(!OutgoingImageFile.mayLeave([UInt8]()))
    }

    @Test func aFileThatIsNoImageIsNeverShared() throws {
        let fixture = try OriginalsFixture()
        defer { fixture.tearDown() }
        let key = try fixture.folder.write(Self.key, to: "id_rsa")
        let picture = try fixture.folder.write(TestImages.png(width: 2, height: 2), to: "picture.png")
        let keyURL = try #require(FileURI.from(path: key))
        let pictureURL = try #require(FileURI.from(path: picture))
        #expect(fixture.source.shareableFile(for: GalleryImage(url: keyURL, aspectRatio: 1)) == nil)
        #expect(fixture.source.shareableFile(for: GalleryImage(url: pictureURL, aspectRatio: 1))?.path == picture)
        #expect(fixture.source.shareableFile(for: GalleryImage(url: "file:///dev/zero", aspectRatio: 1)) == nil)
    }

    @Test func aDownloadThatIsNoImageIsNeverShared() throws {
        let fixture = try OriginalsFixture()
        defer { fixture.tearDown() }
        let page = "https://example.com/page.png"
        fixture.source.store(Data("<html>not a picture</html>".utf8), for: page)
        #expect(fixture.source.shareableFile(for: GalleryImage(url: page, aspectRatio: 1)) == nil)
        let picture = "https://example.com/picture"
        fixture.source.store(Data(TestImages.png(width: 2, height: 2)), for: picture)
        #expect(
            fixture.source.shareableFile(for: GalleryImage(url: picture, aspectRatio: 1))?.lastPathComponent
                == "picture.png")
    }
}
