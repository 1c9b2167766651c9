/// Reads JSON (RFC 8259) from bytes, one value at a time, for the state file: numbers come as the
/// text they are written in, so none is rounded, and none (`1e400`) is refused for being too big.
/// The caller walks the document it expects; what it does not expect it keeps as raw text (`readUnknown`), within
/// a budget for the whole read, or reads as a `JSONValue`.
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
    /// How many more bytes of text `readUnknown` may keep, and how many values it dropped for want of them.
    private var unknownBudget: Int
    private(set) var droppedUnknownValues = 0

    /// Reads `data` with `body`, which must read exactly one value; anything after it but
    /// white space is refused.
    static func read<Result>(
        _ data: [UInt8], unknownBudget: Int = .max, _ body: (inout JSONReader) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let outcome: Swift.Result<Result, Failure> = data.withUnsafeBufferPointer { buffer in
            Swift.Result { () throws(Failure) in try read(buffer, unknownBudget: unknownBudget, body) }
        }
        return try outcome.get()
    }

    /// Reads `buffer` as `read(_:unknownBudget:_:)` reads an array, without a copy of it.
    static func read<Result>(
        _ buffer: UnsafeBufferPointer<UInt8>, unknownBudget: Int = .max,
        _ body: (inout JSONReader) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var reader = JSONReader(bytes: buffer, unknownBudget: unknownBudget)
        // A byte order mark some editors write.
        if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { reader.offset = 3 }
        let value = try body(&reader)
        reader.skipWhiteSpace()
        guard reader.offset == buffer.count else { throw reader.failure }
        return value
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, unknownBudget: Int) {
        self.bytes = bytes
        self.unknownBudget = unknownBudget
    }

    /// Where the reader stands, to come back to (`rewind`) when a value turns out to be of another shape.
    struct Mark {
        fileprivate let offset: Int
        fileprivate let depth: Int
        fileprivate let unknownBudget: Int
        fileprivate let droppedUnknownValues: Int
    }

    var mark: Mark {
        Mark(offset: offset, depth: depth, unknownBudget: unknownBudget, droppedUnknownValues: droppedUnknownValues)
    }

    /// How many bytes the reader has moved past since `mark`.
    func offset(since mark: Mark) -> Int { offset - mark.offset }

    mutating func rewind(to mark: Mark) {
        offset = mark.offset
        depth = mark.depth
        unknownBudget = mark.unknownBudget
        droppedUnknownValues = mark.droppedUnknownValues
    }

    /// Whether the next value starts with `byte` (`"` a string, `{` an object, `[` an array).
    mutating func nextIs(_ byte: UInt8) -> Bool { peek() == byte }

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
        try readFields { reader, name throws(Failure) in try field(&reader, name.text) }
    }

    /// Calls `field` with each name of an object, as it stands in the bytes (`Name`); `field` reads the value.
    /// The state file's readers: a name without escapes is matched without making a `String` of it.
    mutating func readFields(_ field: (inout JSONReader, Name) throws(Failure) -> Void) throws(Failure) {
        try expect(UInt8(ascii: "{"))
        try enter()
        if peek() == UInt8(ascii: "}") {
            offset += 1
            depth -= 1
            return
        }
        while true {
            let name = try readName()
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

    /// The value as `read` finds it; when `read` finds another shape (nil), nil, and the value kept as read under
    /// `name` in `fields`, so that a newer version's shape of a known field survives this version's writes.
    mutating func readKnown<Value>(
        _ name: String, keepingOtherShapesIn fields: inout [String: RawJSON],
        _ read: (inout JSONReader) throws(Failure) -> Value?
    ) throws(Failure) -> Value? {
        let start = mark
        if let value = try read(&self) { return value }
        rewind(to: start)
        fields[name] = try readUnknown()
        return nil
    }

    /// A value's text, kept while the budget the read started with lasts; past it, the value is checked and
    /// passed over, and nil.
    mutating func readUnknown() throws(Failure) -> RawJSON? {
        skipWhiteSpace()
        let start = offset
        try skipValue()
        guard offset - start <= unknownBudget else {
            droppedUnknownValues += 1
            return nil
        }
        unknownBudget -= offset - start
        return RawJSON(read: Array(bytes[start..<offset]))
    }

    /// A value's text whatever the budget: for values whose size the caller bounds (a journal's record).
    mutating func readRaw() throws(Failure) -> RawJSON {
        skipWhiteSpace()
        let start = offset
        try skipValue()
        return RawJSON(read: Array(bytes[start..<offset]))
    }

    /// Moves past one value, checked as `readValue` checks it, keeping nothing: nested arrays and objects are
    /// counted in a loop, not called, so a value costs no memory and no stack whatever it holds.
    mutating func skipValue() throws(Failure) {
        switch peek() {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            // One bit a level: set for an object, clear for an array.
            try withUnsafeTemporaryAllocation(of: UInt64.self, capacity: (Self.maximumDepth + 63) / 64) {
                (objects) throws(Failure) in
                objects.initialize(repeating: 0)
                try skipContainers(objects)
            }
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "t"): try expectWord("true")
        case UInt8(ascii: "f"): try expectWord("false")
        case UInt8(ascii: "n"): try expectWord("null")
        default: _ = try skipNumber()
        }
    }

    /// `skipValue` for an array or an object, `objects` its bits for the levels it opens.
    private mutating func skipContainers(_ objects: UnsafeMutableBufferPointer<UInt64>) throws(Failure) {
        let outerDepth = depth
        while true {
            switch peek() {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let object = bytes[offset] == UInt8(ascii: "{")
                offset += 1
                try enter()
                let level = depth - outerDepth - 1
                let bit: UInt64 = 1 << UInt64(level & 63)
                objects[level >> 6] = object ? objects[level >> 6] | bit : objects[level >> 6] & ~bit
                if peek() == (object ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    offset += 1
                    depth -= 1
                } else {
                    if object { try skipName() }
                    continue
                }
            case UInt8(ascii: "\""): try skipString()
            case UInt8(ascii: "t"): try expectWord("true")
            case UInt8(ascii: "f"): try expectWord("false")
            case UInt8(ascii: "n"): try expectWord("null")
            default: _ = try skipNumber()
            }
            // After a value: the next element, or the end of as many containers as close here.
            while depth > outerDepth {
                let level = depth - outerDepth - 1
                let object = objects[level >> 6] & (1 << UInt64(level & 63)) != 0
                switch peek() {
                case UInt8(ascii: ","):
                    offset += 1
                    if object { try skipName() }
                case object ? UInt8(ascii: "}") : UInt8(ascii: "]"):
                    offset += 1
                    depth -= 1
                    continue
                default: throw failure
                }
                break
            }
            if depth == outerDepth { return }
        }
    }

    /// Moves past a field's name and the colon after it (`skipValue`).
    private mutating func skipName() throws(Failure) {
        try skipString()
        try expect(UInt8(ascii: ":"))
    }

    /// Moves past a string, checked as `readString` checks it.
    private mutating func skipString() throws(Failure) {
        try expect(UInt8(ascii: "\""))
        while try !skipPlainText() {
            offset += 1  // the backslash
            guard offset < bytes.count else { throw failure }
            let byte = bytes[offset]
            offset += 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                break
            case UInt8(ascii: "u"): _ = try readHex4()
            default: throw Failure(offset: offset - 1)
            }
        }
    }

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

    /// A number as a `Double`, nil when its text is none (`Double(readNumber())` without making the text,
    /// for the plain decimals the state file is made of).
    mutating func readDouble() throws(Failure) -> Double? {
        let text = try skipNumber()
        return Self.plainDecimal(text) ?? Double(String(decoding: UnsafeBufferPointer(rebasing: text), as: UTF8.self))
    }

    /// The value of `-?[0-9]+(.[0-9]+)?` with at most 15 digits, exactly as `Double(_:)` rounds it: the digits
    /// as a whole number are exact in a `Double` (below 2⁵³), and so is the power of ten that divides them
    /// (up to 10²²), and one division rounds correctly. Nil for any other text (an exponent, more digits).
    private static func plainDecimal(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Double? {
        var index = text.startIndex
        let negative = index < text.endIndex && text[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var digits: UInt64 = 0
        var digitCount = 0
        var fractionDigits = 0
        var inFraction = false
        while index < text.endIndex {
            let byte = text[index]
            if byte == UInt8(ascii: ".") && !inFraction {
                inFraction = true
            } else {
                let digit = byte &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                digits = digits &* 10 &+ UInt64(digit)
                digitCount += 1
                if inFraction { fractionDigits += 1 }
            }
            index += 1
        }
        guard digitCount > 0, digitCount <= 15 else { return nil }
        let value = Double(digits) / powersOfTen[fractionDigits]
        return negative ? -value : value
    }

    private static let powersOfTen: [Double] = (0...15).map { exponent in
        (0..<exponent).reduce(1.0) { power, _ in power * 10 }
    }

    mutating func readBool() throws(Failure) -> Bool {
        guard case .bool(let value) = try readValue() else { throw failure }
        return value
    }

    /// A number's text, checked against JSON's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func readNumber() throws(Failure) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: try skipNumber()), as: UTF8.self)
    }

    /// A number's text when it is at most `maxBytes` long; nil for a longer one, passed over without a copy.
    mutating func readNumber(atMost maxBytes: Int) throws(Failure) -> String? {
        let text = try skipNumber()
        guard text.count <= maxBytes else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: text), as: UTF8.self)
    }

    /// A whole number of at most `maximum` (at most sixteen digits), read without making a text of it; nil for any
    /// other number (a fraction, an exponent, a sign, a larger one), passed over.
    mutating func readWholeNumber(atMost maximum: UInt64) throws(Failure) -> UInt64? {
        let text = try skipNumber()
        guard text.count <= 16 else { return nil }
        var value: UInt64 = 0
        for byte in text {
            guard isDigit(byte) else { return nil }
            value = value * 10 + UInt64(byte &- UInt8(ascii: "0"))
        }
        return value <= maximum ? value : nil
    }

    /// Moves past a number checked as `readNumber` checks it; its text.
    private mutating func skipNumber() throws(Failure) -> Slice<UnsafeBufferPointer<UInt8>> {
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
        return bytes[start..<offset]
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    private mutating func skipDigits() {
        while offset < bytes.count && isDigit(bytes[offset]) { offset += 1 }
    }

    /// A string, its escapes resolved; bytes that are not UTF-8 and lone surrogates become U+FFFD.
    mutating func readString() throws(Failure) -> String {
        try expect(UInt8(ascii: "\""))
        let start = offset
        if try skipPlainText() {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset - 1]), as: UTF8.self)
        }
        return try readEscapedString(from: start)
    }

    /// A field's name: the bytes between its quotes when it has no escapes, else its text.
    mutating func readName() throws(Failure) -> Name {
        try expect(UInt8(ascii: "\""))
        let start = offset
        if try skipPlainText() { return Name(plain: UnsafeBufferPointer(rebasing: bytes[start..<offset - 1])) }
        return Name(text: try readEscapedString(from: start))
    }

    /// Moves past a string's text and its closing quote and returns true when the text has no escape; stops at
    /// the first backslash (false) otherwise. Eight bytes at a time: a launch reads every image's address.
    private mutating func skipPlainText() throws(Failure) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        if let base = bytes.baseAddress {
            while offset + 8 <= bytes.count {
                let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
                let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
                let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
                // Not zero when a byte is below 0x20, or is a quote or a backslash (its XOR is zero).
                let below20 = (word &- ones &* 0x20) & ~word
                let special = (below20 | (quote &- ones) & ~quote | (backslash &- ones) & ~backslash) & highs
                if special != 0 { break }
                offset += 8
            }
        }
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                offset += 1
                return true
            }
            if byte == UInt8(ascii: "\\") { return false }
            guard byte >= 0x20 else { throw failure }
            offset += 1
        }
        throw failure
    }

    /// The rest of a string from its first backslash at `offset`, the text from `start` before it.
    private mutating func readEscapedString(from start: Int) throws(Failure) -> String {
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
            guard let digit = HexDigit.value(of: byte) else { throw failure }
            value = value << 4 | UInt16(digit)
        }
        offset += 4
        return value
    }
}

