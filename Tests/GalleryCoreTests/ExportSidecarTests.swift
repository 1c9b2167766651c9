import Foundation
import Testing

@testable import GalleryCore

/// Which of an image's facts go into which field of its XMP sidecar.
@Suite struct ExportSidecarTests {
    private func image(origin: ImageOrigin?, note: String? = nil, url: String = "https://example.org/cat.jpg")
        -> GalleryImage
    {
        var image = GalleryImage(url: url, aspectRatio: 1.5)
        image.origin = origin
        image.note = note
        return image
    }

    @Test func everythingKnownHasItsField() {
        let sidecar = ExportSidecar(
            image: image(
                origin: ImageOrigin(
                    arrival: .drop, added: "2026-11-26T22:40:00Z", link: "https://example.org/tom",
                    page: "https://example.org/cats", altText: "A cat", title: "Tom", browserDescription: "Tom!"),
                note: "The light"),
            mediaType: "image/jpeg")
        #expect(sidecar.source == "https://example.org/cat.jpg")
        #expect(sidecar.title == "Tom")
        #expect(sidecar.imageDescription == "The light")
        #expect(sidecar.relations == ["https://example.org/cats", "https://example.org/tom"])
        #expect(sidecar.added == "2026-11-26T22:40:00Z")
        #expect(sidecar.mediaType == "image/jpeg")
    }

    @Test func theAltTextStandsInForTitleAndNote() {
        let sidecar = ExportSidecar(image: image(origin: ImageOrigin(altText: "A cat")), mediaType: nil)
        #expect(sidecar.title == "A cat" && sidecar.imageDescription == "A cat")
        let described = ExportSidecar(image: image(origin: ImageOrigin(browserDescription: "Tom")), mediaType: nil)
        #expect(described.title == "Tom" && described.imageDescription == nil)
        let blank = ExportSidecar(image: image(origin: ImageOrigin(altText: " \n", title: "")), mediaType: nil)
        #expect(blank.title == nil && blank.imageDescription == nil)
    }

    @Test func anImageFromBeforeOriginsHasItsSourceOnly() {
        let sidecar = ExportSidecar(image: image(origin: nil), mediaType: "image/png")
        #expect(sidecar.source == "https://example.org/cat.jpg")
        #expect(sidecar.title == nil && sidecar.imageDescription == nil && sidecar.added == nil)
        #expect(sidecar.relations.isEmpty)
    }

    @Test func aDataAddressIsNoSource() {
        let sidecar = ExportSidecar(
            image: image(origin: nil, url: "data:image/png;base64,iVBORw0KGgo="), mediaType: nil)
        #expect(sidecar.source == nil)
    }

    @Test func theSamePageAndLinkIsOneRelation() {
        let sidecar = ExportSidecar(
            image: image(origin: ImageOrigin(link: "https://example.org/p", page: "https://example.org/p")),
            mediaType: nil)
        #expect(sidecar.relations == ["https://example.org/p"])
    }

    @Test func theAddedDateIsWrittenOnlyWhenItIsOne() {
        let fractional = ExportSidecar(
            image: image(origin: ImageOrigin(added: "2026-11-26T23:40:00.250+01:00")), mediaType: nil)
        #expect(fractional.added == "2026-11-26T22:40:00Z")
        let garbage = ExportSidecar(image: image(origin: ImageOrigin(added: "last Tuesday")), mediaType: nil)
        #expect(garbage.added == nil)
    }

    @Test func whatXMLCannotCarryIsLeftOut() {
        let sidecar = ExportSidecar(
            image: image(origin: ImageOrigin(title: "a\u{0}b\u{1B}c\u{85}d\u{FFFE}e\tf"), note: "\u{7}"), mediaType: nil
        )
        #expect(sidecar.title == "abcde\tf")
        #expect(sidecar.imageDescription == nil)
    }
}
