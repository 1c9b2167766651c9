import Foundation
import GalleryCore
import Testing

// Byte-exact samples of what Firefox ESR and Chromium handed over in an X11 drag of
// `<img src="http://127.0.0.1:8765/cat.png">` under Xvfb, plus malformed input.

private let catURL = "http://127.0.0.1:8765/cat.png"
private let cat = ImageSource.remote(URL(string: catURL)!)

private func remote(_ s: String) -> ImageSource { .remote(URL(string: s)!) }
private func utf8(_ s: String) -> [UInt8] { Array(s.utf8) }
private func utf16LE(_ s: String, bom: Bool = false) -> [UInt8] {
    (bom ? [0xFF, 0xFE] : []) + s.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
}
private func utf16BE(_ s: String) -> [UInt8] {
    [0xFE, 0xFF] + s.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
}

/// A 1×1 PNG.
private let pngBase64 =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
private let pngBytes = [UInt8](Data(base64Encoded: pngBase64)!)
private let jpegBytes: [UInt8] =
    [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + utf8("JFIF") + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xFF, 0xD9]

// Targets in the order each browser offers them.
private let firefoxTargets = [
    "text/x-moz-url", "_NETSCAPE_URL", "text/x-moz-url-data", "text/x-moz-url-desc",
    "application/x-moz-custom-clipdata", "text/_moz_htmlcontext", "text/_moz_htmlinfo", "text/html", "text/plain",
    "text/plain;charset=utf-8", "UTF8_STRING", "STRING", "application/x-moz-nativeimage", "image/png", "image/jpeg",
    "image/jpg", "image/gif", "application/x-moz-file-promise", "XdndDirectSave0", "application/x-moz-file-promise-url",
    "text/uri-list", "application/x-moz-file-promise-dest-filename",
]
private let chromiumTargets = [
    "text/x-moz-url", "UTF8_STRING", "STRING", "TEXT", "text/plain", "XdndDirectSave0", "application/octet-stream",
    "chromium/x-renderer-taint", "text/html", "chromium/x-drag-id",
]

// Data as measured.
private let firefoxURIList = utf8(catURL + "\r\n")
private let firefoxMozURL = utf16LE(catURL + "\n" + catURL)
private let firefoxHTML = utf8(
    #"<meta http-equiv="content-type" content="text/html; charset=utf-8"><img id="i" src="http://127.0.0.1:8765/cat.png" alt="a cat">"#
)
private let chromiumMozURL = utf16LE(catURL + "\n")
private let chromiumHTML = utf16LE(#"<img id="i" src="http://127.0.0.1:8765/cat.png">"#, bom: true)
private let chromiumUTF8String = utf8(catURL)

@Suite("DropPayload targets")
struct DropPayloadTargetTests {
    @Test func firefoxTargetsInPreferenceOrder() {
        #expect(
            DropPayload.preferredTargets(offered: firefoxTargets) == [
                "text/uri-list", "text/x-moz-url", "_NETSCAPE_URL", "text/html", "text/plain;charset=utf-8",
                "UTF8_STRING", "text/plain", "STRING", "image/png", "image/jpeg", "image/gif", "image/jpg",
            ])
    }

    @Test func chromiumTargetsInPreferenceOrder() {
        #expect(
            DropPayload.preferredTargets(offered: chromiumTargets) == [
                "text/x-moz-url", "text/html", "UTF8_STRING", "text/plain", "STRING", "TEXT",
                "application/octet-stream",
            ])
    }

    @Test func targetNamesMatchCaseAndSpacingInsensitively() {
        #expect(
            DropPayload.preferredTargets(offered: ["Text/Plain; Charset=\"UTF-8\"", "IMAGE/PNG", "text/uri-list"])
                == ["text/uri-list", "Text/Plain; Charset=\"UTF-8\"", "IMAGE/PNG"])
        #expect(DropPayload.preferredTargets(offered: ["text/uri-list", "TEXT/URI-LIST"]) == ["text/uri-list"])
    }

    @Test func targetsToRequestOnDrop() {
        #expect(DropPayload.targetsToRequest(offered: firefoxTargets) == ["text/uri-list", "text/html", "image/png"])
        #expect(
            DropPayload.targetsToRequest(offered: chromiumTargets)
                == ["text/x-moz-url", "text/html", "application/octet-stream"])
        #expect(DropPayload.targetsToRequest(offered: ["text/uri-list", "text/plain"]) == ["text/uri-list"])
        #expect(DropPayload.targetsToRequest(offered: ["STRING", "UTF8_STRING"]) == ["UTF8_STRING"])
        #expect(DropPayload.targetsToRequest(offered: ["image/jpeg"]) == ["image/jpeg"])
        #expect(DropPayload.targetsToRequest(offered: ["text/plain", "text/html"]) == ["text/plain", "text/html"])
        #expect(DropPayload.targetsToRequest(offered: ["chromium/x-drag-id"]) == [])
    }

    @Test func mayContainImageFromTargetNamesAlone() {
        #expect(DropPayload.mayContainImage(offered: firefoxTargets))
        #expect(DropPayload.mayContainImage(offered: chromiumTargets))
        #expect(DropPayload.mayContainImage(offered: ["text/uri-list"]))  // file manager
        #expect(DropPayload.mayContainImage(offered: ["image/png"]))
        #expect(DropPayload.mayContainImage(offered: ["text/html", "text/plain"]))
        #expect(!DropPayload.mayContainImage(offered: ["text/plain", "UTF8_STRING", "STRING", "TEXT"]))
        #expect(!DropPayload.mayContainImage(offered: ["application/pdf", "chromium/x-drag-id"]))
        #expect(!DropPayload.mayContainImage(offered: []))
    }

    @Test func everyTargetTheWindowsRegisterIsOneTheParserReads() {
        let accepted = DropPayload.acceptedTargets
        // All offered at once, each is understood, and none is another spelling of one before it.
        #expect(DropPayload.preferredTargets(offered: accepted).sorted() == accepted.sorted())
        #expect(DropPayload.mayContainImage(offered: accepted))
        // Each alone gives the image its data holds.
        for target in accepted {
            let data =
                target.hasPrefix("image/") || target == "application/octet-stream"
                ? pngBytes : target == "text/html" ? utf8(#"<img src="\#(catURL)">"#) : utf8(catURL)
            #expect(!DropPayload.sources(target: target, data: data).isEmpty, "\(target)")
        }
    }
}

