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

    /// What one target's data holds.
    struct Found {
        /// The images, in order, distinct.
        var candidates: [ImageCandidate] = []
        /// Addresses left out unread for being longer than `ImageLimits.maximumAddressLength`.
        var oversized = 0
    }

    /// The images one target's data holds, in order, distinct; `file:` addresses only when `followsFiles` (never
    /// from `text/html`: a page wrote it). Linear in the data's length.
    static func candidates(kind: TargetKind, data: ArraySlice<UInt8>, baseURL: URL?, followsFiles: Bool) -> Found {
        var found = Found()
        func add(_ line: ArraySlice<UInt8>) {
            let line = TextDecoding.trimmingSpaces(line)
            guard !line.isEmpty else { return }
            guard line.count <= ImageLimits.maximumAddressLength else {
                found.oversized += 1
                return
            }
            if let candidate = urlCandidate(String(decoding: line, as: UTF8.self)) {
                found.candidates.append(candidate)
            }
        }
        switch kind {
        case .unknown:
            return found
        case .uriList:
            // RFC 2483: CRLF-separated URIs, `#` starts a comment line.
            for line in TextDecoding.lines(TextDecoding.droppingBOM(TextDecoding.trimmingNULs(data)))
            where TextDecoding.trimmingSpaces(line).first != UInt8(ascii: "#") {
                add(line)
            }
        case .mozURL, .netscapeURL:
            // Lines alternate URL, title (the title may be empty or missing).
            guard let text = TextDecoding.mozText(data) else { return found }
            for (index, line) in TextDecoding.lines(text[...]).enumerated() where index % 2 == 0 { add(line) }
        case .text(let charset, _):
            // UTF-16 takes two bytes a character: longer than that, the text cannot be one address.
            guard data.count <= 2 * ImageLimits.maximumAddressLength + 8 else {
                found.oversized = 1
                return found
            }
            guard let text = TextDecoding.decode(data, charset: charset) else { return found }
            let trimmed = text.trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(["\u{0}", "\u{FEFF}"]))
            // One absolute URL and nothing else: prose that happens to contain a URL is not a drop of it.
            guard !trimmed.isEmpty,
                !trimmed.unicodeScalars.contains(where: { CharacterSet.whitespacesAndNewlines.contains($0) })
            else { return found }
            add(Array(trimmed.utf8)[...])
        case .html(let utf16):
            (found.candidates, found.oversized) = HTMLImages.candidates(data, assumeUTF16: utf16, baseURL: baseURL)
        case .bytes(let label, _):
            guard let source = bytesSource(data, label: label) else { return found }
            found.candidates = [ImageCandidate(sources: [source], anchor: nil, unwrapped: false)]
        }
        if !followsFiles || kind.isHTML { found.candidates = found.candidates.compactMap(withoutFiles) }
        found.candidates = distinct(found.candidates)
        return found
    }

    /// The candidate without its `file:` sources; nil when nothing else names it.
    private static func withoutFiles(_ candidate: ImageCandidate) -> ImageCandidate? {
        var candidate = candidate
        candidate.sources.removeAll { if case .file = $0 { true } else { false } }
        return candidate.sources.isEmpty ? nil : candidate
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

    static func droppingBOM(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes
    }

    /// Without the spaces and tabs around it.
    static func trimmingSpaces(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var (start, end) = (bytes.startIndex, bytes.endIndex)
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return bytes[start..<end]
    }

    /// The lines of UTF-8 text, ended by LF, CRLF or CR; an empty line stays (the last one only when the text
    /// does not end there).
    static func lines(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var i = start
        while i < bytes.endIndex {
            let byte = bytes[i]
            guard byte == 0x0A || byte == 0x0D else {
                i += 1
                continue
            }
            lines.append(bytes[start..<i])
            i += byte == 0x0D && i + 1 < bytes.endIndex && bytes[i + 1] == 0x0A ? 2 : 1
            start = i
        }
        if start < bytes.endIndex { lines.append(bytes[start..<bytes.endIndex]) }
        return lines
    }

    /// UTF-8, invalid sequences replaced by U+FFFD (which URL validation then refuses), BOM dropped.
    static func utf8(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: droppingBOM(bytes), as: UTF8.self)
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
        utf16AsUTF8(bytes, bigEndian: bigEndian).map { String(decoding: $0, as: UTF8.self) }
    }

    /// `utf16(_:bigEndian:)` as UTF-8 bytes, transcoded in one pass.
    static func utf16AsUTF8(_ bytes: ArraySlice<UInt8>, bigEndian: Bool = false) -> [UInt8]? {
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
        while bytes.count >= 2, bytes[bytes.endIndex - 1] == 0, bytes[bytes.endIndex - 2] == 0 {
            bytes = bytes.dropLast(2)
        }
        let start = bytes.startIndex
        let units = stride(from: 0, to: bytes.count, by: 2).lazy.map { offset -> UInt16 in
            let (a, b) = (UInt16(bytes[start + offset]), UInt16(bytes[start + offset + 1]))
            return bigEndian ? a << 8 | b : b << 8 | a
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count / 2)
        _ = transcode(units.makeIterator(), from: UTF16.self, to: UTF8.self, stoppingOnError: false) {
            out.append($0)
        }
        return out
    }

    /// `text/x-moz-url` and `_NETSCAPE_URL` as UTF-8 bytes: UTF-16 (LE unless a BOM says otherwise). Data
    /// without a single zero byte cannot be UTF-16 text starting with an ASCII scheme, so it is read as UTF-8
    /// (some non-browser sources send these targets in UTF-8).
    static func mozText(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let hasBOM = bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
        let trimmed = trimmingNULs(bytes)
        if !hasBOM, !trimmed.isEmpty, !trimmed.contains(0) { return droppingBOM(trimmed) }
        return utf16AsUTF8(bytes)?[...]
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
