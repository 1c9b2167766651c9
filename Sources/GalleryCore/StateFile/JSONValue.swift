/// Any JSON value as a tree: what this version reads of the few fields it parses whole (smart galleries, a
/// lineage) and writes; what it does not know stays text (`RawJSON`).
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    /// The number's text as written (`12345678901234567890`, `1e400`, `-0`): written back exactly,
    /// whatever a `Double` would make of it.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}

extension JSONValue {
    /// The field `name` of an object; nil for anything else, or when it has none.
    public subscript(name: String) -> JSONValue? {
        if case .object(let fields) = self { fields[name] } else { nil }
    }

    public var string: String? {
        if case .string(let text) = self { text } else { nil }
    }

    public var bool: Bool? {
        if case .bool(let flag) = self { flag } else { nil }
    }

    public var double: Double? {
        if case .number(let text) = self { Double(text) } else { nil }
    }

    /// A number that is a whole one (`3`, `3.0`); nil for `3.5` or one no `Int` holds.
    public var integer: Int? {
        guard case .number(let text) = self else { return nil }
        return Int(text) ?? Double(text).flatMap { Int(exactly: $0) }
    }

    public var array: [JSONValue]? {
        if case .array(let elements) = self { elements } else { nil }
    }

    public var object: [String: JSONValue]? {
        if case .object(let fields) = self { fields } else { nil }
    }

    /// `number` as the writer writes a `Double`: the shortest text that reads back as it.
    public static func number(_ number: Double) -> JSONValue {
        var writer = JSONWriter()
        writer.double(number)
        return .number(String(decoding: writer.bytes, as: UTF8.self))
    }

    public static func number(_ number: Int) -> JSONValue { .number(String(number)) }
}
