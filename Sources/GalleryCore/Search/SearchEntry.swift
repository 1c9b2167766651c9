import Foundation

/// What the search index keeps of one image: its searchable text folded once, and the facts filters ask.
public struct SearchEntry: Hashable, Sendable {
    /// The image's shape for the orientation filter.
    public enum Orientation: String, Hashable, Sendable, CaseIterable {
        case landscape, portrait, square
    }

    public var id: ImageID
    /// The label, the addresses, the alt text, title, description, note and tags, folded and joined by
    /// a line break (which no query word holds), so a word never matches across two fields.
    public var text: [UInt8]
    /// The tags folded, for the tag filter.
    public var tags: [String]
    /// The host names of the image, its link and its page, folded, without a leading `www.`.
    public var domains: [String]
    public var added: Date?
    public var orientation: Orientation
    /// The format's name in lowercase (`png`, `webp`…), from the kept original or else the address's extension.
    public var format: String?
    public var hasNote: Bool
    /// Tells whether the image changed since it was indexed.
    var sourceHash: Int

    public init(_ image: GalleryImage, folding: inout SearchFolding) {
        id = image.id
        let origin = image.origin
        var text: [UInt8] = []
        let fields = [
            image.label, image.url, origin?.link, origin?.page, origin?.altText, origin?.title,
            origin?.browserDescription, image.note,
        ]
        for field in fields.compactMap(\.self) + image.tags {
            folding.append(field, to: &text)
            text.append(0x0A)
        }
        self.text = text
        tags = image.tags.map { folding.string($0) }
        domains = [image.url, origin?.link, origin?.page].compactMap { $0.flatMap(Self.domain) }.map {
            folding.string($0)
        }
        added = origin?.addedDate
        let ratio = image.displayAspectRatio
        orientation = ratio > 1.05 ? .landscape : ratio < 0.95 ? .portrait : .square
        format =
            (image.original?.format
            ?? URLComponents(string: image.url).flatMap {
                ImageFormat.forFileExtension(($0.path as NSString).pathExtension)?.name
            })?.lowercased()
        hasNote = image.note != nil
        sourceHash = image.hashValue
    }

    /// The host an address names, without `www.`; nil for one without a host (`data:`, a file).
    static func domain(of address: String) -> String? {
        guard let host = URLComponents(string: address)?.host, !host.isEmpty else { return nil }
        return host.hasPrefix("www.") ? String(host.dropFirst(4)) : host
    }

    /// Whether the folded text holds every one of the folded words.
    func containsAll(_ words: [[UInt8]]) -> Bool {
        text.withUnsafeBufferPointer { text in
            words.allSatisfy { word in word.withUnsafeBufferPointer { Self.find(word: $0, in: text) } }
        }
    }

    private static func find(word: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = word.first else { return true }
        guard text.count >= word.count else { return false }
        var start = 0
        let last = text.count - word.count
        while start <= last {
            if text[start] == first {
                var matched = 1
                while matched < word.count && text[start + matched] == word[matched] { matched += 1 }
                if matched == word.count { return true }
            }
            start += 1
        }
        return false
    }
}
