import Foundation

// What a drop tells of where each image came from, for `ImageOrigin`.
//
// Measured with an `<a href="article.html" title="…"><img alt="…" title="…"></a>` dragged into a GTK 3 window:
// Firefox ESR sends the link's address as `text/uri-list` and `text/x-moz-url` (its title line: the alt
// text), and the `<a>` with the `<img>` in `text/html`; Chromium sends the link's address as
// `text/x-moz-url` (the same title line) and only the `<img>` in `text/html`. Neither hands over the
// page's address: Firefox's `text/_moz_htmlcontext` holds the ancestors' markup without it, its
// `text/_moz_htmlinfo` two offsets, and Chromium's `chromium/x-renderer-taint` only the page's origin.

extension DropPayload {
    /// Targets worth asking for beyond `targetsToRequest(offered:)`: `text/x-moz-url`, whose title
    /// lines say what the browser calls the image (Firefox gives `text/uri-list` the first place).
    public static func originTargetsToRequest(offered: [String]) -> [String] {
        let chosen = Set(targetsToRequest(offered: offered).map(normalizedTarget))
        return offered.filter { TargetKind(normalizedTarget($0)) == .mozURL && !chosen.contains(normalizedTarget($0)) }
            .prefix(1).map { $0 }
    }

    /// `images` with what `received` tells of each: the `<img>`'s alt and title, the link around
    /// it, the page a search result names, the browser's description. Arrival and date are the app's.
    static func describe(_ images: [DroppedImage], received: [String: [UInt8]], baseURL: URL?) -> [DroppedImage] {
        guard !images.isEmpty else { return images }
        let entries = received.map { (kind: TargetKind(normalizedTarget($0.key)), name: $0.key, data: $0.value) }
            .filter { $0.kind.rank != nil }
            .sorted { ($0.kind.rank!, $0.name) < ($1.kind.rank!, $1.name) }
        let html =
            entries.lazy.filter(\.kind.isHTML)
            .map { candidates(kind: $0.kind, data: $0.data[...], baseURL: baseURL, followsFiles: true).candidates }
            .first { !$0.isEmpty } ?? []
        let urlEntry = entries.first { $0.kind.isURLList || $0.kind.isText }
        let urls =
            urlEntry.map {
                candidates(kind: $0.kind, data: $0.data[...], baseURL: baseURL, followsFiles: true).candidates
            }
            ?? []
        let rawURLs = urlEntry.map { rawURLLines($0.kind, $0.data[...]) } ?? []
        // Each address names the first HTML image and the first search-result page that hold it, found in one
        // pass each rather than a scan per image: a drop may hold 100,000 of them.
        var htmlImageHolding: [String: Int] = [:]
        for (index, candidate) in html.enumerated() {
            for key in candidate.keys where htmlImageHolding[key] == nil { htmlImageHolding[key] = index }
        }
        var pageNaming: [String: (index: Int, page: String)] = [:]
        for (index, raw) in rawURLs.enumerated() {
            guard let inner = URLClassifier.innerImageURL(in: raw)?.absoluteString, pageNaming[inner] == nil,
                let page = pageParameter(in: raw)
            else { continue }
            pageNaming[inner] = (index, page)
        }
        let titles =
            entries.first { $0.kind == .mozURL || $0.kind == .netscapeURL }
            .map { browserTitles($0.data[...]) } ?? [:]

        return images.map { image in
            var image = image
            let keys = Set(image.addresses)
            var origin = image.origin ?? ImageOrigin()
            if let index = keys.compactMap({ htmlImageHolding[$0] }).min() {
                let match = html[index]
                origin.altText = origin.altText ?? match.altText
                origin.title = origin.title ?? match.title
                if let raw = match.rawAnchor {
                    // A search result's link leads to the search engine, not to the image's page.
                    if URLClassifier.innerImageURL(in: raw) != nil {
                        origin.page = origin.page ?? pageParameter(in: raw)
                    } else {
                        origin.link = origin.link ?? match.anchor
                    }
                }
            }
            // Chromium names the link in its URL targets and sends the `<img>` alone in its HTML.
            if origin.link == nil, images.count == 1, html.count == 1, urls.count == 1, !urls[0].unwrapped,
                let only = urls[0].sources.first?.urlString, !keys.contains(only), !only.hasPrefix("data:")
            {
                origin.link = only
            }
            if origin.page == nil {
                origin.page = keys.compactMap { pageNaming[$0] }.min { $0.index < $1.index }?.page
            }
            let described = [image.url, origin.link].compactMap { $0 }.lazy.compactMap { titles[$0] }.first
            origin.browserDescription = origin.browserDescription ?? described
            if origin != ImageOrigin() { image.origin = origin }
            return image
        }
    }

