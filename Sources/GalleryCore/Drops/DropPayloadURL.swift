import Foundation

// URL validation, search-engine unwrapping, data: URIs and image signatures for DropPayload.

enum URLClassifier {
    struct Result: Sendable {
        var source: ImageSource
        /// The URL was a search-engine result link; `source` is the image inside it.
        var unwrapped: Bool
    }

    /// Query parameters that carry the image itself in search-engine result links
    /// (Google `/imgres?imgurl=`, Bing `/images/search?mediaurl=`, Yandex `/images/search?img_url=`).
    static let imageParameters: Set<String> = ["imgurl", "mediaurl", "img_url"]

    static func classify(_ raw: String, baseURL: URL?) -> Result? {
        guard let string = cleaned(raw) else { return nil }
        guard let scheme = scheme(of: string) else {
            // A relative reference: only with a base to resolve it against.
            guard let baseURL, let base = scheme(of: baseURL.absoluteString),
                base == "http" || base == "https" || base == "file",
                let resolved = URL(string: string, relativeTo: baseURL)?.absoluteURL,
                scheme(of: resolved.absoluteString) != nil
            else { return nil }
            return classify(resolved.absoluteString, baseURL: nil)
        }
        switch scheme {
        case "http", "https":
            guard let url = httpURL(string) else { return nil }
            let (inner, unwrapped) = unwrap(url)
            return Result(source: .remote(inner), unwrapped: unwrapped)
        case "file":
            guard let url = URL(string: string), url.scheme?.lowercased() == "file",
                ["", "localhost"].contains(url.host?.lowercased() ?? ""),
                url.path.hasPrefix("/"), url.path.count > 1
            else { return nil }
            return Result(source: .file(url), unwrapped: false)
        case "data":
            guard DataURI.inspect(string) != nil else { return nil }
            return Result(source: .dataURI(string), unwrapped: false)
        default:
            return nil  // javascript:, about:, ftp:, blob:, chrome:, mailto: ...
        }
    }

    /// Trimmed of surrounding whitespace and controls, tabs and newlines removed (as the WHATWG URL parser
    /// does); nil when empty or when other control characters or U+FFFD (a decoding error) remain.
    static func cleaned(_ raw: String) -> String? {
        func isTabOrNewline(_ byte: UInt8) -> Bool { byte == 0x09 || byte == 0x0A || byte == 0x0D }
        func text(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
        var whole = raw
        return whole.withUTF8 { bytes in
            if bytes.contains(where: isTabOrNewline) {
                let kept = bytes.filter { !isTabOrNewline($0) }
                return kept.withUnsafeBufferPointer { kept in trimmedRange(kept).map { text(kept, $0) } }
            }
            // A long `data:` URI usually needs nothing removed: it is then kept as it is, not copied.
            guard let range = trimmedRange(bytes) else { return nil }
            return range.count == bytes.count ? raw : text(bytes, range)
        }
    }

    /// The part of `bytes` within surrounding whitespace, controls and BOMs; nil when that is empty or holds a
    /// control character or U+FFFD.
    private static func trimmedRange(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var start = 0
        var end = bytes.count
        while start < end {
            if bytes[start] <= 0x20 {
                start += 1
            } else if bytes[start...].starts(with: [0xEF, 0xBB, 0xBF]) {  // U+FEFF
                start += 3
            } else {
                break
            }
        }
        while end > start, bytes[end - 1] <= 0x20 { end -= 1 }
        for i in start..<end {
            switch bytes[i] {
            case 0x00..<0x20, 0x7F: return nil
            case 0xEF where i + 2 < end && bytes[i + 1] == 0xBF && bytes[i + 2] == 0xBD: return nil  // U+FFFD
            default: continue
            }
        }
        return start < end ? start..<end : nil
    }

    /// The lowercased scheme (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`), nil for a relative reference.
    static func scheme(of string: String) -> String? {
        var scheme = ""
        for (index, scalar) in string.unicodeScalars.enumerated() {
            if scalar == ":" { return index == 0 ? nil : scheme.lowercased() }
            let isAlpha = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
            let isOther = ("0"..."9").contains(scalar) || scalar == "+" || scalar == "-" || scalar == "."
            guard isAlpha || (index > 0 && isOther) else { return nil }
            scheme.unicodeScalars.append(scalar)
        }
        return nil
    }

    /// An absolute http(s) URL with a host.
    static func httpURL(_ raw: String) -> URL? {
        guard let string = cleaned(raw), let scheme = scheme(of: string), scheme == "http" || scheme == "https",
            let url = URL(string: string), url.scheme?.lowercased() == scheme,
            let host = url.host, !host.isEmpty
        else { return nil }
        return url
    }

    /// Unwraps search-engine result links, repeatedly (a wrapper may wrap a wrapper).
    static func unwrap(_ url: URL) -> (url: URL, unwrapped: Bool) {
        var current = url
        var unwrapped = false
        for _ in 0..<4 {
            guard let inner = innerImageURL(in: current.absoluteString), inner != current else { break }
            current = inner
            unwrapped = true
        }
        return (current, unwrapped)
    }

    /// The image URL in the query of `reference` (absolute or relative, such as `/imgres?imgurl=...`).
    static func innerImageURL(in reference: String) -> URL? {
        if let scheme = scheme(of: reference), scheme != "http", scheme != "https" { return nil }
        guard let questionMark = reference.firstIndex(of: "?") else { return nil }
        let query = reference[reference.index(after: questionMark)...].prefix { $0 != "#" }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, imageParameters.contains(parts[0].lowercased()) else { continue }
            // Percent-decode once; once more when the result is still encoded and not yet a URL.
            var value = String(parts[1])
            for _ in 0..<2 {
                guard let decoded = value.removingPercentEncoding else { break }
                if let url = httpURL(decoded) { return url }
                value = decoded
            }
        }
        return nil
    }
}

