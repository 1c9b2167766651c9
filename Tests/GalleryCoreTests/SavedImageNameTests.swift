import Testing

@testable import GalleryCore

@Suite struct SavedImageNameTests {
    @Test func theNameKeepsAnExtensionThatMatchesTheBytes() {
        #expect(SavedImageName.fileName(label: "cat.png", mimeType: "image/png") == "cat.png")
        #expect(SavedImageName.fileName(label: "cat.JPEG", mimeType: "image/jpeg") == "cat.JPEG")
        #expect(SavedImageName.fileName(label: "scan.tiff", mimeType: "image/tiff") == "scan.tiff")
    }

    @Test func aWrongImageExtensionIsReplacedAndAMissingOneAdded() {
        #expect(SavedImageName.fileName(label: "cat.png", mimeType: "image/jpeg") == "cat.jpg")
        #expect(SavedImageName.fileName(label: "photo", mimeType: "image/webp") == "photo.webp")
        // Not an image extension: part of the name, so the real one follows it.
        #expect(SavedImageName.fileName(label: "image.php", mimeType: "image/gif") == "image.php.gif")
        #expect(SavedImageName.fileName(label: "v1.2", mimeType: "image/png") == "v1.2.png")
    }

    @Test func unknownBytesKeepTheLabel() {
        #expect(SavedImageName.fileName(label: "drawing.xcf", mimeType: nil) == "drawing.xcf")
    }

    @Test func theNameIsAPlainVisibleFileName() {
        #expect(SavedImageName.fileName(label: "a/b.png", mimeType: "image/png") == "a_b.png")
        #expect(SavedImageName.fileName(label: "..hidden.png", mimeType: "image/png") == "hidden.png")
        #expect(SavedImageName.fileName(label: "  ", mimeType: "image/png") == "image.png")
        #expect(SavedImageName.fileName(label: "bad\u{0}name.png", mimeType: "image/png") == "badname.png")
        let long = SavedImageName.fileName(label: String(repeating: "é", count: 300), mimeType: "image/jpeg")
        #expect(long.utf8.count <= 255)
        #expect(long.hasSuffix("é.jpg"))
    }

    @Test func numberedNamesGoBeforeTheExtension() {
        #expect(SavedImageName.numbered("cat.jpg", 1) == "cat.jpg")
        #expect(SavedImageName.numbered("cat.jpg", 2) == "cat (2).jpg")
        #expect(SavedImageName.numbered("README", 3) == "README (3)")
    }
}
