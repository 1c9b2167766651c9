import Foundation

// `<img>` extraction from the `text/html` drag target for DropPayload.

enum HTMLImages {
    struct RawImage: Equatable, Sendable {
        var src: String?
        var srcset: String?
        /// `href` of the enclosing `<a>`, raw.
        var anchor: String?
        /// `alt` and `title` of the `<img>`, and `title` of the enclosing `<a>`, raw.
        var alt: String? = nil
        var title: String? = nil
        var anchorTitle: String? = nil
    }

    /// The images of an HTML fragment, in document order, and how many `<img>` addresses were left out for
    /// being longer than `ImageLimits.maximumAddressLength`.
    static func candidates(_ data: ArraySlice<UInt8>, assumeUTF16: Bool, baseURL: URL?) -> (
        [ImageCandidate], oversized: Int
    ) {
        guard let html = decode(data, assumeUTF16: assumeUTF16) else { return ([], 0) }
        let (images, baseHref, oversized) = html.withUnsafeBufferPointer(scan)
        // A `<base href>` anywhere in the fragment applies to all of it.
        let base =
            baseHref.flatMap { href -> URL? in
                guard let cleaned = URLClassifier.cleaned(href) else { return nil }
                let url =
                    URLClassifier.scheme(of: cleaned) != nil
                    ? URL(string: cleaned) : baseURL.flatMap { URL(string: cleaned, relativeTo: $0)?.absoluteURL }
                guard let url, ["http", "https", "file"].contains(url.scheme?.lowercased() ?? "") else { return nil }
                return url
            } ?? baseURL
        return (images.compactMap { candidate($0, base: base) }, oversized)
    }

    private static func candidate(_ image: RawImage, base: URL?) -> ImageCandidate? {
        // Largest srcset candidate first, then src, then the other srcset candidates.
        let srcset =
            image.srcset.map {
                SrcSet.largestFirst(SrcSet.parse(decodeEntities($0)), keeping: ImageLimits.maximumAddressesPerImage)
            } ?? []
        var strings = Array(srcset.prefix(1))
        if let src = image.src { strings.append(decodeEntities(src)) }
        strings += srcset.dropFirst()

        var sources: [ImageSource] = []
        var unwrapped = false
        var anchor: String?
        if let href = image.anchor.map(decodeEntities), let cleaned = URLClassifier.cleaned(href) {
            // A search-result thumbnail inside `<a href="/imgres?imgurl=...">`: the link holds the real image.
            if let inner = URLClassifier.innerImageURL(in: cleaned) {
                sources.append(.remote(inner))
                unwrapped = true
            }
            let absolute =
                URLClassifier.scheme(of: cleaned) != nil
                ? URL(string: cleaned) : base.flatMap { URL(string: cleaned, relativeTo: $0)?.absoluteURL }
            anchor = absolute?.absoluteString
        }
        for string in strings {
            guard let result = URLClassifier.classify(string, baseURL: base) else { continue }
            if !sources.contains(result.source) { sources.append(result.source) }
            if result.unwrapped && sources.count == 1 { unwrapped = true }
        }
        guard !sources.isEmpty else { return nil }
        var candidate = ImageCandidate(sources: sources, anchor: anchor, unwrapped: unwrapped)
        candidate.describe(image)
        return candidate
    }

