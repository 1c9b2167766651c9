import Foundation

/// The short label an image's address gives it (the file's name, or the kind of source), for cells and search.
enum ImageSourceLabel {
    static func label(for url: String) -> String {
        if url.hasPrefix("data:") { return tr("Embedded image") }
        return plainLabel(for: url) ?? parsedLabel(for: url)
    }

    static func parsedLabel(for url: String) -> String {
        guard let components = URLComponents(string: url) else { return url }
        let last = components.percentEncodedPath.split(separator: "/").last.map(String.init) ?? ""
        // Pasted or dropped bytes are kept under their SHA-256: that name means nothing to a person.
        let stem = last.split(separator: ".").first ?? ""
        if stem.count == 64, stem.allSatisfy(\.isHexDigit) { return tr("Imported image") }
        // A decoded name with control characters (%00 cuts a C string short) is shown as it was written.
        if let decoded = last.removingPercentEncoding, !decoded.isEmpty,
            !decoded.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        {
            return decoded
        }
        if !last.isEmpty { return last }
        return components.host ?? url
    }

    /// `parsedLabel` of an address with a scheme and `://`, in printable ASCII without escapes (nearly every
    /// one), read from its bytes: parsing each address with URLComponents was most of building the search index.
    /// Nil for any other address.
    static func plainLabel(for url: String) -> String? {
        var url = url
        return url.withUTF8 { bytes -> String? in
            guard bytes.allSatisfy({ Self.isPlainByte($0) }) else { return nil }
            let end = bytes.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
            guard let colon = bytes[..<end].firstIndex(of: UInt8(ascii: ":")), colon > 0,
                bytes[0..<colon].allSatisfy({ Self.isSchemeByte($0) }), (0x61...0x7A).contains(bytes[0] | 0x20),
                colon + 2 < end, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/")
            else { return nil }
            let authorityEnd = bytes[(colon + 3)..<end].firstIndex(of: UInt8(ascii: "/")) ?? end
            // The last segment that is not empty, as `split` gives it.
            var pathEnd = end
            while pathEnd > authorityEnd, bytes[pathEnd - 1] == UInt8(ascii: "/") { pathEnd -= 1 }
            let lastStart =
                bytes[authorityEnd..<pathEnd].lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? authorityEnd
            let last = bytes[lastStart..<pathEnd]
            guard !last.isEmpty else {
                var host = bytes[(colon + 3)..<authorityEnd]
                if let at = host.lastIndex(of: UInt8(ascii: "@")) { host = host[(at + 1)...] }
                if let port = host.firstIndex(of: UInt8(ascii: ":")) { host = host[..<port] }
                return String(decoding: host, as: UTF8.self)
            }
            let stem = last.drop { $0 == UInt8(ascii: ".") }.prefix { $0 != UInt8(ascii: ".") }
            if stem.count == 64, stem.allSatisfy({ Self.isHexDigit($0) }) { return tr("Imported image") }
            return String(decoding: last, as: UTF8.self)
        }
    }

    /// Printable ASCII but for what URLComponents refuses, and `%` (decoded) and brackets (IPv6) it parses.
    private static func isPlainByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x21...0x7E:
            switch byte {
            case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "}"),
                UInt8(ascii: "|"), UInt8(ascii: "\\"), UInt8(ascii: "^"), UInt8(ascii: "`"), UInt8(ascii: "%"),
                UInt8(ascii: "["), UInt8(ascii: "]"):
                false
            default: true
            }
        default: false
        }
    }

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        (0x61...0x7A).contains(byte | 0x20) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte | 0x20)
    }
}