@Suite("DropPayload browser samples")
struct DropPayloadBrowserTests {
    @Test func firefoxURIListWithCRLF() {
        #expect(DropPayload.sources(target: "text/uri-list", data: firefoxURIList) == [cat])
    }

    @Test func firefoxMozURLIsUTF16LEURLThenTitle() {
        #expect(DropPayload.sources(target: "text/x-moz-url", data: firefoxMozURL) == [cat])
        // The title line is not a second image even though Firefox repeats the URL there.
        let titled = utf16LE("https://example.com/a.png\nA title")
        #expect(DropPayload.sources(target: "text/x-moz-url", data: titled) == [remote("https://example.com/a.png")])
        let urlTitle = utf16LE("https://example.com/a.png\nhttps://example.com/gallery.html")
        #expect(DropPayload.sources(target: "text/x-moz-url", data: urlTitle) == [remote("https://example.com/a.png")])
    }

    @Test func firefoxHTMLWithMetaPrefix() {
        #expect(DropPayload.sources(target: "text/html", data: firefoxHTML) == [cat])
    }

    @Test func chromiumMozURLWithTrailingNewline() {
        #expect(DropPayload.sources(target: "text/x-moz-url", data: chromiumMozURL) == [cat])
    }

    @Test func chromiumHTMLIsUTF16LEWithBOM() {
        #expect(Array(chromiumHTML.prefix(4)) == [0xFF, 0xFE, 0x3C, 0x00])
        #expect(DropPayload.sources(target: "text/html", data: chromiumHTML) == [cat])
    }

    @Test func chromiumPlainTextTargets() {
        #expect(DropPayload.sources(target: "UTF8_STRING", data: chromiumUTF8String) == [cat])
        #expect(DropPayload.sources(target: "STRING", data: chromiumUTF8String) == [cat])
        #expect(DropPayload.sources(target: "text/plain", data: chromiumUTF8String) == [cat])
        #expect(DropPayload.sources(target: "TEXT", data: Data(chromiumUTF8String)) == [cat])
    }