    /// As UTF-8 bytes: UTF-16 when a BOM says so (Chromium: `FF FE`) or when the first code unit looks like
    /// ASCII in UTF-16; otherwise UTF-8 as it came (invalid sequences are replaced where values are read).
    /// nil for UTF-16 with an odd byte count.
    static func decode(_ data: ArraySlice<UInt8>, assumeUTF16: Bool) -> ArraySlice<UInt8>? {
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) {
            return TextDecoding.utf16AsUTF8(data)?[...]
        }
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { return TextDecoding.droppingBOM(TextDecoding.trimmingNULs(data)) }
        if data.count >= 2 {
            let (first, second) = (data[data.startIndex], data[data.startIndex + 1])
            if first != 0 && second == 0 { return TextDecoding.utf16AsUTF8(data)?[...] }
            if first == 0 && second != 0 { return TextDecoding.utf16AsUTF8(data, bigEndian: true)?[...] }
        }
        if assumeUTF16 { return TextDecoding.utf16AsUTF8(data)?[...] }
        return TextDecoding.trimmingNULs(data)
    }

    // MARK: Tokenizer

    typealias Bytes = UnsafeBufferPointer<UInt8>

    /// A forgiving scan of start tags: `<img>` (with the `<a>` it sits in) and the first `<base href>`.
    /// Comments, doctypes and the content of script/style/textarea/title are skipped. Linear time: every
    /// search moves forward and none starts again from an earlier place.
    static func scan(_ b: Bytes) -> (images: [RawImage], baseHref: String?, oversized: Int) {
        var images: [RawImage] = []
        var baseHref: String?
        var anchor: String?
        var anchorTitle: String?
        var oversized = 0
        let n = b.count
        var i = 0
        while i < n {
            guard b[i] == UInt8(ascii: "<"), i + 1 < n else {
                i += 1
                continue
            }
            let next = b[i + 1]
            if hasPrefix(b, at: i, Pattern.commentStart) {
                i = find(b, Pattern.commentEnd, from: i + 4).map { $0 + 3 } ?? n
            } else if next == UInt8(ascii: "!") || next == UInt8(ascii: "?") {
                i = find(b, Pattern.tagEnd, from: i + 2).map { $0 + 1 } ?? n
            } else if next == UInt8(ascii: "/") {
                let (name, end) = tagName(b, from: i + 2)
                if name == "a" { (anchor, anchorTitle) = (nil, nil) }
                i = find(b, Pattern.tagEnd, from: end).map { $0 + 1 } ?? n
            } else if isAlpha(next) {
                let (name, afterName) = tagName(b, from: i + 1)
                let (attributes, end, tooLong) = parseAttributes(b, from: afterName)
                i = end
                switch name {
                case "img":
                    if tooLong { oversized += 1 }
                    images.append(
                        RawImage(
                            src: attributes["src"], srcset: attributes["srcset"], anchor: anchor,
                            alt: attributes["alt"], title: attributes["title"], anchorTitle: anchorTitle))
                case "a":
                    (anchor, anchorTitle) = (attributes["href"], attributes["title"])
                case "base":
                    if baseHref == nil { baseHref = attributes["href"] }
                case "script", "style", "textarea", "title", "xmp":
                    i = findClosingTag(b, name, from: i) ?? n
                default:
                    break
                }
            } else {
                i += 1
            }
        }
        return (images, baseHref, oversized)
    }

    /// Lowercase ASCII patterns, spelled out once.
    enum Pattern {
        static let commentStart = Array("<!--".utf8)
        static let commentEnd = Array("-->".utf8)
        static let tagEnd = Array(">".utf8)
    }

    static func isAlpha(_ c: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c | 0x20)
    }

    static func isSpace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0C || c == 0x0D
    }

    static func lower(_ c: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(c) ? c | 0x20 : c
    }

    static func hasPrefix(_ b: Bytes, at i: Int, _ s: [UInt8]) -> Bool {
        guard i + s.count <= b.count else { return false }
        for k in 0..<s.count where lower(b[i + k]) != s[k] { return false }
        return true
    }

    static func find(_ b: Bytes, _ s: [UInt8], from start: Int) -> Int? {
        guard let first = s.first, start < b.count else { return nil }
        var i = start
        while i < b.count {
            if lower(b[i]) == first && hasPrefix(b, at: i, s) { return i }
            i += 1
        }
        return nil
    }

    /// The position just past `</name ...>`.
    static func findClosingTag(_ b: Bytes, _ name: String, from start: Int) -> Int? {
        let closing = Array(("</" + name).utf8)
        var from = start
        while let i = find(b, closing, from: from) {
            let after = i + 2 + name.utf8.count
            if after >= b.count || isSpace(b[after]) || b[after] == UInt8(ascii: ">") || b[after] == UInt8(ascii: "/") {
                return find(b, Pattern.tagEnd, from: after).map { $0 + 1 } ?? b.count
            }
            from = i + 1
        }
        return nil
    }

    static func tagName(_ b: Bytes, from start: Int) -> (String, Int) {
        var i = start
        while i < b.count, !isSpace(b[i]), b[i] != UInt8(ascii: "/"), b[i] != UInt8(ascii: ">") { i += 1 }
        return (String(decoding: b[start..<i].lazy.map(lower), as: UTF8.self), i)
    }

    /// Attributes up to the end of the tag (quotes respected; the first of a repeated name wins), the
    /// position just past the tag's `>`, and whether a value was left out for being longer than
    /// `ImageLimits.maximumAddressLength`. Values are raw: entities are decoded by the caller.
    static func parseAttributes(_ b: Bytes, from start: Int) -> ([String: String], end: Int, tooLong: Bool) {
        var attributes: [String: String] = [:]
        var tooLong = false
        let n = b.count
        var i = start
        func value(_ range: Range<Int>) -> String? {
            guard range.count <= ImageLimits.maximumAddressLength else {
                tooLong = true
                return nil
            }
            return String(decoding: UnsafeBufferPointer(rebasing: b[range]), as: UTF8.self)
        }
        while true {
            while i < n, isSpace(b[i]) || b[i] == UInt8(ascii: "/") { i += 1 }
            guard i < n else { return (attributes, n, tooLong) }
            if b[i] == UInt8(ascii: ">") { return (attributes, i + 1, tooLong) }
            let nameStart = i
            i += 1  // a name may start with `=`
            while i < n, !isSpace(b[i]), b[i] != UInt8(ascii: "/"), b[i] != UInt8(ascii: ">"), b[i] != UInt8(ascii: "=")
            {
                i += 1
            }
            let name = String(decoding: b[nameStart..<i].lazy.map(lower), as: UTF8.self)
            while i < n, isSpace(b[i]) { i += 1 }
            var text: String? = ""
            if i < n, b[i] == UInt8(ascii: "=") {
                i += 1
                while i < n, isSpace(b[i]) { i += 1 }
                if i < n, b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") {
                    let quote = b[i]
                    i += 1
                    let valueStart = i
                    while i < n, b[i] != quote { i += 1 }
                    text = value(valueStart..<i)
                    if i < n { i += 1 }
                } else {
                    let valueStart = i
                    while i < n, !isSpace(b[i]), b[i] != UInt8(ascii: ">") { i += 1 }
                    text = value(valueStart..<i)
                }
            }
            if attributes[name] == nil, let text { attributes[name] = text }
        }
    }

    // MARK: Character references

    private static let namedEntities: [String: Unicode.Scalar] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
    ]

    /// Decodes `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&nbsp;`, `&#NN;` and `&#xHH;`; anything else stays.
    static func decodeEntities(_ s: String) -> String {
        guard s.contains("&") else { return s }
        let scalars = Array(s.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            guard scalars[i] == "&",
                let semicolon = scalars[(i + 1)...].prefix(33).firstIndex(of: ";"), semicolon > i + 1
            else {
                out.append(scalars[i])
                i += 1
                continue
            }
            let name = String(String.UnicodeScalarView(scalars[(i + 1)..<semicolon]))
            var decoded: Unicode.Scalar?
            if name.hasPrefix("#x") || name.hasPrefix("#X") {
                decoded = UInt32(name.dropFirst(2), radix: 16).map { Unicode.Scalar($0) ?? "\u{FFFD}" }
            } else if name.hasPrefix("#") {
                decoded = UInt32(name.dropFirst(), radix: 10).map { Unicode.Scalar($0) ?? "\u{FFFD}" }
            } else {
                decoded = namedEntities[name]
            }
            if let decoded {
                out.append(decoded == "\u{0}" ? "\u{FFFD}" : decoded)
                i = semicolon + 1
            } else {
                out.append(scalars[i])
                i += 1
            }
        }
        return String(out)
    }
}

