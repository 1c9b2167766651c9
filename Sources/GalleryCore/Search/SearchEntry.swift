import Foundation

/// What the search index keeps of one image: its searchable text folded once, and the facts filters ask. The index
/// keeps them compactly (`SearchEntries`); this is one read back, or made for one image.
public struct SearchEntry: Hashable, Sendable {
    /// The image's shape for the orientation filter.
    public enum Orientation: String, Hashable, Sendable, CaseIterable {
        case landscape, portrait, square
    }

    public var id: ImageID
    /// The label (unless the address holds it), the addresses, the alt text, title, description, note and tags,
    /// folded and joined by a line break (which no query word holds), so a word never matches across two fields.
    public var text: [UInt8]
    /// The tags folded, for the tag filter.
    public var tags: [String]
    /// The host names of the image, its link and its page, folded, without a leading `www.`.
    public var domains: [String]
    /// When it was added, as the state file writes it (ISO 8601 in UTC, which sorts as it reads).
    public var added: String?
    public var orientation: Orientation
    /// The format's name in lowercase (`png`, `webp`…), from the kept original or else the address's extension.
    public var format: String?
    public var hasNote: Bool
    public var isAnimated: Bool
    /// Tells whether the image changed since it was indexed.
    var sourceHash: Int

    init(
        id: ImageID, text: [UInt8], tags: [String], domains: [String], added: String?, orientation: Orientation,
        format: String?, hasNote: Bool, isAnimated: Bool, sourceHash: Int
    ) {
        self.id = id
        self.text = text
        self.tags = tags
        self.domains = domains
        self.added = added
        self.orientation = orientation
        self.format = format
        self.hasNote = hasNote
        self.isAnimated = isAnimated
        self.sourceHash = sourceHash
    }

    public init(_ image: GalleryImage, folding: inout SearchFolding) {
        var entries = SearchEntries()
        entries.append(image, folding: &folding)
        self = entries.entry(at: 0)
    }

    /// Where the host an address names stands in its UTF-8, without `www.`, user or port; nil for one without a
    /// host (`data:`, a file). Read byte by byte: URLComponents takes longer than the rest of the entry.
    static func hostRange(of address: String) -> Range<Int>? { hostRange(of: address[...]) }

    /// `hostRange(of:)` for a part of a string (an image's packed texts).
    static func hostRange(of address: Substring) -> Range<Int>? {
        var address = address
        return address.withUTF8 { bytes -> Range<Int>? in
            let colon = UInt8(ascii: ":")
            let slash = UInt8(ascii: "/")
            var index = 0
            // The scheme (letters, digits, `+`, `-`, `.`; these keep their value with the case bit set), then `://`.
            while index < bytes.count, bytes[index] != colon {
                let byte = bytes[index] | 0x20
                guard
                    (0x61...0x7A).contains(byte) || (0x30...0x39).contains(bytes[index]) || byte == 0x2B
                        || byte == 0x2D || byte == 0x2E
                else { return nil }
                index += 1
            }
            guard index + 2 < bytes.count, bytes[index + 1] == slash, bytes[index + 2] == slash else { return nil }
            var start = index + 3
            var end = start
            var portColon: Int?
            var inBrackets = false
            while end < bytes.count, bytes[end] != slash, bytes[end] != UInt8(ascii: "?"),
                bytes[end] != UInt8(ascii: "#")
            {
                switch bytes[end] {
                case UInt8(ascii: "@"):
                    start = end + 1
                    portColon = nil
                case UInt8(ascii: "["): inBrackets = true
                case UInt8(ascii: "]"): inBrackets = false
                case colon where !inBrackets: portColon = end
                default: break
                }
                end += 1
            }
            end = portColon ?? end
            if end - start > 4, bytes[start..<start + 4].elementsEqual("www.".utf8) { start += 4 }
            guard end > start else { return nil }
            return start..<end
        }
    }

    /// The extension of an address's last path component (`jpg`), before its query or fragment.
    static func fileExtension(of address: String) -> String? {
        let path = address.utf8.prefix { $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        let name = path.lastIndex(of: UInt8(ascii: "/")).map { path[path.index(after: $0)...] } ?? path
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")) else { return nil }
        return String(name[name.index(after: dot)...])
    }

    /// A folded query word, ready to be looked for in every text.
    struct Word {
        let bytes: [UInt8]
        /// For the shift-or method, by byte value: every bit set but those of the places the byte holds in the word
        /// (of at most 64 bytes; none for a longer one).
        let masks: [UInt64]

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            var masks = [UInt64](repeating: ~0, count: bytes.count <= UInt64.bitWidth ? 256 : 0)
            if !masks.isEmpty {
                for (index, byte) in bytes.enumerated() { masks[Int(byte)] &= ~(1 << index) }
            }
            self.masks = masks
        }
    }

    /// Whether the folded text holds every one of the words.
    func containsAll(_ words: [Word]) -> Bool {
        text.withUnsafeBufferPointer { Self.containsAll(words, in: $0) }
    }

    static func containsAll(_ words: [Word], in text: UnsafeBufferPointer<UInt8>) -> Bool {
        words.allSatisfy { find($0, in: text) }
    }

    /// Looks for the word's first byte with `memchr`, which reads many bytes at a time: a first letter found in
    /// few texts took a byte-by-byte pass over every text. After a few starts that failed (a text made of the
    /// word's letters) the rest is read once, a byte at a time, by the shift-or method: no text costs more.
    private static func find(_ word: Word, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        word.bytes.withUnsafeBufferPointer { bytes in
            guard let first = bytes.first else { return true }
            guard text.count >= bytes.count, let base = text.baseAddress, let rest = bytes.baseAddress.map({ $0 + 1 })
            else { return false }
            let last = text.count - bytes.count
            var start = 0
            var failedStarts = 0
            while start <= last {
                guard let found = memchr(base + start, Int32(first), last - start + 1) else { return false }
                let at = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
                if bytes.count == 1 || (base[at + 1] == rest[0] && memcmp(base + at + 1, rest, bytes.count - 1) == 0) {
                    return true
                }
                start = at + 1
                failedStarts += 1
                if failedStarts == 4, !word.masks.isEmpty {
                    // Bit i of `state` is clear while the last i + 1 bytes read are the word's first i + 1.
                    return word.masks.withUnsafeBufferPointer { masks in
                        let found: UInt64 = 1 << (bytes.count - 1)
                        var state: UInt64 = ~0
                        for byte in UnsafeBufferPointer(rebasing: text[start...]) {
                            state = (state << 1) | masks[Int(byte)]
                            if state & found == 0 { return true }
                        }
                        return false
                    }
                }
            }
            return false
        }
    }
}
