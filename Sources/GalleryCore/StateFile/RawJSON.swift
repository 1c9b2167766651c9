/// A JSON value this version does not know, kept as the text it was read in (a copy of its bytes, never a
/// tree): it goes back into the file unchanged, and costs what its text costs. Two are equal when their texts
/// are, white space between tokens aside, so a value re-indented elsewhere is still the same value.
public struct RawJSON: Hashable, Sendable, CustomStringConvertible {
    private enum Text: Hashable, Sendable {
        /// The value's bytes as they stood in the file.
        case read([UInt8])
        /// A value this version made (a lineage, a test's): written as the writer lays it out where it goes.
        case made(JSONValue)
    }

    private let text: Text

    /// `bytes` must be exactly one JSON value (`JSONReader.readUnknown` checked it).
    init(read bytes: [UInt8]) { text = .read(bytes) }

    public init(_ value: JSONValue) { text = .made(value) }

    /// The value's text: as read, or as the writer writes a made one.
    var bytes: [UInt8] {
        switch text {
        case .read(let bytes): bytes
        case .made(let value):
            {
                var writer = JSONWriter()
                writer.value(value)
                return writer.bytes
            }()
        }
    }

    /// The value as a tree, for the few fields this version reads from here (`Lineage`); nil when it nests
    /// too deep for `JSONReader`.
    var value: JSONValue? {
        switch text {
        case .made(let value): value
        case .read(let bytes):
            try? JSONReader.read(bytes) { (reader) throws(JSONReader.Failure) in try reader.readValue() }
        }
    }

    /// Writes the value into `writer`: read text as it was, a made value laid out at the writer's depth.
    func write(to writer: inout JSONWriter) {
        switch text {
        case .read(let bytes): writer.raw(bytes[...])
        case .made(let value): writer.value(value)
        }
    }

    public var description: String { String(decoding: bytes, as: UTF8.self) }

    /// The same value without white space between its tokens: one line, as the library's journal writes it.
    var compacted: RawJSON {
        let bytes = bytes
        // Text with no white space anywhere is compact already (most is: the journal writes it so).
        guard bytes.contains(where: Self.isWhiteSpace) else { return RawJSON(read: bytes) }
        return RawJSON(read: Self.compact(bytes))
    }

    private static func isWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// JSON text without white space between its tokens.
    static func compact(_ text: [UInt8]) -> [UInt8] {
        var tokens = TokenBytes(text)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        while let byte = tokens.next() { bytes.append(byte) }
        return bytes
    }

    public static func == (left: RawJSON, right: RawJSON) -> Bool {
        let (leftBytes, rightBytes) = (left.bytes, right.bytes)
        if leftBytes == rightBytes { return true }
        var leftTokens = TokenBytes(leftBytes)
        var rightTokens = TokenBytes(rightBytes)
        while true {
            let byte = leftTokens.next()
            guard byte == rightTokens.next() else { return false }
            if byte == nil { return true }
        }
    }

    public func hash(into hasher: inout Hasher) {
        var tokens = TokenBytes(bytes)
        while let byte = tokens.next() { hasher.combine(byte) }
    }

    /// A JSON text's bytes without the white space between its tokens (what `==` compares).
    private struct TokenBytes: IteratorProtocol {
        private let bytes: [UInt8]
        private var index = 0
        private var inString = false
        private var escaped = false

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func next() -> UInt8? {
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        escaped = true
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                    }
                    return byte
                }
                switch byte {
                case 0x20, 0x0A, 0x0D, 0x09: continue
                case UInt8(ascii: "\""): inString = true
                default: break
                }
                return byte
            }
            return nil
        }
    }
}
