import Foundation

// Target classification, text decoding and per-target parsing for DropPayload.

/// One image as found in one target, before it becomes a `DroppedImage`.
struct ImageCandidate: Sendable {
    /// Where the image can be had, best first (never empty).
    var sources: [ImageSource]
    /// The absolute `href` of the `<a>` an HTML `<img>` sits in (that link's page, not the image).
    var anchor: String?
    /// The best source was unwrapped from a search-engine result link.
    var unwrapped: Bool
    /// What the page says of the image (an HTML `<img>`'s alt and title): recorded in its origin.
    var altText: String? = nil
    var title: String? = nil
    /// The raw `href` of the `<a>` around an HTML `<img>`.
    var rawAnchor: String? = nil

    /// Every URL text naming this image.
    var keys: Set<String> { Set(sources.compactMap(\.urlString)) }
}

enum TextCharset: Equatable, Sendable {
    case utf8, latin1, utf8OrLatin1, utf16
}

enum TargetKind: Equatable, Sendable {
    case uriList, mozURL, netscapeURL
    case html(utf16: Bool)
    case text(TextCharset, rank: Int)
    case bytes(label: String, rank: Int)
    case unknown

    /// `name` must be normalised with `normalizedTarget`.
    init(_ name: String) {
        switch name {
        case "text/uri-list": self = .uriList
        case "text/x-moz-url": self = .mozURL
        case "_netscape_url": self = .netscapeURL
        case "text/plain;charset=utf-8", "text/plain;charset=utf8": self = .text(.utf8, rank: 10)
        case "utf8_string": self = .text(.utf8, rank: 11)
        case "text/plain": self = .text(.utf8OrLatin1, rank: 12)
        case "string": self = .text(.latin1, rank: 14)
        case "text": self = .text(.utf8OrLatin1, rank: 15)
        case "application/octet-stream": self = .bytes(label: name, rank: 20)
        case "image/png": self = .bytes(label: name, rank: 21)
        case "image/webp": self = .bytes(label: name, rank: 22)
        case "image/avif": self = .bytes(label: name, rank: 23)
        case "image/jpeg": self = .bytes(label: name, rank: 24)
        case "image/gif": self = .bytes(label: name, rank: 25)
        default:
            let (type, charset) = TargetKind.split(name)
            if type == "text/html" {
                self = .html(utf16: charset?.hasPrefix("utf-16") ?? false)
            } else if type == "text/plain", let charset {
                switch charset {
                case "utf-16", "utf-16le", "utf-16be", "ucs-2": self = .text(.utf16, rank: 13)
                case "iso-8859-1", "latin1", "us-ascii", "ascii": self = .text(.latin1, rank: 13)
                default: self = .text(.utf8OrLatin1, rank: 13)
                }
            } else if type.hasPrefix("image/"), type.count > "image/".count {
                self = .bytes(label: type, rank: 26)
            } else {
                self = .unknown
            }
        }
    }

    private static func split(_ name: String) -> (type: String, charset: String?) {
        let parts = name.split(separator: ";").map(String.init)
        let type = parts.first ?? ""
        let charset = parts.dropFirst().first { $0.hasPrefix("charset=") }.map {
            String($0.dropFirst("charset=".count))
        }
        return (type, charset)
    }

    var rank: Int? {
        switch self {
        case .uriList: return 0
        case .mozURL: return 1
        case .netscapeURL: return 2
        case .html: return 3
        case .text(_, let rank), .bytes(_, let rank): return rank
        case .unknown: return nil
        }
    }

    /// A target whose data is a list of URLs.
    var isURLList: Bool { self == .uriList || self == .mozURL || self == .netscapeURL }
    var isHTML: Bool { if case .html = self { return true } else { return false } }
    var isText: Bool { if case .text = self { return true } else { return false } }
    var isBytes: Bool { if case .bytes = self { return true } else { return false } }
}