enum DataURI {
    /// A `data:` URI's parts, read without copying its payload.
    struct Parts {
        /// The declared media type, lowercased, without parameters.
        var mediaType: String
        var isBase64: Bool
        /// The payload, still encoded.
        var payload: Substring

        /// Runs `body` over the payload's bytes where they are.
        func withPayload<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
            var payload = payload
            return payload.withUTF8(body)
        }
    }

    /// `data:[<mediatype>][;base64],<data>` with an image media type: its parts.
    static func parts(_ raw: String) -> Parts? {
        guard let uri = URLClassifier.cleaned(raw), URLClassifier.scheme(of: uri) == "data",
            let comma = uri.utf8.firstIndex(of: UInt8(ascii: ","))
        else { return nil }
        let header = uri[uri.index(uri.startIndex, offsetBy: 5)..<comma]
        let parameters = header.split(separator: ";", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let mediaType = parameters.first ?? ""
        let subtype = mediaType.dropFirst("image/".count)
        guard mediaType.hasPrefix("image/"), !subtype.isEmpty,
            subtype.unicodeScalars.allSatisfy({
                $0.isASCII && $0.value > 0x20 && !"/()<>@,;:\\\"[]?={}".unicodeScalars.contains($0)
            })
        else { return nil }
        let isBase64 = parameters.count > 1 && parameters.last == "base64"
        return Parts(mediaType: mediaType, isBase64: isBase64, payload: uri[uri.index(after: comma)...])
    }

    /// The media type and the decoded size of an image `data:` URI, checked whole but decoded only as far as
    /// `ImageFormat.sniff` reads; nil when `decode` would refuse it.
    static func inspect(_ raw: String) -> (mimeType: String, byteCount: Int)? {
        guard let parts = parts(raw), let byteCount = decodedCount(parts), byteCount > 0 else { return nil }
        var head = [UInt8](repeating: 0, count: min(byteCount, ImageFormat.sniffedByteCount))
        head.withUnsafeMutableBufferPointer { write(parts, into: $0) }
        return mimeType(parts, bytes: head).map { ($0, byteCount) }
    }

    /// `data:[<mediatype>][;base64],<data>` with an image media type; see `DropPayload.decodeDataURI`.
    /// Decoded in one pass into one buffer of the right size.
    static func decode(_ raw: String) -> (mimeType: String, data: Data)? {
        guard let parts = parts(raw), let byteCount = decodedCount(parts), byteCount > 0 else { return nil }
        var data = Data(count: byteCount)
        data.withUnsafeMutableBytes { write(parts, into: $0.bindMemory(to: UInt8.self)) }
        return mimeType(parts, bytes: data).map { ($0, data) }
    }

    /// The content's type when recognised, else the declared one: fine for an exotic type, a lie for a known one.
    private static func mimeType(_ parts: Parts, bytes: some Collection<UInt8>) -> String? {
        if let sniffed = ImageFormat.sniff(bytes) { return sniffed.mimeType }
        return ImageFormat.hasKnownSignature(parts.mediaType) ? nil : parts.mediaType
    }

    /// How many bytes the payload decodes to; nil when it is malformed base64 (WHATWG forgiving-base64: ASCII
    /// whitespace ignored, padding optional).
    private static func decodedCount(_ parts: Parts) -> Int? {
        parts.withPayload { decodedCount($0, isBase64: parts.isBase64) }
    }

    private static func decodedCount(_ payload: UnsafeBufferPointer<UInt8>, isBase64: Bool) -> Int? {
        var count = 0
        var iterator = PercentDecoding(payload)
        guard isBase64 else {
            while iterator.next() != nil { count += 1 }
            return count
        }
        var trailingPadding = 0
        while let byte = iterator.next() {
            if isBase64Space(byte) { continue }
            if byte == UInt8(ascii: "=") {
                trailingPadding += 1
            } else {
                guard trailingPadding == 0, base64Value(byte) != nil else { return nil }
            }
            count += 1
        }
        if count % 4 == 0 {
            guard trailingPadding <= 2 else { return nil }
            count -= trailingPadding
        } else if trailingPadding > 0 {
            return nil
        }
        guard count % 4 != 1 else { return nil }
        return count / 4 * 3 + max(count % 4 - 1, 0)
    }

    /// Decodes the payload into `out`, stopping when it is full; the payload must have passed `decodedCount`.
    private static func write(_ parts: Parts, into out: UnsafeMutableBufferPointer<UInt8>) {
        parts.withPayload { write($0, isBase64: parts.isBase64, into: out) }
    }

    private static func write(
        _ payload: UnsafeBufferPointer<UInt8>, isBase64: Bool, into out: UnsafeMutableBufferPointer<UInt8>
    ) {
        var iterator = PercentDecoding(payload)
        var written = 0
        guard isBase64 else {
            while written < out.count, let byte = iterator.next() {
                out[written] = byte
                written += 1
            }
            return
        }
        var buffer: UInt32 = 0
        var bits = 0
        while written < out.count, let byte = iterator.next() {
            guard let value = base64Value(byte) else { continue }  // whitespace; padding comes last
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out[written] = UInt8(truncatingIfNeeded: buffer >> UInt32(bits))
                written += 1
                buffer &= (1 << UInt32(bits)) - 1
            }
        }
    }

    private static func isBase64Space(_ byte: UInt8) -> Bool {
        byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D || byte == 0x20
    }

    private static func base64Value(_ char: UInt8) -> UInt8? {
        switch char {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return char - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return char - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return char - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return nil
        }
    }

    /// The payload's bytes, `%XX` decoded as it is read; a `%` not followed by two hex digits stays as it is
    /// (WHATWG percent-decode).
    private struct PercentDecoding: IteratorProtocol {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func next() -> UInt8? {
            guard index < bytes.count else { return nil }
            let byte = bytes[index]
            index += 1
            guard byte == UInt8(ascii: "%"), index + 1 < bytes.count,
                let high = hexValue(bytes[index]), let low = hexValue(bytes[index + 1])
            else { return byte }
            index += 2
            return high << 4 | low
        }

        private func hexValue(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
    }
}
