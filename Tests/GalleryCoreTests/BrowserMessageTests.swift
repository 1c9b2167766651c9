import Foundation
import Testing

@testable import GalleryCore

/// The browser extension's messages as the native host and the app read them: every malformed, oversized or
/// mistyped message is refused with its reason, and a good one keeps what the page said.
struct BrowserMessageTests {
    private static let pngBytes = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])

    private func parse(_ json: String) throws(BrowserMessage.Failure) -> BrowserMessage {
        try BrowserMessage.parse(Array(json.utf8))
    }

    private func reason(_ json: String) -> String? {
        do {
            _ = try parse(json)
            return nil
        } catch { return error.reason }
    }

    @Test func anImageKeepsItsPageItsAddressesLargestFirstAndWhatThePageSaidOfIt() throws {
        let message = try parse(
            """
            {"kind": "image", "page": {"address": "http://127.0.0.1:8000/cats/", "title": "Cats\\nof the week"},
             "image": {"address": "http://127.0.0.1:8000/cat-small.png", "srcset": "cat-400.png 400w, /cat-1600.png 1600w",
                       "altText": "A cat", "title": "Tom", "link": "http://127.0.0.1:8000/tom.html"}}
            """)
        let expected = BrowserImage(
            page: "http://127.0.0.1:8000/cats/", pageTitle: "Cats of the week",
            addresses: [
                "http://127.0.0.1:8000/cat-1600.png", "http://127.0.0.1:8000/cats/cat-400.png",
                "http://127.0.0.1:8000/cat-small.png",
            ], altText: "A cat", title: "Tom", link: "http://127.0.0.1:8000/tom.html")
        #expect(message == .image(expected))
        let dropped = expected.dropped
        #expect(dropped.url == "http://127.0.0.1:8000/cat-1600.png")
        #expect(dropped.origin?.page == "http://127.0.0.1:8000/cats/")
        #expect(dropped.origin?.pageTitle == "Cats of the week")
        #expect(dropped.origin?.altText == "A cat")
        #expect(dropped.origin?.link == "http://127.0.0.1:8000/tom.html")
    }

    @Test func aBlobImageComesAsItsBytesAlone() throws {
        let message = try parse(
            """
            {"kind": "image", "page": {"address": "https://example.org/"},
             "image": {"address": "blob:https://example.org/5b1c"},
             "bytes": {"mimeType": "image/png", "data": "\(Self.pngBytes.base64EncodedString())"}}
            """)
        guard case .image(let image) = message else { return #expect(Bool(false)) }
        #expect(image.addresses.isEmpty)
        #expect(image.bytes == .inline(Self.pngBytes, mimeType: "image/png"))
        #expect(image.dropped.url == nil)
        #expect(image.dropped.fallbackBytes == Self.pngBytes)
    }

    @Test func malformedMessagesAreRefusedWithTheirReason() {
        #expect(reason("{\"kind\": \"image\"") == "the message is not JSON (at byte 16)")
        #expect(reason("[1, 2]") == "the message must be a JSON object")
        #expect(reason("{}") == "“kind” must be a string")
        #expect(reason("{\"kind\": \"delete-everything\"}") == "unknown kind “delete-everything”")
        #expect(
            reason("{\"kind\": \"image\", \"page\": {\"address\": \"https://a.org/\"}}") == "“image” must be an object")
        #expect(
            reason(
                "{\"kind\": \"image\", \"page\": {\"address\": \"https://a.org/\"}, \"image\": {\"address\": \"blob:x\"}}"
            )
                == "an image needs an http or https address or its bytes")
    }

    @Test func fieldsOfTheWrongTypeAreRefused() {
        let page = "\"page\": {\"address\": \"https://a.org/\"}"
        #expect(reason("{\"kind\": 3}") == "“kind” must be a string")
        #expect(reason("{\"kind\": \"image\", \"page\": \"https://a.org/\"}") == "“page” must be an object")
        #expect(
            reason("{\"kind\": \"image\", \"page\": {\"address\": \"file:///etc/passwd\"}, \"image\": {}}")
                == "“page.address” must be an http or https address")
        #expect(
            reason("{\"kind\": \"image\", \(page), \"image\": {\"address\": [\"https://a.org/a.png\"]}}")
                == "“image.address” must be a string")
        #expect(
            reason("{\"kind\": \"image\", \(page), \"image\": {\"address\": \"https://a.org/a.png\", \"altText\": 7}}")
                == "“image.altText” must be a string")
        #expect(
            reason(
                "{\"kind\": \"image\", \(page), \"image\": {}, \"bytes\": {\"mimeType\": \"text/html\", \"data\": \"PGgxPg==\"}}"
            )
                == "“bytes.mimeType” must be an image type")
        #expect(
            reason(
                "{\"kind\": \"image\", \(page), \"image\": {}, \"bytes\": {\"mimeType\": \"image/png\", \"data\": \"%%%\"}}"
            )
                == "“bytes.data” must be base64")
        #expect(reason("{\"kind\": \"page\", \(page), \"images\": {}}") == "“images” must be an array")
        #expect(
            reason("{\"kind\": \"page\", \(page), \"images\": [\"https://a.org/a.png\"]}")
                == "“images[0]” must be an object")
        #expect(
            reason(
                "{\"kind\": \"page\", \(page), \"images\": [{\"address\": \"https://a.org/a.png\", \"width\": \"wide\"}]}"
            )
                == "“images[0].width” must be a whole number of pixels")
    }

    @Test func anOversizedMessageIsRefusedUnread() {
        let padding = String(repeating: "a", count: BrowserMessage.maximumMessageBytes)
        let json =
            "{\"kind\": \"page\", \"page\": {\"address\": \"https://a.org/\", \"title\": \"\(padding)\"}, \"images\": []}"
        #expect(
            reason(json)
                == "the message is \(json.utf8.count) bytes, over the limit of \(BrowserMessage.maximumMessageBytes)")
        let longAddress = "https://a.org/" + String(repeating: "a", count: BrowserMessage.maximumAddressBytes)
        #expect(
            reason("{\"kind\": \"page\", \"page\": {\"address\": \"\(longAddress)\"}, \"images\": []}")
                == "“page.address” is longer than \(BrowserMessage.maximumAddressBytes) bytes")
    }

    @Test func aPageKeepsItsFetchableImagesInOrderOnceEach() throws {
        let message = try parse(
            """
            {"kind": "page", "page": {"address": "https://a.org/p", "title": "P"}, "images": [
              {"address": "https://a.org/1.png", "altText": "one", "width": 800, "height": 600},
              {"address": "data:image/png;base64,AAAA"}, {"address": "blob:https://a.org/x"},
              {"address": "https://a.org/2.png", "link": "https://a.org/2.html"}, {"address": "https://a.org/1.png"}]}
            """)
        #expect(
            message
                == .page(
                    PageCapture(
                        pageAddress: "https://a.org/p", pageTitle: "P",
                        images: [
                            PageImage(address: "https://a.org/1.png", altText: "one", width: 800, height: 600),
                            PageImage(address: "https://a.org/2.png", link: "https://a.org/2.html"),
                        ])))
    }

    @Test func whatTheHostHandsOnReadsBackAsTheSameMessage() throws {
        let image = BrowserImage(
            page: "https://a.org/p", pageTitle: "“P”", addresses: ["https://a.org/big.png", "https://a.org/small.png"],
            altText: "a \"quoted\" cat", link: "https://a.org/l", bytes: .inline(Self.pngBytes, mimeType: "image/png"))
        let forwarded = BrowserMessage.image(image).encoded
        #expect(try BrowserMessage.parse(forwarded, limit: BrowserMessage.maximumForwardedBytes) == .image(image))
        let capture = PageCapture(
            pageAddress: "https://a.org/p", pageTitle: nil,
            images: [PageImage(address: "https://a.org/1.png", width: 3)])
        #expect(try BrowserMessage.parse(BrowserMessage.page(capture).encoded) == .page(capture))
    }
}