extension JSONReader {
    /// An object's field name, as `readFields` hands it: valid only inside the call that read it (it may point
    /// into the bytes being read).
    struct Name {
        private let plain: UnsafeBufferPointer<UInt8>?
        private let escaped: String?

        fileprivate init(plain: UnsafeBufferPointer<UInt8>) {
            self.plain = plain
            escaped = nil
        }

        /// A name known as text: the journal's, whose values are read without the object around them.
        init(text: String) {
            plain = nil
            escaped = text
        }

        var text: String { escaped ?? String(decoding: plain!, as: UTF8.self) }

        /// Whether it is `text`, compared without making a `String` of it.
        func isText(_ text: String) -> Bool {
            guard let plain else { return escaped == text }
            return text.utf8.withContiguousStorageIfAvailable { plain.elementsEqual($0) }
                ?? text.utf8.elementsEqual(plain)
        }

        /// `case "id":` in a switch over names.
        static func ~= (pattern: StaticString, name: Name) -> Bool {
            let expected = UnsafeBufferPointer(start: pattern.utf8Start, count: pattern.utf8CodeUnitCount)
            guard let plain = name.plain else { return name.escaped!.utf8.elementsEqual(expected) }
            guard plain.count == expected.count else { return false }
            for index in 0..<plain.count where plain[index] != expected[index] { return false }
            return true
        }
    }
}
