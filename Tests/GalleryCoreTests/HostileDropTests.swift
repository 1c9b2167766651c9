import Foundation
import GalleryCore
import Testing

// What a page's `dragstart` or a paste can hand over at scale (issue 30): the parse gives the right images
// whatever the size; its time is measured by `gallery-benchmark`, not here.

private let flood = 100_000

private func utf8(_ s: String) -> [UInt8] { Array(s.utf8) }
private func floodURL(_ index: Int) -> String { "https://images.example.org/flood/\(index).jpg" }

/// A 1×1 PNG.
private let pngBase64 =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

@Suite("Hostile drops")
struct HostileDropTests {
    @Test func aLongURIListBesideHTMLGivesEveryImageOnceInOrder() {
        // Every address twice: the second mention adds nothing.
        let list = (0..<flood).map { floodURL($0) + "\r\n" }.joined()
        let received = [
            "text/uri-list": utf8(list + list),
            "text/html": utf8(#"<p><a href="https://e.org/page"><img src="https://e.org/shown.jpg"></a>"#),
        ]
        let images = DropPayload.images(received: received)
        #expect(images.count == flood + 1)
        #expect(images.first?.url == "https://e.org/shown.jpg")
        #expect(images.dropFirst().map(\.url) == (0..<flood).map(floodURL))
    }

    @Test func aURIListAndHTMLOfTheSameImagesGiveThemOnce() {
        let received = [
            "text/uri-list": utf8((0..<flood).map { floodURL($0) + "\r\n" }.joined()),
            "text/html": utf8((0..<flood).map { #"<div><img src="\#(floodURL($0))">"# }.joined()),
        ]
        #expect(DropPayload.images(received: received).map(\.url) == (0..<flood).map(floodURL))
    }

    @Test func aSrcsetOfAHundredThousandCandidatesKeepsTheLargestFew() {
        // Widths out of order, so that the largest are found anywhere in the list.
        let widths = (0..<flood).map { ($0 * 7919) % flood + 1 }
        let srcset = widths.map { "https://e.org/s/\($0).jpg \($0)w" }.joined(separator: ", ")
        let html = utf8(#"<img src="https://e.org/small.jpg" srcset="\#(srcset)">"#)
        let images = DropPayload.images(received: ["text/html": html])
        #expect(images.count == 1)
        #expect(images.first?.url == "https://e.org/s/\(flood).jpg")
        #expect(
            images.first?.alternateURLs == [
                "https://e.org/small.jpg", "https://e.org/s/\(flood - 1).jpg", "https://e.org/s/\(flood - 2).jpg",
            ])
        #expect(ImageLimits.maximumAddressesPerImage == 3)
    }

    @Test func aSrcsetOfAHundredThousandCandidatesCostsThreeRequests() {
        let srcset = (1...flood).map { "https://e.org/s/\($0).jpg \($0)w" }.joined(separator: ", ")
        let html = utf8(#"<img src="https://e.org/small.jpg" srcset="\#(srcset)">"#)
        #expect(
            DropPayload.images(received: ["text/html": html]).first?.addressesToTry == [
                "https://e.org/s/\(flood).jpg", "https://e.org/small.jpg", "https://e.org/s/\(flood - 1).jpg",
            ])
        #expect(DroppedImage(url: nil).addressesToTry == [])
        #expect(
            DroppedImage(url: nil, alternateURLs: ["https://e.org/a.png"]).addressesToTry == ["https://e.org/a.png"])
    }

    @Test func deeplyNestedAndUnterminatedHTMLEndsWithTheImagesItHolds() {
        let nested = String(repeating: "<div><span>", count: flood) + #"<img src="https://e.org/deep.png">"#
        #expect(DropPayload.images(received: ["text/html": utf8(nested)]).map(\.url) == ["https://e.org/deep.png"])
        let open = #"<img src="https://e.org/first.png">"# + String(repeating: "<a href='", count: flood)
        #expect(DropPayload.images(received: ["text/html": utf8(open)]).map(\.url) == ["https://e.org/first.png"])
        let comment = #"<img src="https://e.org/before.png"><!--"# + String(repeating: "<img src=x>", count: flood)
        #expect(DropPayload.images(received: ["text/html": utf8(comment)]).map(\.url) == ["https://e.org/before.png"])
        let script = #"<script>"# + String(repeating: "</scrip", count: flood) + #"<img src="https://e.org/no.png">"#
        #expect(DropPayload.images(received: ["text/html": utf8(script)]).isEmpty)
    }

    @Test func hugePlainTextIsNotAnAddress() {
        let text = [UInt8](repeating: UInt8(ascii: "a"), count: 2 * ImageLimits.maximumAddressLength + 100)
        let contents = DropPayload.contents(received: ["text/plain": text])
        #expect(contents.images.isEmpty)
        #expect(contents.oversizedAddresses == 1)
    }

    @Test func aDataURILongerThanTheLargestDownloadIsLeftOutUnread() {
        let payload = String(repeating: "A", count: ImageLimits.maximumAddressLength)
        let list = "data:image/png;base64,\(payload)\r\nhttps://e.org/kept.png\r\n"
        let contents = DropPayload.contents(received: ["text/uri-list": utf8(list)])
        #expect(contents.images.map(\.url) == ["https://e.org/kept.png"])
        #expect(contents.oversizedAddresses == 1)
        let html = #"<img src="data:image/png;base64,\#(payload)">"#
        let fromHTML = DropPayload.contents(received: ["text/html": utf8(html)])
        #expect(fromHTML.images.isEmpty)
        #expect(fromHTML.oversizedAddresses == 1)
    }

    @Test func aDataURIIsCheckedWithoutDecodingAndDecodesToItsBytes() {
        let uri = "data:image/png;base64,\(pngBase64)"
        #expect(DropPayload.images(received: ["text/uri-list": utf8(uri)]).map(\.url) == [uri])
        #expect(DropPayload.decodeDataURI(uri)?.data == Data(base64Encoded: pngBase64))
        #expect(DropPayload.dataURIByteCount(uri) == Data(base64Encoded: pngBase64)?.count)
        let spaced = "data:image/png;base64,\(pngBase64.prefix(20)) \n\(pngBase64.dropFirst(20))"
        #expect(DropPayload.decodeDataURI(spaced)?.data == Data(base64Encoded: pngBase64))
        #expect(DropPayload.decodeDataURI("data:image/png;base64,\(pngBase64)=") == nil)
        #expect(DropPayload.decodeDataURI("data:image/png;base64,iVBO=Rw0K") == nil)
        #expect(DropPayload.dataURIByteCount("data:image/png;base64,iVBO=Rw0K") == nil)
    }
}

@Suite("Local addresses in web content")
struct WebContentFileTests {
    private let secret = "file:///home/me/.ssh/id_ed25519.png"

    @Test func anImageOfAPageThatPointsAtAFileIsNotFollowed() {
        let html = #"<img src="\#(secret)"><img srcset="file:///etc/a.png 2x" src="https://e.org/b.png">"#
        #expect(DropPayload.images(received: ["text/html": utf8(html)]).map(\.url) == ["https://e.org/b.png"])
        let based = #"<base href="file:///home/me/"><img src="cat.png">"#
        #expect(DropPayload.images(received: ["text/html": utf8(based)]).isEmpty)
    }

    @Test func fileAddressesOfABrowserDragAreNotFollowed() {
        let mozURL = Array((secret + "\n" + "title").utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        #expect(DropPayload.images(received: ["text/x-moz-url": mozURL]).isEmpty)
        // A page's `dragstart` can set a URI list too; the browser's own targets beside it give it away.
        let offered = ["text/uri-list", "text/_moz_htmlcontext", "text/plain"]
        #expect(DropPayload.images(received: ["text/uri-list": utf8(secret)], offered: offered).isEmpty)
        #expect(DropPayload.isWebContent(offered: ["chromium/x-renderer-taint", "text/plain"]))
    }

    @Test func aFileManagersURIListIsFollowed() {
        let offered = ["text/uri-list", "UTF8_STRING", "x-special/gnome-icon-list"]
        #expect(!DropPayload.isWebContent(offered: offered))
        #expect(DropPayload.images(received: ["text/uri-list": utf8(secret)], offered: offered).map(\.url) == [secret])
    }
}