extension DropPayload {
    /// Lowercased, with whitespace and quotes removed: `text/plain; charset="UTF-8"` → `text/plain;charset=utf-8`.
    static func normalizedTarget(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { !($0 == " " || $0 == "\t" || $0 == "\"" || $0 == "'") })
    }

    /// The images one target's data holds, in order, distinct.
    static func candidates(kind: TargetKind, data: ArraySlice<UInt8>, baseURL: URL?) -> [ImageCandidate] {
        let found: [ImageCandidate]
        switch kind {
        case .unknown:
            return []
        case .uriList:
            // RFC 2483: CRLF-separated URIs, `#` starts a comment line.
            let text = TextDecoding.utf8(TextDecoding.trimmingNULs(data))
            found = text.split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("#") }
                .compactMap { urlCandidate($0) }
        case .mozURL, .netscapeURL:
            // Lines alternate URL, title (the title may be empty or missing).
            guard let text = TextDecoding.mozText(data) else { return [] }
            let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            found = lines.enumerated().filter { $0.offset % 2 == 0 }
                .compactMap { urlCandidate($0.element.trimmingCharacters(in: .whitespaces)) }
        case .text(let charset, _):
            guard let text = TextDecoding.decode(data, charset: charset) else { return [] }
            let trimmed = text.trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(["\u{0}", "\u{FEFF}"]))
            // One absolute URL and nothing else: prose that happens to contain a URL is not a drop of it.
            guard !trimmed.isEmpty,
                !trimmed.unicodeScalars.contains(where: { CharacterSet.whitespacesAndNewlines.contains($0) })
            else { return [] }
            found = urlCandidate(trimmed).map { [$0] } ?? []
        case .html(let utf16):
            found = HTMLImages.candidates(data, assumeUTF16: utf16, baseURL: baseURL)
        case .bytes(let label, _):
            guard let source = bytesSource(data, label: label) else { return [] }
            found = [ImageCandidate(sources: [source], anchor: nil, unwrapped: false)]
        }
        return distinct(found)
    }

    private static func urlCandidate(_ string: String) -> ImageCandidate? {
        guard let result = URLClassifier.classify(string, baseURL: nil) else { return nil }
        return ImageCandidate(sources: [result.source], anchor: nil, unwrapped: result.unwrapped)
    }

    /// Image bytes: recognised content wins over the label; an unrecognised payload is accepted only under an
    /// `image/*` label whose signature is unknown here (gdk-pixbuf reads more formats than are sniffed).
    static func bytesSource(_ data: ArraySlice<UInt8>, label: String) -> ImageSource? {
        guard !data.isEmpty else { return nil }
        if let format = ImageFormat.sniff(data) { return .bytes(Data(data), mimeType: format.mimeType) }
        guard label.hasPrefix("image/"), !ImageFormat.hasKnownSignature(label) else { return nil }
        return .bytes(Data(data), mimeType: label)
    }

    /// Removes later candidates whose best source is already named by an earlier one.
    static func distinct(_ candidates: [ImageCandidate]) -> [ImageCandidate] {
        var seen = Set<String>()
        return candidates.filter { candidate in
            guard let key = candidate.sources.first?.urlString else { return true }
            return seen.insert(key).inserted
        }
    }
}

enum TextDecoding {
    static func trimmingNULs(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[end - 1] == 0 { end -= 1 }
        return bytes[bytes.startIndex..<end]
    }

    /// UTF-8, invalid sequences replaced by U+FFFD (which URL validation then refuses), BOM dropped.
    static func utf8(_ bytes: ArraySlice<UInt8>) -> String {
        var bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func isValidUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
        String(validating: bytes, as: UTF8.self) != nil
    }

    static func latin1(_ bytes: ArraySlice<UInt8>) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
        return String(scalars)
    }

    /// UTF-16 with an optional BOM (little-endian without one unless `bigEndian`); nil for an odd byte count.
    /// Trailing NUL code units are dropped; unpaired surrogates become U+FFFD.
    static func utf16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool = false) -> String? {
        guard bytes.count % 2 == 0 else { return nil }
        var bytes = bytes
        var bigEndian = bigEndian
        if bytes.starts(with: [0xFF, 0xFE]) {
            bigEndian = false
            bytes = bytes.dropFirst(2)
        } else if bytes.starts(with: [0xFE, 0xFF]) {
            bigEndian = true
            bytes = bytes.dropFirst(2)
        }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var i = bytes.startIndex
        while i + 1 < bytes.endIndex {
            let (a, b) = (UInt16(bytes[i]), UInt16(bytes[i + 1]))
            units.append(bigEndian ? a << 8 | b : b << 8 | a)
            i += 2
        }
        while units.last == 0 { units.removeLast() }
        return String(decoding: units, as: UTF16.self)
    }

    /// `text/x-moz-url` and `_NETSCAPE_URL`: UTF-16 (LE unless a BOM says otherwise). Data without a single
    /// zero byte cannot be UTF-16 text starting with an ASCII scheme, so it is read as UTF-8 (some
    /// non-browser sources send these targets in UTF-8).
    static func mozText(_ bytes: ArraySlice<UInt8>) -> String? {
        let hasBOM = bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
        let trimmed = trimmingNULs(bytes)
        if !hasBOM, !trimmed.isEmpty, !trimmed.contains(0) { return utf8(trimmed) }
        return utf16(bytes)
    }

    static func decode(_ bytes: ArraySlice<UInt8>, charset: TextCharset) -> String? {
        switch charset {
        case .utf16: return utf16(bytes)
        case .utf8: return utf8(trimmingNULs(bytes))
        case .latin1: return latin1(trimmingNULs(bytes))
        case .utf8OrLatin1:
            let trimmed = trimmingNULs(bytes)
            return isValidUTF8(trimmed) ? utf8(trimmed) : latin1(trimmed)
        }
    }
}