    @Test func imageBytesTargetsAreRecognisedByContent() {
        #expect(
            DropPayload.sources(target: "image/png", data: pngBytes) == [.bytes(Data(pngBytes), mimeType: "image/png")])
        // Chromium's octet-stream holds the original file; the label says nothing, the content does.
        #expect(
            DropPayload.sources(target: "application/octet-stream", data: jpegBytes)
                == [.bytes(Data(jpegBytes), mimeType: "image/jpeg")])
        // Firefox's image/jpeg may hold what it re-encoded; a PNG labelled JPEG is still a PNG.
        #expect(
            DropPayload.sources(target: "image/jpeg", data: pngBytes) == [.bytes(Data(pngBytes), mimeType: "image/png")]
        )
        // Firefox offers image/jpg and image/gif without data.
        #expect(DropPayload.sources(target: "image/jpg", data: []) == [])
        #expect(DropPayload.sources(target: "application/octet-stream", data: utf8("%PDF-1.7\n")) == [])
        #expect(DropPayload.sources(target: "image/png", data: utf8("<html>404</html>")) == [])
    }
}

@Suite("DropPayload URL lists")
struct DropPayloadURLListTests {
    @Test func uriListWithSeveralURLsCommentsAndFiles() {
        let list = utf8(
            "# dragged from Files\r\nfile:///home/me/My%20Cat.png\r\nhttps://example.com/b.jpg\r\n\r\nfile://localhost/tmp/c.gif\r\n"
        )
        #expect(
            DropPayload.sources(target: "text/uri-list", data: list) == [
                .file(URL(string: "file:///home/me/My%20Cat.png")!),
                remote("https://example.com/b.jpg"),
                .file(URL(string: "file://localhost/tmp/c.gif")!),
            ])
    }

    @Test func uriListSkipsRefusedLinesAndDuplicates() {
        let list = utf8(
            "javascript:alert(1)\r\nftp://example.com/a.png\r\nhttps://example.com/a.png\r\nrelative/b.png\r\nhttps://example.com/a.png\r\nfile://otherhost/c.png\n"
        )
        #expect(DropPayload.sources(target: "text/uri-list", data: list) == [remote("https://example.com/a.png")])
    }

    @Test func mozURLWithSeveralPairsBOMAndNUL() {
        let pairs = utf16LE(
            "https://example.com/1.png\nOne\nhttps://example.com/2.png\n\nhttps://example.com/3.png\nThree\u{0}",
            bom: true)
        #expect(
            DropPayload.sources(target: "text/x-moz-url", data: pairs) == [
                remote("https://example.com/1.png"), remote("https://example.com/2.png"),
                remote("https://example.com/3.png"),
            ])
        #expect(
            DropPayload.sources(target: "text/x-moz-url", data: utf16BE("https://example.com/be.png\nBE"))
                == [remote("https://example.com/be.png")])
    }

    @Test func netscapeURLAndUTF8MozURL() {
        #expect(DropPayload.sources(target: "_NETSCAPE_URL", data: utf8(catURL + "\ncat.png")) == [cat])
        #expect(DropPayload.sources(target: "_NETSCAPE_URL", data: utf16LE(catURL + "\ncat.png")) == [cat])
        // Some non-browser sources send x-moz-url in UTF-8 (no zero byte at all: cannot be UTF-16 ASCII).
        #expect(DropPayload.sources(target: "text/x-moz-url", data: utf8(catURL + "\n")) == [cat])
    }

    @Test func plainTextMustBeOneAbsoluteURL() {
        #expect(
            DropPayload.sources(target: "text/plain;charset=utf-8", data: utf8("  \n\thttps://example.com/x\r\n\u{0}"))
                == [remote("https://example.com/x")])  // no extension: the download decides
        #expect(DropPayload.sources(target: "text/plain", data: utf8("look at https://example.com/x.png")) == [])
        #expect(
            DropPayload.sources(
                target: "text/plain", data: utf8("https://example.com/a.png\nhttps://example.com/b.png")) == [])
        #expect(DropPayload.sources(target: "UTF8_STRING", data: utf8("example.com/a.png")) == [])
        #expect(DropPayload.sources(target: "UTF8_STRING", data: utf8("/home/me/a.png")) == [])
        #expect(DropPayload.sources(target: "text/plain;charset=utf-16", data: utf16LE(catURL, bom: true)) == [cat])
    }

    @Test func searchEngineWrappersAreUnwrapped() {
        let google =
            "https://www.google.com/imgres?imgurl=https%3A%2F%2Fupload.example.org%2Fcat%20photo.jpg%3Fw%3D2&imgrefurl=https%3A%2F%2Fexample.org%2Fcats&tbnid=abc&docid=def"
        #expect(
            DropPayload.sources(target: "UTF8_STRING", data: utf8(google))
                == [remote("https://upload.example.org/cat%20photo.jpg?w=2")])
        let bing =
            "https://www.bing.com/images/search?view=detailV2&ccid=x&id=y&mediaurl=https%3a%2f%2fcdn.example.net%2fdog.png&exph=600&q=dog"
        #expect(
            DropPayload.sources(target: "text/uri-list", data: utf8(bing + "\r\n")) == [
                remote("https://cdn.example.net/dog.png")
            ])
        let yandex =
            "https://yandex.ru/images/search?pos=0&img_url=https%3A%2F%2Fimg.example.ru%2Fbird.webp&text=bird&rpt=simage"
        #expect(
            DropPayload.sources(target: "text/x-moz-url", data: utf16LE(yandex + "\nbird")) == [
                remote("https://img.example.ru/bird.webp")
            ])
        // Encoded twice: decoded twice.
        let twice =
            "https://www.google.com/imgres?imgrefurl=https%253A%252F%252Fexample.org%252Fpage&imgurl=https%253A%252F%252Fexample.org%252Fbig.png"
        #expect(DropPayload.unwrapSearchEngineURL(URL(string: twice)!) == URL(string: "https://example.org/big.png")!)
    }

    @Test func pagesAndGenericRedirectsAreNotUnwrapped() {
        // imgrefurl names the page the image is on, not the image.
        let refOnly = "https://www.google.com/imgres?imgrefurl=https%3A%2F%2Fexample.org%2Fcats&tbnid=abc"
        #expect(DropPayload.unwrapSearchEngineURL(URL(string: refOnly)!) == URL(string: refOnly)!)
        let redirect = "https://www.google.com/url?sa=i&url=https%3A%2F%2Fexample.org%2Fcats&psig=x"
        #expect(DropPayload.unwrapSearchEngineURL(URL(string: redirect)!) == URL(string: redirect)!)
        // An imgurl that is not an http(s) URL is left alone.
        let bad = "https://www.google.com/imgres?imgurl=javascript%3Aalert(1)"
        #expect(DropPayload.unwrapSearchEngineURL(URL(string: bad)!) == URL(string: bad)!)
    }
}

