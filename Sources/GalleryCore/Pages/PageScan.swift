import Foundation

/// One forgiving pass over a page's HTML that collects what `PageHTML` needs: each image's chosen address
/// with what surrounds it, the page's title and its `<base href>`. Comments and the content of
/// script, style and textarea are passed over; every search moves forward, so the pass is linear.
enum PageScan {
    /// An image as the page names it, its address chosen among its candidates but not yet resolved.
    struct RawImage: Equatable, Sendable {
        var address: String
        var altText: String?
        var title: String?
        var link: String?
        var linkTitle: String?
        var width: Int?
        var height: Int?
    }

    struct Found {
        var images: [RawImage] = []
        var title: String?
        var baseHref: String?
    }

    /// An address an element offers for its image, with its `srcset` descriptors if any.
    struct Candidate {
        var address: String
        var width: Int?
        var density: Double?
        /// The rank of the single-address attribute that named it (`PageHTML.addressAttributes`); nil for a srcset's.
        var rank: Int?
    }

    typealias Bytes = HTMLImages.Bytes

    /// Raw images beyond this count are not collected: repeats are dropped later, so some room is left for them.
    static var maximumRawImages: Int { PageLimits.maximumImages * 4 }

    static func scan(_ b: Bytes) -> Found {
        var found = Found()
        var link: (href: String?, title: String?) = (nil, nil)
        // The candidates of the `<source>`s of the `<picture>` being read; nil outside one.
        var picture: [Candidate]?
        let n = b.count
        var i = 0
        while i < n, found.images.count < maximumRawImages {
            guard b[i] == UInt8(ascii: "<"), i + 1 < n else {
                i += 1
                continue
            }
            let next = b[i + 1]
            if HTMLImages.hasPrefix(b, at: i, HTMLImages.Pattern.commentStart) {
                i = HTMLImages.find(b, HTMLImages.Pattern.commentEnd, from: i + 4).map { $0 + 3 } ?? n
            } else if next == UInt8(ascii: "!") || next == UInt8(ascii: "?") {
                i = HTMLImages.find(b, HTMLImages.Pattern.tagEnd, from: i + 2).map { $0 + 1 } ?? n
            } else if next == UInt8(ascii: "/") {
                let (name, end) = HTMLImages.tagName(b, from: i + 2)
                switch name {
                case "a": link = (nil, nil)
                case "picture":
                    if let sources = picture, let raw = image(sources, attributes: [:], link: link) {
                        found.images.append(raw)
                    }
                    picture = nil
                default: break
                }
                i = HTMLImages.find(b, HTMLImages.Pattern.tagEnd, from: end).map { $0 + 1 } ?? n
            } else if HTMLImages.isAlpha(next) {
                let (name, afterName) = HTMLImages.tagName(b, from: i + 1)
                let (attributes, end, _) = HTMLImages.parseAttributes(b, from: afterName)
                i = end
                switch name {
                case "img":
                    if let raw = image(picture ?? [], attributes: attributes, link: link) {
                        found.images.append(raw)
                    }
                    picture = nil
                case "source" where picture != nil:
                    picture?.append(contentsOf: sourceSets(attributes))
                case "picture":
                    picture = []
                case "a":
                    link = (attributes["href"], attributes["title"])
                    if let href = link.href, namesImageFile(href) {
                        found.images.append(RawImage(address: href, title: link.title))
                    }
                case "meta":
                    meta(attributes, into: &found)
                case "base":
                    found.baseHref = found.baseHref ?? attributes["href"]
                case "title":
                    let close = HTMLImages.findClosingTag(b, "title", from: i) ?? n
                    if found.title == nil {
                        let textEnd = max(i, HTMLImages.find(b, Array("</title".utf8), from: i) ?? close)
                        found.title = String(
                            decoding: UnsafeBufferPointer(
                                rebasing: b[i..<min(textEnd, i + PageLimits.maximumTextLength)]),
                            as: UTF8.self)
                    }
                    i = close
                case "script", "style", "textarea", "xmp":
                    i = HTMLImages.findClosingTag(b, name, from: i) ?? n
                default:
                    break
                }
            } else {
                i += 1
            }
        }
        return found
    }

