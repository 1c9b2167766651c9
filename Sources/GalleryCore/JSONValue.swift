/// Any JSON value, kept as read: what the state file holds that this version does not understand
/// goes back into the file unchanged.
public enum JSONValue: Hashable, Sendable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// A key of any name, for the fields a type does not declare.
    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The fields of the object being decoded whose names are not among `known`.
    static func unknownFields<Key: CodingKey>(in decoder: Decoder, known: [Key]) throws -> [String: JSONValue] {
        let container = try decoder.container(keyedBy: AnyKey.self)
        let knownNames = Set(known.map(\.stringValue))
        var fields: [String: JSONValue] = [:]
        for key in container.allKeys where !knownNames.contains(key.stringValue) {
            fields[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
        }
        return fields
    }

    /// Writes `fields` beside the ones the encoder's owner declares.
    static func encode(_ fields: [String: JSONValue], to encoder: Encoder) throws {
        guard !fields.isEmpty else { return }
        var container = encoder.container(keyedBy: AnyKey.self)
        for (name, value) in fields { try container.encode(value, forKey: AnyKey(stringValue: name)) }
    }
}
