import Foundation
import Testing

@testable import GalleryCore

@Suite("A page's images brought in")
struct PageCaptureTests {
    @Test func anImageChosenFromAPageNamesThePageAndItsTitleInItsOrigin() {
        let capture = PageCapture(
            pageAddress: "https://e.org/cats.html", pageTitle: "Cats",
            images: [PageImage(address: "https://e.org/a.jpg", altText: "A", title: "T", link: "https://e.org/a")])
        let dropped = capture.dropped(capture.images[0])
        #expect(dropped.url == "https://e.org/a.jpg")
        #expect(
            dropped.origin
                == ImageOrigin(
                    link: "https://e.org/a", page: "https://e.org/cats.html", altText: "A", title: "T",
                    pageTitle: "Cats"))
    }

    @Test func thePageTitleIsKeptInTheStateFileAndOlderFilesLoadWithout() throws {
        var image = GalleryImage(id: ImageID("i"), url: "https://e.org/a.jpg", aspectRatio: 1)
        image.origin = ImageOrigin(arrival: .paste, page: "https://e.org/", pageTitle: "Cats « and » dogs")
        let state = GalleryState(galleries: [Gallery(id: "g", name: "G", images: [image])])
        let written = String(decoding: StateStore.encode(state), as: UTF8.self)
        #expect(written.contains("\"pageTitle\" : \"Cats « and » dogs\""))
        #expect(try StateStore.decode(Data(written.utf8)) == state)
        let older = try StateStore.decode(
            Data(
                #"{"version": 1, "galleries": [{"id": "g", "name": "G", "images": [{"id": "i", "url": "u", "aspectRatio": 2, "origin": {"page": "https://e.org/"}}]}]}"#
                    .utf8))
        #expect(older.galleries.first?.images.first?.origin?.pageTitle == nil)
    }

    @Test func thePropertiesShowThePageTitleAfterThePage() {
        var image = GalleryImage(id: ImageID("i"), url: "https://e.org/a.jpg", aspectRatio: 1)
        image.origin = ImageOrigin(page: "https://e.org/", pageTitle: "Cats")
        let rows = ImageProperties(image, pixelSize: nil, date: { _ in nil }, byteSize: { "\($0)" }).rows
        #expect(rows.map(\.field) == [.address, .page, .pageTitle])
        #expect(rows.last?.value == "Cats")
    }
}
