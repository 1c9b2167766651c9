import Foundation

// Combining the targets received for one drop into DroppedImages.

extension DropPayload {
    static func combine(received: [String: [UInt8]], baseURL: URL?, followsFiles: Bool) -> DropContents {
        let entries =
            received
            .map { (kind: TargetKind(normalizedTarget($0.key)), name: $0.key, data: $0.value) }
            .compactMap { entry in
                entry.kind.rank.map { (rank: $0, kind: entry.kind, name: entry.name, data: entry.data) }
            }
            .sorted { ($0.rank, $0.name) < ($1.rank, $1.name) }

        var oversized = 0
        func best(_ accept: (TargetKind) -> Bool) -> [ImageCandidate] {
            for entry in entries where accept(entry.kind) {
                let found = candidates(
                    kind: entry.kind, data: entry.data[...], baseURL: baseURL, followsFiles: followsFiles)
                oversized = max(oversized, found.oversized)
                if !found.candidates.isEmpty { return found.candidates }
            }
            return []
        }
        let fromURLs = best { $0.isURLList || $0.isText }
        let fromHTML = best(\.isHTML)
        let dragBytes = best(\.isBytes).first?.sources.first

        var images = distinct(merge(urls: fromURLs, html: fromHTML)).compactMap(droppedImage)
        if case .bytes(let data, let mimeType)? = dragBytes {
            if images.isEmpty {
                images = [DroppedImage(url: nil, fallbackBytes: data, mimeType: mimeType)]
            } else if images.count == 1, images[0].fallbackBytes == nil {
                // The bytes are those of the dragged image; with several images it is unknown whose they are.
                images[0].fallbackBytes = data
                images[0].mimeType = mimeType
            }
        }
        return DropContents(images: images, oversizedAddresses: oversized)
    }

    /// The URL target names what was dragged; the HTML shows which image that is.
    /// - a URL that the HTML names as an image (its `src` or a `srcset` candidate): the HTML's image (largest first);
    /// - a URL that the HTML names as the `<a href>` around an image: that link's page, dropped for the image;
    /// - one URL and one image that do not match (Chromium sends the link URL with the `<img>` markup alone):
    ///   the image, unless the URL was unwrapped from a search-engine link: then it is the full-size original
    ///   and the HTML's (thumbnail) image its alternate;
    /// - anything else: kept, after the HTML's images.
    static func merge(urls: [ImageCandidate], html: [ImageCandidate]) -> [ImageCandidate] {
        guard !html.isEmpty else { return urls }
        guard !urls.isEmpty else { return html }
        let oneToOne = urls.count == 1 && html.count == 1
        var items = html
        // Every URL text an item names, and the links around the HTML's images: looked up, not searched.
        var named = Set(items.lazy.flatMap(\.keys))
        let anchors = Set(items.compactMap(\.anchor))
        for url in urls {
            guard let key = url.sources.first?.urlString else { continue }
            if named.contains(key) { continue }
            if url.unwrapped {
                if oneToOne && !items[0].unwrapped {
                    items[0].sources = url.sources + items[0].sources.filter { !url.sources.contains($0) }
                    items[0].unwrapped = true
                } else {
                    items.append(url)
                }
                named.formUnion(url.keys)
                continue
            }
            if anchors.contains(key) || oneToOne { continue }
            items.append(url)
            named.formUnion(url.keys)
        }
        return items
    }

    /// http(s) and file URLs first (a real address is what gets recorded), then `data:` URIs.
    static func droppedImage(_ candidate: ImageCandidate) -> DroppedImage? {
        var urls: [String] = []
        var dataURIs: [String] = []
        var seen = Set<String>()
        var bytes: Data?
        var mimeType: String?
        for source in candidate.sources {
            switch source {
            case .remote(let url), .file(let url):
                if seen.insert(url.absoluteString).inserted { urls.append(url.absoluteString) }
            case .dataURI(let uri):
                if seen.insert(uri).inserted { dataURIs.append(uri) }
            case .bytes(let data, let type):
                if bytes == nil { (mimeType, bytes) = (type, data) }
            }
        }
        urls += dataURIs
        guard !urls.isEmpty || bytes != nil else { return nil }
        return DroppedImage(
            url: urls.first, alternateURLs: Array(urls.dropFirst()), fallbackBytes: bytes, mimeType: mimeType)
    }
}
