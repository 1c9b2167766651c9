import Foundation
import GalleryCore
import Testing

// What real browsers said of an image inside a link, replayed byte for byte: measured by dragging
// `<a href="/article.html" title="Read the article"><img id="magenta" src="/img/magenta.png" width="160"
// height="128" alt="A magenta square" title="Magenta"></a>` from a page on 127.0.0.1 into a GTK 3 window
// under Xvfb that asked for every target offered (Firefox ESR 153, Chromium 156; ports as they were).

private func utf8(_ s: String) -> [UInt8] { Array(s.utf8) }
private func utf16LE(_ s: String, bom: Bool = false) -> [UInt8] {
    (bom ? [0xFF, 0xFE] : []) + s.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
}
private func base64(_ s: String) -> [UInt8] { [UInt8](Data(base64Encoded: s)!) }

private let firefoxImage = "http://127.0.0.1:43851/img/magenta.png"
private let firefoxArticle = "http://127.0.0.1:43851/article.html"
/// Every target Firefox offered, with its data (image/jpg, image/gif and the native image came empty).
private let firefoxReceived: [String: [UInt8]] = [
    "text/x-moz-url": utf16LE(firefoxArticle + "\nA magenta square"),
    "_NETSCAPE_URL": utf8(firefoxArticle + "\nA magenta square"),
    "text/x-moz-url-data": utf16LE(firefoxArticle),
    "text/x-moz-url-desc": utf16LE("A magenta square"),
    "text/_moz_htmlcontext": utf16LE(#"<html><body><div class="item"></div></body></html>"#),
    "text/_moz_htmlinfo": utf16LE("0,0"),
    "text/html": utf8(
        #"<meta http-equiv="content-type" content="text/html; charset=utf-8"><a href="http://127.0.0.1:43851/article.html" title="Read the article"><img id="magenta" src="http://127.0.0.1:43851/img/magenta.png" width="160" height="128" alt="A magenta square" title="Magenta"></a>"#
    ),
    "text/plain": utf8(firefoxArticle),
    "text/plain;charset=utf-8": utf8(firefoxArticle),
    "UTF8_STRING": utf8(firefoxArticle),
    "STRING": utf8(firefoxArticle),
    "image/png": base64(
        "iVBORw0KGgoAAAANSUhEUgAAAKAAAACACAYAAACMY2IbAAAABHNCSVQICAgIfAhkiAAAAkxJREFUeF7t0kENACEAA8HjdKEYYdiABBP7mRpospmx5zqfKRAV+KNftwq8AgCCkBYAMM3vHEAG0gIApvmdA8hAWgDANL9zABlICwCY5ncOIANpAQDT/M4BZCAtAGCa3zmADKQFAEzzOweQgbQAgGl+5wAykBYAMM3vHEAG0gIApvmdA8hAWgDANL9zABlICwCY5ncOIANpAQDT/M4BZCAtAGCa3zmADKQFAEzzOweQgbQAgGl+5wAykBYAMM3vHEAG0gIApvmdA8hAWgDANL9zABlICwCY5ncOIANpAQDT/M4BZCAtAGCa3zmADKQFAEzzOweQgbQAgGl+5wAykBYAMM3vHEAG0gIApvmdA8hAWgDANL9zABlICwCY5ncOIANpAQDT/M4BZCAtAGCa3zmADKQFAEzzOweQgbQAgGl+5wAykBYAMM3vHEAG0gIApvmdA8hAWgDANL9zABlICwCY5ncOIANpAQDT/M4BZCAtAGCa3zmADKQFAEzzOweQgbQAgGl+5wAykBYAMM3vHEAG0gIApvmdA8hAWgDANL9zABlICwCY5ncOIANpAQDT/M4BZCAtAGCa3zmADKQFAEzzOweQgbQAgGl+5wAykBYAMM3vHEAG0gIApvmdA8hAWgDANL9zABlICwCY5ncOIANpAQDT/M4BZCAtAGCa3zmADKQFAEzzOweQgbQAgGl+5wAykBYAMM3vHEAG0gIApvmdA8hAWgDANL9zABlICwCY5ncOIANpAQDT/M4BZCAtAGCa3zmADKQFAEzzO7/ciAPLsXfNQQAAAABJRU5ErkJggg=="
    ),
    "XdndDirectSave0": utf8("E"),
    "application/x-moz-file-promise-url": utf16LE(firefoxImage),
    "text/uri-list": utf8(firefoxArticle + "\r\n"),
    "application/x-moz-file-promise-dest-filename": utf16LE("magenta.png"),
]
private let firefoxOffered = [
    "text/x-moz-url", "_NETSCAPE_URL", "text/x-moz-url-data", "text/x-moz-url-desc",
    "application/x-moz-custom-clipdata", "text/_moz_htmlcontext", "text/_moz_htmlinfo", "text/html", "text/plain",
    "text/plain;charset=utf-8", "UTF8_STRING", "STRING", "application/x-moz-nativeimage", "image/png", "image/jpeg",
    "image/jpg", "image/gif", "application/x-moz-file-promise", "XdndDirectSave0", "application/x-moz-file-promise-url",
    "text/uri-list", "application/x-moz-file-promise-dest-filename",
]

private let chromiumImage = "http://127.0.0.1:37319/img/magenta.png"
private let chromiumArticle = "http://127.0.0.1:37319/article.html"
private let chromiumReceived: [String: [UInt8]] = [
    "text/x-moz-url": utf16LE(chromiumArticle + "\nA magenta square"),
    "UTF8_STRING": utf8(chromiumArticle),
    "STRING": utf8(chromiumArticle),
    "TEXT": utf8(chromiumArticle),
    "text/plain": utf8(chromiumArticle),
    "XdndDirectSave0": utf8("F"),
    "application/octet-stream": base64(
        "iVBORw0KGgoAAAANSUhEUgAAAKAAAACACAIAAAADAfVMAAAA2klEQVR42u3RAQ0AAAjDsAtDMcLQgY+nyRSsuVkVFwsAC7AAC7AAC7AAAxZgARZgARZgAQYswAIswAIswAIswIAFWIAFWIAFWIABC7AAC7AAC7AAAxZgARZgARZgARZgwAIswAIswAIswIAFWIAFWIAFWIABuwBYgAVYgAVYgAUYsAALsAALsAALMGABFmABFmABFmABBizAAizAAizAAgxYgAVYgAVYgAUYsAALsAALsAALsAADFmABFmABFmABBizAAizAAizAAgzYBcACLMACLMACLMCA1dEDxgjIYuJoyOgAAAAASUVORK5CYII="
    ),
    "chromium/x-renderer-taint": utf8("http://127.0.0.1:37319"),
    "text/html": utf16LE(
        #"<img id="magenta" src="http://127.0.0.1:37319/img/magenta.png" width="160" height="128" alt="A magenta square" title="Magenta">"#,
        bom: true),
    "chromium/x-drag-id": utf8("01E8D50AD4ADB0BEC0C9E09F5F81F364"),
]
private let chromiumOffered = [
    "text/x-moz-url", "UTF8_STRING", "STRING", "TEXT", "text/plain", "XdndDirectSave0", "application/octet-stream",
    "chromium/x-renderer-taint", "text/html", "chromium/x-drag-id",
]

/// What the app asks for at a drop, and what came for those targets.
private func requested(_ offered: [String], from received: [String: [UInt8]]) -> [String: [UInt8]] {
    let targets = DropPayload.targetsToRequest(offered: offered) + DropPayload.originTargetsToRequest(offered: offered)
    return received.filter { targets.contains($0.key) }
}

@Suite("Where a dropped image came from")
struct DropPayloadOriginTests {
    @Test func firefoxIsAlsoAskedForItsDescription() {
        #expect(DropPayload.originTargetsToRequest(offered: firefoxOffered) == ["text/x-moz-url"])
        // Chromium's best URL target is text/x-moz-url already.
        #expect(DropPayload.originTargetsToRequest(offered: chromiumOffered) == [])
        #expect(DropPayload.originTargetsToRequest(offered: ["text/uri-list"]) == [])
    }

    @Test func firefoxImageInsideALink() {
        let images = DropPayload.images(received: requested(firefoxOffered, from: firefoxReceived))
        #expect(images.map(\.url) == [firefoxImage])
        #expect(
            images.first?.origin
                == ImageOrigin(
                    link: firefoxArticle, altText: "A magenta square", title: "Magenta",
                    browserDescription: "A magenta square"))
    }

    @Test func firefoxGivesNoPageAddressInAnyTarget() {
        // Its HTML context holds the ancestors' markup only, its HTML info two offsets.
        let images = DropPayload.images(received: firefoxReceived)
        #expect(images.map(\.url) == [firefoxImage])
        #expect(images.first?.origin?.page == nil)
        #expect(images.first?.origin?.link == firefoxArticle)
    }

    @Test func chromiumImageInsideALink() {
        let images = DropPayload.images(received: requested(chromiumOffered, from: chromiumReceived))
        #expect(images.map(\.url) == [chromiumImage])
        // Its HTML has no `<a>`: the link is the URL its other targets name.
        #expect(
            images.first?.origin
                == ImageOrigin(
                    link: chromiumArticle, altText: "A magenta square", title: "Magenta",
                    browserDescription: "A magenta square"))
        // The renderer taint names the page's origin, not the page.
        #expect(DropPayload.images(received: chromiumReceived).first?.origin?.page == nil)
    }

    @Test func plainImagesHaveNoLinkAndFirefoxsRepeatedURLIsNoDescription() {
        let url = "http://127.0.0.1:8765/cat.png"
        let firefox = DropPayload.images(received: [
            "text/uri-list": utf8(url + "\r\n"),
            "text/x-moz-url": utf16LE(url + "\n" + url),
            "text/html": utf8(#"<meta charset="utf-8"><img id="i" src="http://127.0.0.1:8765/cat.png">"#),
        ])
        #expect(firefox.map(\.url) == [url])
        #expect(firefox.first?.origin == nil)
        let chromium = DropPayload.images(received: [
            "text/x-moz-url": utf16LE(url + "\n"),
            "text/html": utf16LE(#"<img id="i" src="http://127.0.0.1:8765/cat.png" alt="a cat">"#, bom: true),
        ])
        #expect(chromium.first?.origin == ImageOrigin(altText: "a cat"))
    }

    @Test func theLinksTitleStandsForAMissingImageTitle() {
        let images = DropPayload.images(
            received: [
                "text/html": utf8(
                    #"<a href="/post/7" title="Seven &amp; more"><img src="/7.jpg" alt="  a   seven&#10;"></a>"#)
            ], baseURL: URL(string: "https://example.com/blog/"))
        #expect(images.map(\.url) == ["https://example.com/7.jpg"])
        #expect(
            images.first?.origin
                == ImageOrigin(link: "https://example.com/post/7", altText: "a seven", title: "Seven & more"))
    }

    @Test func eachImageOfSeveralKeepsItsOwnText() {
        let images = DropPayload.images(received: [
            "text/html": utf8(
                #"<a href="https://a.test/"><img src="https://a.test/1.png" alt="one"></a>"#
                    + #"<img src="https://a.test/2.png" title="two">"#)
        ])
        #expect(
            images.map(\.origin) == [
                ImageOrigin(link: "https://a.test/", altText: "one"), ImageOrigin(title: "two"),
            ])
    }

    @Test func aSearchResultNamesThePageButItsLinkIsNoLink() {
        let thumbnail = "https://encrypted-tbn0.gstatic.com/images?q=tbn:abc"
        let wrapper =
            "https://www.google.com/imgres?imgurl=https%3A%2F%2Fcats.test%2Fbig.jpg"
            + "&imgrefurl=https%3A%2F%2Fcats.test%2Fpost.html&docid=x"
        // Firefox: the wrapper link is the `<a>` around the thumbnail.
        let html = DropPayload.images(received: [
            "text/html": utf8(#"<a href="\#(wrapper)"><img src="\#(thumbnail)" alt="Big cat"></a>"#)
        ])
        #expect(html.first?.url == "https://cats.test/big.jpg")
        #expect(html.first?.origin == ImageOrigin(page: "https://cats.test/post.html", altText: "Big cat"))
        // Chromium: the wrapper is the URL target, the thumbnail alone in the HTML.
        let chromium = DropPayload.images(received: [
            "text/x-moz-url": utf16LE(wrapper + "\n"),
            "text/html": utf16LE(#"<img src="\#(thumbnail)">"#, bom: true),
        ])
        #expect(chromium.first?.url == "https://cats.test/big.jpg")
        #expect(chromium.first?.origin == ImageOrigin(page: "https://cats.test/post.html"))
    }

    @Test func hostileTextIsOneBoundedLine() {
        let alt = String(repeating: "cat\u{0} \n", count: 5000)
        let images = DropPayload.images(received: [
            "text/html": utf8(#"<img src="https://a.test/1.png" alt="\#(alt)">"#)
        ])
        let recorded = images.first?.origin?.altText ?? ""
        #expect(recorded.count == 1000)
        #expect(recorded.hasPrefix("cat cat cat"))
        #expect(!recorded.contains("\n"))
        #expect(recorded.hasSuffix("…"))
    }
}