@Suite("DropPayload HTML")
struct DropPayloadHTMLTests {
    private func html(_ s: String, base: URL? = nil) -> [ImageSource] {
        DropPayload.sources(target: "text/html", data: utf8(s), baseURL: base)
    }

    @Test func imageInsideALinkWins() {
        #expect(
            html(#"<a href="https://example.com/page.html"><img src="https://example.com/cat.png"></a>"#)
                == [remote("https://example.com/cat.png")])
    }

    @Test func srcsetLargestCandidate() {
        #expect(
            html(
                #"<img src="https://e.com/s.jpg" srcset="https://e.com/m.jpg 640w, https://e.com/l.jpg 1280w, https://e.com/xs.jpg 320w">"#
            )
                == [remote("https://e.com/l.jpg")])
        #expect(
            html(
                #"<img srcset="https://e.com/a.jpg, https://e.com/a3.jpg 3x, https://e.com/a2.jpg 2x" src="https://e.com/a.jpg">"#
            )
                == [remote("https://e.com/a3.jpg")])
        // URLs may contain commas (image CDNs); a trailing comma ends a candidate without descriptors.
        #expect(
            html(#"<img srcset="https://cdn.e.com/w_200,h_100/a.jpg 200w, https://cdn.e.com/w_800,h_400/a.jpg 800w">"#)
                == [remote("https://cdn.e.com/w_800,h_400/a.jpg")])
    }

    @Test func entitiesInAttributesAreDecoded() {
        #expect(
            html(#"<img src="https://e.com/i?a=1&amp;b=2&#38;c=&#x33;">"#) == [remote("https://e.com/i?a=1&b=2&c=3")])
        #expect(
            html(#"<img srcset="https://e.com/i?w=1&amp;q=9 1x, https://e.com/i?w=2&amp;q=9 2x">"#)
                == [remote("https://e.com/i?w=2&q=9")])
    }

    @Test func singleDoubleAndNoQuotes() {
        #expect(html("<IMG SRC='https://e.com/single.png' alt='it\"s'>") == [remote("https://e.com/single.png")])
        #expect(html("<img\nsrc=https://e.com/bare.png>") == [remote("https://e.com/bare.png")])
        #expect(html("<img alt=\"a > b\" src = \"https://e.com/gt.png\"/>") == [remote("https://e.com/gt.png")])
    }

    @Test func severalImagesInOrderWithoutDuplicates() {
        let fragment =
            #"<p>two cats</p><img src="https://e.com/1.png"><!-- a > b <img src="https://e.com/commented.png"> --><script>var s = '<img src="https://e.com/script.png">'</script><img src="https://e.com/2.png"><img src="https://e.com/1.png">"#
        #expect(html(fragment) == [remote("https://e.com/1.png"), remote("https://e.com/2.png")])
    }

    @Test func relativeURLsNeedABase() {
        #expect(html(#"<img src="/img/cat.png"><img src="//cdn.e.com/x.png">"#) == [])
        #expect(
            html(#"<img src="img/cat.png">"#, base: URL(string: "https://e.com/gallery/index.html")!)
                == [remote("https://e.com/gallery/img/cat.png")])
        #expect(html(#"<base href="https://e.com/b/"><img src="cat.png">"#) == [remote("https://e.com/b/cat.png")])
    }

    @Test func refusedSchemesInHTML() {
        #expect(
            html(
                #"<img src="javascript:alert(1)"><img src="about:blank"><img src="ftp://e.com/a.png"><img src="blob:https://e.com/1">"#
            ) == [])
        #expect(html(#"<a href="https://e.com/page">no image here</a>"#) == [])
    }

    @Test func searchResultThumbnailInsideWrapperLink() {
        let fragment =
            #"<a href="/imgres?imgurl=https%3A%2F%2Fexample.org%2Ffull.jpg&amp;imgrefurl=https%3A%2F%2Fexample.org%2F"><img src="https://encrypted-tbn0.example.com/images?q=tbn:abc"></a>"#
        #expect(html(fragment) == [remote("https://example.org/full.jpg")])
    }

    @Test func utf16BigEndianAndUTF8BOM() {
        #expect(
            DropPayload.sources(target: "text/html", data: utf16BE(#"<img src="https://e.com/be.png">"#))
                == [remote("https://e.com/be.png")])
        #expect(
            DropPayload.sources(
                target: "text/html", data: [0xEF, 0xBB, 0xBF] + utf8(#"<img src="https://e.com/u8.png">"#))
                == [remote("https://e.com/u8.png")])
    }
}

@Suite("DropPayload data URIs")
struct DropPayloadDataURITests {
    @Test func validPNGDataURI() throws {
        let uri = "data:image/png;base64," + pngBase64
        #expect(DropPayload.sources(target: "text/plain", data: utf8(uri)) == [.dataURI(uri)])
        let decoded = try #require(DropPayload.decodeDataURI(uri))
        #expect(decoded.mimeType == "image/png")
        #expect(decoded.data == Data(pngBytes))
        // Whitespace in the payload and missing padding are forgiven.
        let loose =
            "data:image/png;base64,"
            + pngBase64.dropLast(2).enumerated().map { $0.offset % 20 == 19 ? "\($0.element)\n" : "\($0.element)" }
            .joined()
        #expect(DropPayload.decodeDataURI(loose)?.data == Data(pngBytes))
    }

    @Test func percentEncodedSVGDataURI() {
        let uri = "data:image/svg+xml;charset=utf-8,%3Csvg%20xmlns%3D%22http%3A%2F%2Fwww.w3.org%2F2000%2Fsvg%22%2F%3E"
        #expect(DropPayload.decodeDataURI(uri)?.mimeType == "image/svg+xml")
        #expect(DropPayload.decodeDataURI(uri)?.data == Data(#"<svg xmlns="http://www.w3.org/2000/svg"/>"#.utf8))
        #expect(DropPayload.sources(target: "text/html", data: utf8("<img src=\"\(uri)\">")) == [.dataURI(uri)])
    }

    @Test func nonImageDataURIsAreRefused() {
        #expect(DropPayload.decodeDataURI("data:text/html;base64,PGgxPmhpPC9oMT4=") == nil)
        #expect(DropPayload.decodeDataURI("data:,hello") == nil)
        #expect(DropPayload.decodeDataURI("data:;base64," + pngBase64) == nil)  // text/plain by default
        #expect(
            DropPayload.sources(target: "UTF8_STRING", data: utf8("data:application/pdf;base64,JVBERi0xLjcK")) == [])
    }

    @Test func malformedDataURIsAreRefused() {
        #expect(DropPayload.decodeDataURI("data:image/png;base64,iVBORw0K!!GgoAAAA") == nil)  // not base64
        #expect(DropPayload.decodeDataURI("data:image/png;base64,iVBORw0KG") == nil)  // 4n+1 characters
        let starred = "data:image/png;base64," + pngBase64.prefix(30) + "*" + pngBase64.dropFirst(31)
        #expect(DropPayload.decodeDataURI(starred) == nil)  // a character outside the alphabet
        #expect(DropPayload.decodeDataURI("data:image/png;base64,") == nil)  // empty
        #expect(DropPayload.decodeDataURI("data:image/png;base64" + pngBase64) == nil)  // no comma
        #expect(DropPayload.decodeDataURI("data:image/png;base64,aGVsbG8gd29ybGQ=") == nil)  // "hello world" is no PNG
        #expect(DropPayload.sources(target: "text/plain", data: utf8("data:image/png;base64,%%%")) == [])
    }
}

