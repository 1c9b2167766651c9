/// Writes JSON laid out as Foundation's `JSONEncoder` does with `.prettyPrinted, .sortedKeys,
/// .withoutEscapingSlashes` (two spaces a level, `"name" : value`), so a file it wrote reads the
/// same, and numbers as the text they were read in.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    private var depth = 0
    /// Whether the innermost open array or object has no element yet.
    private var empty = true
    /// Whether to write no white space at all: one line, as the library's journal writes its records.
    private let compact: Bool

    init(reservingCapacity capacity: Int = 0, compact: Bool = false) {
        bytes.reserveCapacity(capacity)
        self.compact = compact
    }

    // MARK: Containers

    /// An object whose fields `body` writes, each with `field` then its value.
    mutating func object(_ body: (inout JSONWriter) -> Void) {
        container(open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), body)
    }

    /// An array whose elements `body` writes, each with `element` then its value.
    mutating func array(_ body: (inout JSONWriter) -> Void) {
        container(open: UInt8(ascii: "["), close: UInt8(ascii: "]"), body)
    }

    private mutating func container(open: UInt8, close: UInt8, _ body: (inout JSONWriter) -> Void) {
        bytes.append(open)
        let outerEmpty = empty
        empty = true
        depth += 1
        body(&self)
        depth -= 1
        // An empty one spans a blank line, as Foundation writes it.
        if empty && !compact { bytes.append(0x0A) }
        newLine()
        bytes.append(close)
        empty = outerEmpty
    }

    /// Starts a field of the object being written.
    mutating func field(_ name: String) {
        element()
        string(name)
        if compact {
            bytes.append(UInt8(ascii: ":"))
        } else {
            bytes.append(contentsOf: [0x20, UInt8(ascii: ":"), 0x20])
        }
    }

    /// Starts an element of the array being written.
    mutating func element() {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        empty = false
        newLine()
    }

    private mutating func newLine() {
        guard !compact else { return }
        bytes.append(0x0A)
        for _ in 0..<depth { bytes.append(contentsOf: [0x20, 0x20]) }
    }

    // MARK: Values

    mutating func value(_ value: JSONValue) {
        switch value {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let flag): bool(flag)
        case .number(let text): bytes.append(contentsOf: text.utf8)
        case .string(let text): string(text)
        case .array(let elements):
            array { writer in
                for element in elements {
                    writer.element()
                    writer.value(element)
                }
            }
        case .object(let fields):
            object { writer in
                for name in fields.keys.sorted() {
                    writer.field(name)
                    writer.value(fields[name]!)
                }
            }
        }
    }

    /// A value kept as read, as it was read (without its white space, when compact).
    mutating func value(_ raw: RawJSON) {
        if compact { bytes.append(contentsOf: RawJSON.compact(raw.bytes)) } else { raw.write(to: &self) }
    }

    /// An object of the `known` fields and of the `unknown` ones whose names `known` does not take, by name.
    mutating func object(known: [String: JSONValue], unknown: [String: RawJSON]) {
        object { writer in
            for name in Set(known.keys).union(unknown.keys).sorted() {
                writer.field(name)
                if let value = known[name] { writer.value(value) } else { writer.value(unknown[name]!) }
            }
        }
    }

    /// Text this writer wrote before at the same depth, as it was.
    mutating func raw(_ text: ArraySlice<UInt8>) { bytes.append(contentsOf: text) }

    mutating func bool(_ flag: Bool) { bytes.append(contentsOf: (flag ? "true" : "false").utf8) }

    mutating func integer(_ number: Int) { bytes.append(contentsOf: String(number).utf8) }

    /// The shortest text that reads back as `number` ("1.5", "2", "1e-07"); JSON has no infinity
    /// or NaN, so those are written as 0, which readers of the state take as "not known".
    mutating func double(_ number: Double) {
        guard number.isFinite else { return bytes.append(UInt8(ascii: "0")) }
        var text = number.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    /// A string, with `"`, `\` and control characters escaped, and nothing else.
    mutating func string(_ text: some StringProtocol) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x08: bytes.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case ..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [
                    0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 15)],
                ])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