enum SrcSet {
    struct Candidate: Equatable, Sendable {
        var url: String
        var width: Int?
        var density: Double?
    }

    /// Parses a `srcset` attribute following the HTML standard (URLs may contain commas; a descriptor list
    /// ends at a comma outside parentheses). Unknown descriptors are ignored.
    static func parse(_ srcset: String) -> [Candidate] {
        let c = Array(srcset.unicodeScalars)
        let n = c.count
        func isSpace(_ s: Unicode.Scalar) -> Bool { s == " " || s == "\t" || s == "\n" || s == "\r" || s == "\u{C}" }
        var result: [Candidate] = []
        var i = 0
        while true {
            while i < n, isSpace(c[i]) || c[i] == "," { i += 1 }
            guard i < n else { break }
            let start = i
            while i < n, !isSpace(c[i]) { i += 1 }
            var url = c[start..<i]
            var descriptors: [String] = []
            if url.last == "," {
                while url.last == "," { url = url.dropLast() }
            } else {
                var current = String.UnicodeScalarView()
                var inParens = false
                while i < n {
                    let ch = c[i]
                    i += 1
                    if inParens {
                        if ch == ")" { inParens = false }
                        current.append(ch)
                    } else if isSpace(ch) {
                        if !current.isEmpty {
                            descriptors.append(String(current))
                            current = .init()
                        }
                    } else if ch == "," {
                        break
                    } else {
                        if ch == "(" { inParens = true }
                        current.append(ch)
                    }
                }
                if !current.isEmpty { descriptors.append(String(current)) }
            }
            guard !url.isEmpty else { continue }
            var candidate = Candidate(url: String(String.UnicodeScalarView(url)))
            for descriptor in descriptors {
                let number = descriptor.dropLast()
                switch descriptor.last {
                case "w": if let w = Int(number), w > 0 { candidate.width = w }
                case "x": if let x = Double(number), x.isFinite, x > 0 { candidate.density = x }
                default: break
                }
            }
            result.append(candidate)
        }
        return result
    }

    /// The URLs of the `count` largest candidates, largest first: by width when any candidate has one (those
    /// without come after), else by density (absent = 1x). Ties keep document order. Linear in the candidates.
    static func largestFirst(_ candidates: [Candidate], keeping count: Int) -> [String] {
        let useWidth = candidates.contains { $0.width != nil }
        func isLarger(_ a: Candidate, than b: Candidate) -> Bool {
            if useWidth {
                switch (a.width, b.width) {
                case (let wa?, let wb?) where wa != wb: return wa > wb
                case (_?, nil): return true
                case (nil, _?): return false
                default: break
                }
            }
            return (a.density ?? 1) > (b.density ?? 1)
        }
        var kept: [Candidate] = []
        for candidate in candidates {
            // After every kept candidate at least as large: ties keep document order.
            let position = kept.firstIndex { isLarger(candidate, than: $0) } ?? kept.count
            guard position < count else { continue }
            kept.insert(candidate, at: position)
            if kept.count > count { kept.removeLast() }
        }
        return kept.map(\.url)
    }
}