@Suite("DropPayload malformed input")
struct DropPayloadMalformedTests {
    static let allTargets = [
        "text/uri-list", "text/x-moz-url", "_NETSCAPE_URL", "text/html", "text/plain", "text/plain;charset=utf-8",
        "UTF8_STRING", "STRING", "TEXT", "image/png", "image/jpeg", "image/gif", "image/webp",
        "application/octet-stream", "chromium/x-renderer-taint",
    ]

    @Test func oddLengthUTF16IsRefused() {
        #expect(DropPayload.sources(target: "text/x-moz-url", data: Array(chromiumMozURL.dropLast())) == [])
        #expect(DropPayload.sources(target: "text/html", data: Array(chromiumHTML.dropLast())) == [])
    }

    @Test(arguments: allTargets)
    func emptyAndWhitespaceGiveNothing(target: String) {
        #expect(DropPayload.sources(target: target, data: []) == [])
        #expect(DropPayload.sources(target: target, data: utf8(" \r\n\t ")) == [])
        #expect(DropPayload.sources(target: target, data: [0, 0, 0, 0]) == [])
    }

    @Test(arguments: allTargets)
    func randomBytesGiveNothing(target: String) {
        var rng = SplitMix64(seed: 0x6A11E27)
        for length in [1, 2, 3, 7, 64, 1000, 65_536] {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            #expect(DropPayload.sources(target: target, data: bytes) == [], "length \(length)")
        }
    }