    /// The lines naming URLs, as sent (before any search-engine link is unwrapped).
    private static func rawURLLines(_ kind: TargetKind, _ data: ArraySlice<UInt8>) -> [String] {
        switch kind {
        case .uriList:
            return TextDecoding.utf8(TextDecoding.trimmingNULs(data)).split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        case .mozURL, .netscapeURL:
            return mozPairs(data).map(\.url)
        case .text(let charset, _):
            return TextDecoding.decode(data, charset: charset).map {
                [$0.trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(["\u{0}", "\u{FEFF}"]))]
            } ?? []
        default:
            return []
        }
    }

    /// `text/x-moz-url` and `_NETSCAPE_URL`: lines alternate URL and title.
    private static func mozPairs(_ data: ArraySlice<UInt8>) -> [(url: String, title: String)] {
        guard let utf8 = TextDecoding.mozText(data) else { return [] }
        let text = String(decoding: utf8, as: UTF8.self)
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        return stride(from: 0, to: lines.count, by: 2).map { index in
            (
                lines[index].trimmingCharacters(in: .whitespaces),
                index + 1 < lines.count ? lines[index + 1] : ""
            )
        }
    }

    /// Each URL's title line, when it says something else than the URL (Firefox repeats the URL
    /// for an image without alt text; Chromium leaves the line empty).
    private static func browserTitles(_ data: ArraySlice<UInt8>) -> [String: String] {
        var titles: [String: String] = [:]
        for (url, title) in mozPairs(data) {
            guard let title = OriginText.cleaned(title), title != url, titles[url] == nil else { continue }
            titles[url] = title
            if let classified = URLClassifier.classify(url, baseURL: nil)?.source.urlString, titles[classified] == nil {
                titles[classified] = title
            }
        }
        return titles
    }

    /// The page a search result names (`imgrefurl=` in Google's `/imgres` links).
    private static func pageParameter(in reference: String) -> String? {
        guard let questionMark = reference.firstIndex(of: "?") else { return nil }
        let query = reference[reference.index(after: questionMark)...].prefix { $0 != "#" }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].lowercased() == "imgrefurl",
                let url = String(parts[1]).removingPercentEncoding.flatMap(URLClassifier.httpURL)
            else { continue }
            return url.absoluteString
        }
        return nil
    }
}

extension ImageCandidate {
    /// Takes what an HTML `<img>` (and the `<a>` around it) says of the image.
    mutating func describe(_ image: HTMLImages.RawImage) {
        altText = image.alt.flatMap { OriginText.cleaned(HTMLImages.decodeEntities($0)) }
        title = (image.title ?? image.anchorTitle).flatMap { OriginText.cleaned(HTMLImages.decodeEntities($0)) }
        rawAnchor = image.anchor.map(HTMLImages.decodeEntities)
    }
}

/// Text a page or a browser says of an image, as recorded: one line, spaces collapsed, at most
/// `maximumLength` characters (a page may put anything in an attribute).
enum OriginText {
    static let maximumLength = 1000

    static func cleaned(_ text: String) -> String? {
        let words = text.split(whereSeparator: { $0.isWhitespace || $0 == "\u{0}" })
        guard !words.isEmpty else { return nil }
        let joined = words.joined(separator: " ")
        return joined.count > maximumLength ? String(joined.prefix(maximumLength - 1)) + "…" : joined
    }
}
