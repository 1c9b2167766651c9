import Foundation

/// Reads a page's images out of its HTML: every `<img>` at its largest candidate, `<picture>` sources,
/// `og:image` and `twitter:image`, links whose target is an image, and the lazy-loading attributes pages
/// use instead of `src`. Linear in the HTML, and bounded by `PageLimits`.
public enum PageHTML {
    /// Attributes that name one address of an image, most likely the largest first: lazy loaders keep the
    /// real address there and a placeholder in `src`.
    static let addressAttributes = [
        "data-orig-file", "data-large-file", "data-full-src", "data-hi-res-src", "data-original", "data-lazy-src",
        "data-src", "data-lazy", "data-url", "src",
    ]
    /// Attributes that hold a `srcset`, as `srcset` itself or as lazy loaders keep it.
    static let sourceSetAttributes = ["srcset", "data-srcset", "data-lazy-srcset"]
    /// `<meta>` names and properties that name the page's own picture.
    static let metaImageNames: Set<String> = [
        "og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src",
    ]

    /// Whether an answer is a page to read for its images: no image by its first bytes (an SVG may begin with a
    /// doctype too), and sent as HTML or its first non-blank characters open a tag that pages start with, whatever
    /// else the server calls it (a login page sent as the image it stands for).
    public static func isPage(_ bytes: some Collection<UInt8>, contentType: String?) -> Bool {
        guard ImageFormat.sniff(bytes) == nil else { return false }
        let type = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        return type == "text/html" || type == "application/xhtml+xml" || looksLikeHTML(bytes)
    }

    private static func looksLikeHTML(_ bytes: some Collection<UInt8>) -> Bool {
        let head = Array(bytes.prefix(1024))
        guard
            let first = head.firstIndex(where: { !(HTMLImages.isSpace($0) || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF) })
        else { return false }
        let text = String(decoding: head[first...].prefix(64), as: UTF8.self).lowercased()
        return ["<!doctype", "<html", "<head", "<meta", "<title", "<!--", "<body", "<link", "<script"].contains {
            text.hasPrefix($0)
        }
    }

    /// The page at `pageAddress` (where it ended up after redirects), from the first
    /// `PageLimits.maximumHTMLBytes` of its HTML.
    public static func capture(_ html: some Collection<UInt8>, pageAddress: String) -> PageCapture {
        let bytes = Array(html.prefix(PageLimits.maximumHTMLBytes))
        guard let decoded = HTMLImages.decode(bytes[...], assumeUTF16: false) else {
            return PageCapture(pageAddress: pageAddress, images: [])
        }
        let found = Array(decoded).withUnsafeBufferPointer { PageScan.scan($0) }
        let page = URL(string: pageAddress)
        let base =
            found.baseHref.flatMap { href -> URL? in
                guard case .remote(let url)? = URLClassifier.classify(href, baseURL: page)?.source else { return nil }
                return url
            } ?? page
        var images: [PageImage] = []
        var positions: [String: Int] = [:]
        for raw in found.images {
            guard let image = resolved(raw, base: base) else { continue }
            if let position = positions[image.address] {
                images[position].fillGaps(from: image)
                continue
            }
            positions[image.address] = images.count
            images.append(image)
            if images.count == PageLimits.maximumImages { break }
        }
        return PageCapture(pageAddress: pageAddress, pageTitle: found.title.flatMap(title), images: images)
    }

    /// The absolute http(s) address `raw` names on a page whose base is `base`.
    static func absolute(_ raw: String?, base: URL?) -> String? {
        guard let raw, raw.utf8.count <= PageLimits.maximumTextLength,
            case .remote(let url)? = URLClassifier.classify(HTMLImages.decodeEntities(raw), baseURL: base)?.source
        else { return nil }
        return url.absoluteString
    }

    private static func resolved(_ raw: PageScan.RawImage, base: URL?) -> PageImage? {
        guard let address = absolute(raw.address, base: base) else { return nil }
        let link = absolute(raw.link, base: base).flatMap { $0 == address ? nil : $0 }
        return PageImage(
            address: address, altText: text(raw.altText), title: text(raw.title) ?? text(raw.linkTitle), link: link,
            width: raw.width, height: raw.height)
    }

    /// Text as a page's attribute holds it, as an origin records it (`OriginText`): entities decoded, one line,
    /// nil when empty or longer than `PageLimits.maximumTextLength` as written.
    static func text(_ raw: String?) -> String? {
        guard let raw, raw.utf8.count <= PageLimits.maximumTextLength else { return nil }
        return OriginText.cleaned(HTMLImages.decodeEntities(raw))
    }

    private static func title(_ raw: String) -> String? {
        guard let whole = text(String(raw.prefix(PageLimits.maximumTextLength))) else { return nil }
        guard whole.count > PageLimits.maximumTitleLength else { return whole }
        return String(whole.prefix(PageLimits.maximumTitleLength - 1)) + "…"
    }
}