    /// `og:image` and `twitter:image` name an image; `og:image:width` and `:height` size the one before.
    private static func meta(_ attributes: [String: String], into found: inout Found) {
        guard let name = (attributes["property"] ?? attributes["name"])?.lowercased(),
            let content = attributes["content"]
        else { return }
        if PageHTML.metaImageNames.contains(name) {
            found.images.append(RawImage(address: content))
        } else if name == "og:image:width", let size = Int(content), let last = found.images.indices.last {
            found.images[last].width = found.images[last].width ?? size
        } else if name == "og:image:height", let size = Int(content), let last = found.images.indices.last {
            found.images[last].height = found.images[last].height ?? size
        }
    }

    /// The image an `<img>` (with the `<source>`s of its `<picture>`, if any) names at its largest.
    private static func image(
        _ sources: [Candidate], attributes: [String: String], link: (href: String?, title: String?)
    ) -> RawImage? {
        var candidates = sources + sourceSets(attributes)
        for (rank, name) in PageHTML.addressAttributes.enumerated() {
            if let address = attributes[name], isCandidate(address) {
                candidates.append(Candidate(address: address, rank: rank))
            }
        }
        guard let chosen = largest(candidates) else { return nil }
        let declared = (width: attributes["width"].flatMap(pixels), height: attributes["height"].flatMap(pixels))
        var image = RawImage(
            address: chosen.address, altText: attributes["alt"], title: attributes["title"], link: link.href,
            linkTitle: link.title, width: declared.width, height: declared.height)
        if let width = chosen.width
            ?? chosen.density.flatMap({ density in declared.width.map { Int(Double($0) * density) } })
        {
            image.width = width
            image.height = declared.height.flatMap { height in
                declared.width.map { declaredWidth in height * width / max(declaredWidth, 1) }
            }
        }
        return image
    }

    /// The largest candidate: by `srcset` width when any has one, else by density above 1x, else the
    /// single address most likely the real one.
    static func largest(_ candidates: [Candidate]) -> Candidate? {
        if let widest = candidates.filter({ $0.width != nil }).max(by: { $0.width! < $1.width! }) { return widest }
        if let densest = candidates.filter({ ($0.density ?? 1) > 1 }).max(by: { $0.density! < $1.density! }) {
            return densest
        }
        return candidates.filter { $0.rank != nil }.min { $0.rank! < $1.rank! } ?? candidates.first
    }

    private static func sourceSets(_ attributes: [String: String]) -> [Candidate] {
        PageHTML.sourceSetAttributes.flatMap { name in
            (attributes[name].map { SrcSet.parse(HTMLImages.decodeEntities($0)) } ?? [])
                .filter { isCandidate($0.url) }
                .map { Candidate(address: $0.url, width: $0.width, density: $0.density) }
        }
    }

    /// Lazy loaders put a placeholder in `src`: an inline image, or nothing.
    private static func isCandidate(_ address: String) -> Bool {
        let start = address.drop { $0.isWhitespace }.prefix(11).lowercased()
        return !start.isEmpty && !start.hasPrefix("data:") && !start.hasPrefix("about:")
            && !start.hasPrefix("javascript:")
    }

    private static func pixels(_ text: String) -> Int? {
        Int(text.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber }).flatMap { $0 > 0 ? $0 : nil }
    }

    /// Whether a link's address ends in an image file's name (`photo.jpg`, `photo.webp?w=2000`).
    static func namesImageFile(_ href: String) -> Bool {
        let path = href.prefix { $0 != "?" && $0 != "#" }
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return false }
        let fileExtension = path[path.index(after: dot)...]
        return fileExtension.count <= 5 && ImageFormat.forFileExtension(String(fileExtension)) != nil
    }
}
