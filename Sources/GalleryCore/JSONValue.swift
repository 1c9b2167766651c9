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

    /// A key of any name: one container reads the declared fields and the others (one container
    /// per object keeps loading 10,000 images cheap).
    struct FieldKey: CodingKey, ExpressibleByStringLiteral {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init(stringLiteral value: String) { stringValue = value }
        init?(intValue: Int) { nil }
    }

    /// The fields of `container` whose names are not among `known`.
    static func unknownFields(in container: KeyedDecodingContainer<FieldKey>, known: Set<String>) throws -> [String:
        JSONValue]
    {
        var fields: [String: JSONValue] = [:]
        for key in container.allKeys where !known.contains(key.stringValue) {
            fields[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
        }
        return fields
    }

    /// Writes `fields` beside the ones the encoder's owner declares.
    static func encode(_ fields: [String: JSONValue], to encoder: Encoder) throws {
        guard !fields.isEmpty else { return }
        var container = encoder.container(keyedBy: FieldKey.self)
        for (name, value) in fields { try container.encode(value, forKey: FieldKey(stringValue: name)) }
    }
}
