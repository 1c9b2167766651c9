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
            guard DataURI.decode(string) != nil else { return nil }
            return Result(source: .dataURI(string), unwrapped: false)
        default:
            return nil  // javascript:, about:, ftp:, blob:, chrome:, mailto: ...
        }
    }

    /// Trimmed of surrounding whitespace and controls, tabs and newlines removed (as the WHATWG URL parser
    /// does); nil when empty or when other control characters or U+FFFD (a decoding error) remain.
    static func cleaned(_ raw: String) -> String? {
        let bytes = Array(raw.utf8)
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
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        var i = start
        while i < end {
            let byte = bytes[i]
            switch byte {
            case 0x09, 0x0A, 0x0D: break
            case 0x00..<0x20, 0x7F: return nil
            case 0xEF where i + 2 < end && bytes[i + 1] == 0xBF && bytes[i + 2] == 0xBD: return nil  // U+FFFD
            default: out.append(byte)
            }
            i += 1
        }
        return out.isEmpty ? nil : String(decoding: out, as: UTF8.self)
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
    /// `data:[<mediatype>][;base64],<data>` with an image media type; see `DropPayload.decodeDataURI`.
    static func decode(_ raw: String) -> (mimeType: String, data: Data)? {
        guard let uri = URLClassifier.cleaned(raw), URLClassifier.scheme(of: uri) == "data",
            let comma = uri.firstIndex(of: ",")
        else { return nil }
        let header = uri[uri.index(uri.startIndex, offsetBy: 5)..<comma]
        let parameters = header.split(separator: ";", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let mediaType = parameters.first ?? ""
        let isBase64 = parameters.count > 1 && parameters.last == "base64"
        let subtype = mediaType.dropFirst("image/".count)
        guard mediaType.hasPrefix("image/"), !subtype.isEmpty,
            subtype.unicodeScalars.allSatisfy({
                $0.isASCII && $0.value > 0x20 && !"/()<>@,;:\\\"[]?={}".unicodeScalars.contains($0)
            })
        else { return nil }

        let payload = percentDecoded(Array(uri[uri.index(after: comma)...].utf8))
        guard let bytes = isBase64 ? forgivingBase64(payload) : payload, !bytes.isEmpty else { return nil }
        if let sniffed = ImageFormat.sniff(bytes) { return (sniffed.mimeType, Data(bytes)) }
        // Content that is none of the formats recognised here: fine for an exotic type, a lie for a known one.
        guard !ImageFormat.hasKnownSignature(mediaType) else { return nil }
        return (mediaType, Data(bytes))
    }

    /// `%XX` → byte; a `%` not followed by two hex digits stays as it is (WHATWG percent-decode).
    static func percentDecoded(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(UInt8(ascii: "%")) else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count,
                let high = hexValue(bytes[i + 1]), let low = hexValue(bytes[i + 2])
            {
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// WHATWG forgiving-base64 decode: ASCII whitespace ignored, padding optional; nil when malformed.
    static func forgivingBase64(_ input: [UInt8]) -> [UInt8]? {
        var chars = input.filter { ![0x09, 0x0A, 0x0C, 0x0D, 0x20].contains($0) }
        if chars.count % 4 == 0 {
            if chars.last == UInt8(ascii: "=") { chars.removeLast() }
            if chars.last == UInt8(ascii: "=") { chars.removeLast() }
        }
        guard chars.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for char in chars {
            let value: UInt8
            switch char {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = char - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = char - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = char - UInt8(ascii: "0") + 52
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
            default: return nil
            }
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
                buffer &= (1 << UInt32(bits)) - 1
            }
        }
        return out
    }
}