    @Test func pastedURLStringsAreClassified() {
        #expect(DropPayload.imageSource(fromURLString: " https://e.com/a b.png\n") == remote("https://e.com/a%20b.png"))
        #expect(
            DropPayload.imageSource(fromURLString: "file:///tmp/x.png") == .file(URL(fileURLWithPath: "/tmp/x.png")))
        #expect(
            DropPayload.imageSource(fromURLString: "x.png", baseURL: URL(string: "https://e.com/d/")!)
                == remote("https://e.com/d/x.png"))
        #expect(DropPayload.imageSource(fromURLString: "x.png") == nil)
        #expect(remote("https://e.com/a.png").urlString == "https://e.com/a.png")
        #expect(ImageSource.bytes(Data(pngBytes), mimeType: "image/png").urlString == nil)
    }

    @Test func refusedSchemesEverywhere() {
        for url in [
            "javascript:alert(document.cookie)", "JavaScript:void(0)", "about:blank", "ftp://example.com/a.png",
            "mailto:a@example.com", "http://", "https:///a.png", "http:a.png", "vbscript:x",
        ] {
            #expect(DropPayload.sources(target: "text/uri-list", data: utf8(url + "\r\n")) == [], "\(url)")
            #expect(DropPayload.sources(target: "text/x-moz-url", data: utf16LE(url + "\n")) == [], "\(url)")
            #expect(DropPayload.sources(target: "UTF8_STRING", data: utf8(url)) == [], "\(url)")
            #expect(DropPayload.imageSource(fromURLString: url) == nil, "\(url)")
        }
    }

    @Test func controlCharactersAndDecodingErrorsAreRefused() {
        #expect(DropPayload.sources(target: "UTF8_STRING", data: utf8("https://e.com/a\u{1}.png")) == [])
        #expect(DropPayload.sources(target: "UTF8_STRING", data: utf8("https://e.com/") + [0xC3, 0x28]) == [])
        #expect(DropPayload.sources(target: "text/x-moz-url", data: [0x00, 0xD8, 0x41, 0x00]) == [])  // lone surrogate
    }

    @Test func everyTruncationOfTheSamplesIsSafe() {
        let samples: [(String, [UInt8])] = [
            ("text/uri-list", firefoxURIList), ("text/x-moz-url", firefoxMozURL), ("text/html", firefoxHTML),
            ("text/x-moz-url", chromiumMozURL), ("text/html", chromiumHTML), ("UTF8_STRING", chromiumUTF8String),
            ("image/png", pngBytes), ("text/plain", utf8("data:image/png;base64," + pngBase64)),
        ]
        for (target, bytes) in samples {
            for length in 0...bytes.count {
                let prefix = Array(bytes.prefix(length))
                for source in DropPayload.sources(target: target, data: prefix) {
                    switch source {
                    case .remote(let url): #expect(["http", "https"].contains(url.scheme), "\(target) \(length)")
                    case .file(let url): #expect(url.isFileURL, "\(target) \(length)")
                    case .dataURI(let uri): #expect(DropPayload.decodeDataURI(uri) != nil, "\(target) \(length)")
                    case .bytes(let data, _):
                        #expect(ImageFormat.sniff(data) != nil, "\(target) \(length)")
                    }
                }
                var received = [
                    "text/html": Array(chromiumHTML.prefix(length)),
                    "application/octet-stream": Array(pngBytes.prefix(length)),
                ]
                received[target] = prefix
                _ = DropPayload.images(received: received)
            }
        }
        // The complete samples are still understood (the loop above is not vacuous).
        #expect(DropPayload.sources(target: "text/html", data: chromiumHTML) == [cat])
    }

    @Test func combiningNothingGivesNothing() {
        #expect(DropPayload.images(received: [:] as [String: [UInt8]]) == [])
        #expect(
            DropPayload.images(received: ["text/plain": utf8("hello"), "image/png": [], "chromium/x-drag-id": [1, 2]])
                == [])
    }
}

