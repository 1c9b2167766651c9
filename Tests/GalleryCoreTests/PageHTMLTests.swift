import Foundation
import Testing

@testable import GalleryCore

private let pageAddress = "https://pics.example.org/gallery/cats.html"

private func capture(_ html: String, at address: String = pageAddress) -> PageCapture {
    PageHTML.capture(Array(html.utf8), pageAddress: address)
}

private func addresses(_ html: String) -> [String] { capture(html).images.map(\.address) }

@Suite("A page's images")
struct PageHTMLTests {
    @Test func anImgIsTakenAtItsLargestSrcsetCandidate() {
        let html = #"""
            <img src="small.jpg" srcset="small.jpg 320w, large.jpg 1600w, medium.jpg 800w" width="320" height="200"
                 alt="A cat &amp; a dog" title="Friends">
            """#
        let image = capture(html).images.first
        #expect(image?.address == "https://pics.example.org/gallery/large.jpg")
        #expect(image?.altText == "A cat & a dog")
        #expect(image?.title == "Friends")
        #expect(image?.width == 1600 && image?.height == 1000)
    }

    @Test func densityDescriptorsPickTheDensest() {
        #expect(
            addresses(#"<img src="a.jpg" srcset="a2.jpg 2x, a3.jpg 3x">"#) == [
                "https://pics.example.org/gallery/a3.jpg"
            ])
    }

    @Test func pictureSourcesGiveOneImageAtTheLargest() {
        let html = #"""
            <picture>
              <source type="image/webp" srcset="/w/cat-640.webp 640w, /w/cat-2400.webp 2400w">
              <source srcset="/j/cat-1200.jpg 1200w">
              <img src="/j/cat-320.jpg" alt="Cat">
            </picture>
            """#
        let images = capture(html).images
        #expect(images.map(\.address) == ["https://pics.example.org/w/cat-2400.webp"])
        #expect(images.first?.altText == "Cat")
    }

    @Test func openGraphAndTwitterImagesAreListed() {
        let html = #"""
            <head><meta property="og:image" content="https://cdn.example.org/og.jpg">
            <meta property="og:image:width" content="1200"><meta property="og:image:height" content="630">
            <meta name="twitter:image" content="/tw.png"></head>
            """#
        let images = capture(html).images
        #expect(images.map(\.address) == ["https://cdn.example.org/og.jpg", "https://pics.example.org/tw.png"])
        #expect(images.first?.width == 1200 && images.first?.height == 630)
    }

    @Test func lazyAttributesWinOverAPlaceholderSrc() {
        let html = #"""
            <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" data-src="lazy1.jpg">
            <img src="spacer.gif" data-original="lazy2.jpg">
            <img data-srcset="lazy3-400.jpg 400w, lazy3-1800.jpg 1800w" src="data:,">
            <img data-lazy-src="lazy4.jpg">
            """#
        #expect(
            addresses(html)
                == ["lazy1.jpg", "lazy2.jpg", "lazy3-1800.jpg", "lazy4.jpg"].map {
                    "https://pics.example.org/gallery/" + $0
                })
    }

    @Test func linksToImagesAreListedAndLinksAroundImagesAreKept() {
        let html = #"""
            <a href="full/cat.JPG?size=large" title="Full size"><img src="thumbs/cat.jpg" alt="Thumb"></a>
            <a href="/about.html"><img src="logo.png"></a>
            """#
        let images = capture(html).images
        #expect(
            images.map(\.address) == [
                "https://pics.example.org/gallery/full/cat.JPG?size=large",
                "https://pics.example.org/gallery/thumbs/cat.jpg", "https://pics.example.org/gallery/logo.png",
            ])
        #expect(images[0].title == "Full size" && images[0].link == nil)
        #expect(images[1].link == "https://pics.example.org/gallery/full/cat.JPG?size=large")
        #expect(images[1].title == "Full size" && images[1].altText == "Thumb")
        #expect(images[2].link == "https://pics.example.org/about.html")
    }

    @Test func addressesResolveAgainstTheBaseAndTheTitleIsRead() {
        let html = #"""
            <html><head><title>  Cats &amp;
              Kittens </title><base href="https://static.example.net/assets/"></head>
            <body><img src="one.png"><img src="//other.example.com/two.png"><img src="/three.png">
            <img src="javascript:alert(1)"><img src="ftp://x/y.png"></body></html>
            """#
        let page = capture(html)
        #expect(page.pageTitle == "Cats & Kittens")
        #expect(
            page.images.map(\.address) == [
                "https://static.example.net/assets/one.png", "https://other.example.com/two.png",
                "https://static.example.net/three.png",
            ])
    }

    @Test func repeatsAreListedOnceWithWhatEachMentionSays() {
        let html = #"<img src="a.jpg"><img src="./a.jpg" alt="Second mention"><img src="b.jpg">"#
        let images = capture(html).images
        #expect(images.map(\.address).count == 2)
        #expect(images.first?.altText == "Second mention")
    }

    @Test func scriptsCommentsAndStylesHideNothingButTheirOwnText() {
        let html = #"""
            <script>var s = '<img src="in-script.jpg">';</script><!-- <img src="in-comment.jpg"> -->
            <style>.x{background:url(in-style.jpg)}</style><img src="real.jpg">
            """#
        #expect(addresses(html) == ["https://pics.example.org/gallery/real.jpg"])
    }

    @Test func aPageWithoutImagesGivesNone() {
        #expect(capture("<html><head><title>Empty</title></head><body><p>Hello</p></body></html>").images.isEmpty)
    }

    @Test func htmlIsToldFromOtherAnswers() {
        #expect(PageHTML.isPage(Array("\u{FEFF}\n  <!DOCTYPE html><html>".utf8), contentType: nil))
        #expect(PageHTML.isPage(Array("<html lang=en>".utf8), contentType: "text/plain"))
        #expect(PageHTML.isPage(Array("<div>Hello</div>".utf8), contentType: "text/html; charset=utf-8"))
        #expect(PageHTML.isPage(Array("<!DOCTYPE html><html>".utf8), contentType: "image/png"))
        #expect(
            !PageHTML.isPage(
                Array("<!DOCTYPE svg><svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8), contentType: "text/html"))
        #expect(!PageHTML.isPage(Array("GIF89a".utf8), contentType: "text/html"))
        #expect(!PageHTML.isPage(Array("{\"json\": true}".utf8), contentType: nil))
    }

    @Test func aHundredThousandImagesAreCutAtTheLimit() {
        let html = "<title>Flood</title>" + (0..<100_000).map { #"<img src="/f/\#($0).jpg">"# }.joined()
        let images = capture(html).images
        #expect(images.count == PageLimits.maximumImages)
        #expect(images.last?.address == "https://pics.example.org/f/\(PageLimits.maximumImages - 1).jpg")
    }

    @Test func htmlBeyondTheLimitIsNotRead() {
        let filler = String(repeating: "x", count: PageLimits.maximumHTMLBytes)
        let page = capture(#"<img src="first.jpg">"# + filler + #"<img src="beyond.jpg">"#)
        #expect(page.images.map(\.address) == ["https://pics.example.org/gallery/first.jpg"])
    }

    @Test func htmlThatNeverEndsIsReadUpToTheLimit() {
        let endless = #"<img src="a.jpg"><img alt=""# + String(repeating: "a", count: PageLimits.maximumHTMLBytes * 2)
        #expect(addresses(endless) == ["https://pics.example.org/gallery/a.jpg"])
        #expect(capture(#"<title>Never ends <img src="x.jpg">"#).images.isEmpty)
    }

    @Test func aHugeAttributeIsLeftOut() {
        let long = String(repeating: "a", count: PageLimits.maximumTextLength + 1)
        let image = capture(#"<img src="ok.jpg" alt="\#(long)" title="Kept">"#).images.first
        #expect(image?.altText == nil && image?.title == "Kept")
    }
}
