/// Reads JSON (RFC 8259) from bytes, one value at a time, for the state file: numbers come as the
/// text they are written in, so none is rounded, and none (`1e400`) is refused for being too big.
/// The caller walks the document it expects; what it does not expect it reads as a `JSONValue`.
struct JSONReader {
    struct Failure: Error, Equatable {
        /// Where in the bytes it went wrong.
        let offset: Int
    }

    /// Arrays and objects inside each other deeper than this are refused: each level is a call.
    static let maximumDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var offset = 0
    private var depth = 0

    /// Reads `data` with `body`, which must read exactly one value; anything after it but
    /// white space is refused.
    static func read<Result>(_ data: [UInt8], _ body: (inout JSONReader) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        let outcome: Swift.Result<Result, Failure> = data.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(bytes: buffer)
            // A byte order mark some editors write.
            if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { reader.offset = 3 }
            do throws(Failure) {
                let value = try body(&reader)
                reader.skipWhiteSpace()
                guard reader.offset == buffer.count else { throw reader.failure }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    private var failure: Failure { Failure(offset: offset) }

    /// The next byte that is not white space, not taken; nil at the end.
    private mutating func peek() -> UInt8? {
        skipWhiteSpace()
        return offset < bytes.count ? bytes[offset] : nil
    }

    private mutating func skipWhiteSpace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x0A, 0x0D, 0x09: offset += 1
            default: return
            }
        }
    }

    private mutating func expect(_ byte: UInt8) throws(Failure) {
        guard peek() == byte else { throw failure }
        offset += 1
    }

    /// Whether the next value is `null`, which is then taken.
    mutating func takeNull() throws(Failure) -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        try expectWord("null")
        return true
    }

    private mutating func expectWord(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard offset + count <= bytes.count,
            UnsafeBufferPointer(start: word.utf8Start, count: count).elementsEqual(bytes[offset..<offset + count])
        else { throw failure }
        offset += count
    }

    // MARK: Containers

    /// Calls `field` with each name of an object; `field` reads the value.
    mutating func readObject(_ field: (inout JSONReader, String) throws(Failure) -> Void) throws(Failure) {
        try expect(UInt8(ascii: "{"))
        try enter()
        if peek() == UInt8(ascii: "}") {
            offset += 1
            depth -= 1
            return
        }
        while true {
            let name = try readString()
            try expect(UInt8(ascii: ":"))
            try field(&self, name)
            switch peek() {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "}"):
                offset += 1
                depth -= 1
                return
            default: throw failure
            }
        }
    }

    /// Calls `element` for each element of an array; `element` reads it.
    mutating func readArray(_ element: (inout JSONReader) throws(Failure) -> Void) throws(Failure) {
        try expect(UInt8(ascii: "["))
        try enter()
        if peek() == UInt8(ascii: "]") {
            offset += 1
            depth -= 1
            return
        }
        while true {
            try element(&self)
            switch peek() {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "]"):
                offset += 1
                depth -= 1
                return
            default: throw failure
            }
        }
    }

    private mutating func enter() throws(Failure) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure }
    }

    // MARK: Values

    /// Any value, as it is.
    mutating func readValue() throws(Failure) -> JSONValue {
        switch peek() {
        case UInt8(ascii: "{"):
            var fields: [String: JSONValue] = [:]
            try readObject { (reader, name) throws(Failure) in fields[name] = try reader.readValue() }
            return .object(fields)
        case UInt8(ascii: "["):
            var elements: [JSONValue] = []
            try readArray { (reader) throws(Failure) in elements.append(try reader.readValue()) }
            return .array(elements)
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"):
            try expectWord("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectWord("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectWord("null")
            return .null
        default: return .number(try readNumber())
        }
    }

    mutating func readBool() throws(Failure) -> Bool {
        guard case .bool(let value) = try readValue() else { throw failure }
        return value
    }

    /// A number's text, checked against JSON's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func readNumber() throws(Failure) -> String {
        skipWhiteSpace()
        let start = offset
        if offset < bytes.count && bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        guard offset < bytes.count, isDigit(bytes[offset]) else { throw failure }
        if bytes[offset] == UInt8(ascii: "0") {
            offset += 1
        } else {
            skipDigits()
        }
        if offset < bytes.count && bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            guard offset < bytes.count, isDigit(bytes[offset]) else { throw failure }
            skipDigits()
        }
        if offset < bytes.count && (bytes[offset] | 0x20) == UInt8(ascii: "e") {
            offset += 1
            if offset < bytes.count && (bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-")) {
                offset += 1
            }
            guard offset < bytes.count, isDigit(bytes[offset]) else { throw failure }
            skipDigits()
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    private mutating func skipDigits() {
        while offset < bytes.count && isDigit(bytes[offset]) { offset += 1 }
    }

    /// A string, its escapes resolved; bytes that are not UTF-8 and lone surrogates become U+FFFD.
    mutating func readString() throws(Failure) -> String {
        try expect(UInt8(ascii: "\""))
        let start = offset
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                defer { offset += 1 }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw failure }
            offset += 1
        }
        // Escapes: the text so far, then each piece as it comes.
        var utf8 = Array(bytes[start..<offset])
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            switch byte {
            case UInt8(ascii: "\""): return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"): try readEscape(into: &utf8)
            case ..<0x20: throw Failure(offset: offset - 1)
            default: utf8.append(byte)
            }
        }
        throw failure
    }

    private mutating func readEscape(into utf8: inout [UInt8]) throws(Failure) {
        guard offset < bytes.count else { throw failure }
        let byte = bytes[offset]
        offset += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = UInt32(try readHex4())
            if (0xD800..<0xDC00).contains(scalar), bytes[offset...].starts(with: [0x5C, 0x75]) {
                let resume = offset
                offset += 2
                let low = UInt32(try readHex4())
                if (0xDC00..<0xE000).contains(low) {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    offset = resume  // not its pair: read on its own next
                }
            }
            utf8.append(contentsOf: String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
        default: throw Failure(offset: offset - 1)
        }
    }

    private mutating func readHex4() throws(Failure) -> UInt16 {
        guard offset + 4 <= bytes.count else { throw failure }
        var value: UInt16 = 0
        for byte in bytes[offset..<offset + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure
            }
            value = value << 4 | UInt16(digit)
        }
        offset += 4
        return value
    }
}