@Suite("DropPayload combined drops")
struct DropPayloadCombineTests {
    @Test func firefoxDropGivesOneImageWithFallbackBytes() {
        let received = ["text/uri-list": firefoxURIList, "text/html": firefoxHTML, "image/png": pngBytes]
        #expect(
            DropPayload.images(received: received)
                == [
                    DroppedImage(
                        url: catURL, fallbackBytes: Data(pngBytes), mimeType: "image/png",
                        origin: ImageOrigin(altText: "a cat"))
                ])
    }

    @Test func chromiumDropGivesOneImageWithOriginalBytes() {
        let received = [
            "text/x-moz-url": chromiumMozURL, "text/html": chromiumHTML, "application/octet-stream": jpegBytes,
        ]
        #expect(
            DropPayload.images(received: received.mapValues { Data($0) })
                == [DroppedImage(url: catURL, fallbackBytes: Data(jpegBytes), mimeType: "image/jpeg")])
    }

    @Test func chromiumLinkedImageGivesTheImageNotThePage() {
        // Chromium: the link's URL in x-moz-url, the markup of the <img> alone in text/html.
        let received = [
            "text/x-moz-url": utf16LE("https://e.com/article.html\n"),
            "text/html": utf16LE(#"<img src="https://e.com/cat.png">"#, bom: true),
        ]
        #expect(
            DropPayload.images(received: received) == [
                DroppedImage(url: "https://e.com/cat.png", origin: ImageOrigin(link: "https://e.com/article.html"))
            ])
    }

    @Test func firefoxLinkedImageGivesTheImageNotThePage() {
        let received = [
            "text/uri-list": utf8("https://e.com/article.html\r\n"),
            "text/html": utf8(#"<a href="https://e.com/article.html"><img src="https://e.com/cat.png"></a>"#),
        ]
        #expect(
            DropPayload.images(received: received) == [
                DroppedImage(url: "https://e.com/cat.png", origin: ImageOrigin(link: "https://e.com/article.html"))
            ])
    }

    @Test func plainLinkWithoutImageStaysForTheDownloadToJudge() {
        let received = [
            "text/uri-list": utf8("https://e.com/article.html\r\n"),
            "text/html": utf8(#"<a href="https://e.com/article.html">an article</a>"#),
        ]
        #expect(DropPayload.images(received: received) == [DroppedImage(url: "https://e.com/article.html")])
    }

    @Test func searchResultGivesTheOriginalWithTheThumbnailAsAlternate() {
        let wrapper =
            "https://www.google.com/imgres?imgurl=https%3A%2F%2Fexample.org%2Ffull.jpg&imgrefurl=https%3A%2F%2Fexample.org%2F"
        let thumbnail = "data:image/png;base64," + pngBase64
        let received = [
            "text/x-moz-url": utf16LE(wrapper + "\n"), "text/html": utf16LE("<img src=\"\(thumbnail)\">", bom: true),
            "application/octet-stream": pngBytes,
        ]
        #expect(
            DropPayload.images(received: received) == [
                DroppedImage(
                    url: "https://example.org/full.jpg", alternateURLs: [thumbnail],
                    fallbackBytes: Data(pngBytes), mimeType: "image/png",
                    origin: ImageOrigin(page: "https://example.org/"))
            ])
    }

    @Test func srcsetUpgradesTheDraggedURL() {
        let received = [
            "text/x-moz-url": utf16LE("https://e.com/s.jpg\nhttps://e.com/s.jpg"),
            "text/html": utf8(
                #"<img src="https://e.com/s.jpg" srcset="https://e.com/s.jpg 400w, https://e.com/l.jpg 1600w">"#),
        ]
        #expect(
            DropPayload.images(received: received)
                == [DroppedImage(url: "https://e.com/l.jpg", alternateURLs: ["https://e.com/s.jpg"])])
    }

    @Test func severalURLsGiveSeveralImagesInOrderWithoutGuessingWhoseBytes() {
        let received = [
            "text/uri-list": utf8("file:///tmp/a.png\r\nhttps://e.com/b.png\r\nfile:///tmp/a.png\r\n"),
            "image/png": pngBytes,
        ]
        #expect(
            DropPayload.images(received: received) == [
                DroppedImage(url: "file:///tmp/a.png"), DroppedImage(url: "https://e.com/b.png"),
            ])
    }

    @Test func bytesAloneAreAnImage() {
        #expect(
            DropPayload.images(received: ["image/png": pngBytes, "text/plain": utf8("cat.png")])
                == [DroppedImage(url: nil, fallbackBytes: Data(pngBytes), mimeType: "image/png")])
    }

    @Test func htmlAloneWhenNoURLTargetCame() {
        let received = ["text/html": utf8(#"<img src="https://e.com/1.png"> and <img src="https://e.com/2.png">"#)]
        #expect(DropPayload.images(received: received).map(\.url) == ["https://e.com/1.png", "https://e.com/2.png"])
    }

    @Test func betterURLTargetWinsOverPlainText() {
        let received = ["text/x-moz-url": firefoxMozURL, "UTF8_STRING": utf8("https://e.com/other.png")]
        #expect(DropPayload.images(received: received) == [DroppedImage(url: catURL)])
        // A URL target that yields nothing falls through to the next.
        let broken = ["text/uri-list": utf8("# nothing\r\n"), "UTF8_STRING": chromiumUTF8String]
        #expect(DropPayload.images(received: broken) == [DroppedImage(url: catURL)])
    }
}

@Suite("DropPayload sniffing")
struct DropPayloadSniffTests {
    @Test func signatures() {
        #expect(ImageFormat.sniff(pngBytes)?.mimeType == "image/png")
        #expect(ImageFormat.sniff(jpegBytes)?.mimeType == "image/jpeg")
        #expect(ImageFormat.sniff(utf8("GIF89a") + [1, 0, 1, 0])?.mimeType == "image/gif")
        #expect(ImageFormat.sniff(utf8("RIFF") + [0x24, 0, 0, 0] + utf8("WEBPVP8 "))?.mimeType == "image/webp")
        #expect(ImageFormat.sniff([0, 0, 0, 0x1C] + utf8("ftypavif"))?.mimeType == "image/avif")
        #expect(
            ImageFormat.sniff(utf8("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>"))?.mimeType
                == "image/svg+xml")
        #expect(ImageFormat.sniff(utf8("<?xml version=\"1.0\"?><html><svg/></html>"))?.mimeType == nil)
        #expect(ImageFormat.sniff(utf8("RIFF\u{0}\u{0}\u{0}\u{0}WAVE"))?.mimeType == nil)
        #expect(ImageFormat.sniff([])?.mimeType == nil)
    }
}
