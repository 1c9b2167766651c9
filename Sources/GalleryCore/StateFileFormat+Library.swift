/// The library's fields of an image in the state file, `original` and `origin`, as JSON objects. A field
/// of the wrong shape is not the library's: the caller keeps it as read, among the unknown fields.
extension KeptOriginal {
    init?(json: JSONValue) {
        guard case .object(var fields) = json,
            case .string(let sha256)? = fields.removeValue(forKey: "sha256"), Self.isValidName(sha256),
            case .number(let bytes)? = fields.removeValue(forKey: "bytes"), let byteCount = Int(bytes)
        else { return nil }
        let width = fields["width"]?.integer
        let height = fields["height"]?.integer
        var format: String?
        if case .string(let name)? = fields["format"] { format = name }
        for (name, known) in [("width", width != nil), ("height", height != nil), ("format", format != nil)]
        where known {
            fields[name] = nil
        }
        self.init(
            sha256: sha256, byteCount: byteCount, pixelWidth: width ?? 0, pixelHeight: height ?? 0, format: format)
        unknownFields = fields
    }

    var json: JSONValue {
        var fields = unknownFields
        fields["sha256"] = .string(sha256)
        fields["bytes"] = .number(String(byteCount))
        fields["width"] = .number(String(pixelWidth))
        fields["height"] = .number(String(pixelHeight))
        if let format { fields["format"] = .string(format) }
        return .object(fields)
    }
}

extension ImageOrigin {
    /// The JSON name of each text field, with its key path.
    private static var texts: [(String, WritableKeyPath<ImageOrigin, String?>)] {
        [
            ("added", \.added), ("link", \.link), ("page", \.page), ("alt", \.altText), ("title", \.title),
            ("description", \.browserDescription),
        ]
    }

    init?(json: JSONValue) {
        guard case .object(var fields) = json else { return nil }
        self.init()
        if case .string(let name)? = fields["arrival"], let arrival = Arrival(rawValue: name) {
            self.arrival = arrival
            fields["arrival"] = nil
        }
        for (name, path) in Self.texts {
            if case .string(let text)? = fields[name] {
                self[keyPath: path] = text
                fields[name] = nil
            }
        }
        unknownFields = fields
    }

    var json: JSONValue {
        var fields = unknownFields
        if let arrival { fields["arrival"] = .string(arrival.rawValue) }
        for (name, path) in Self.texts {
            if let text = self[keyPath: path] { fields[name] = .string(text) }
        }
        return .object(fields)
    }
}

extension JSONValue {
    /// A whole number that fits an `Int`.
    fileprivate var integer: Int? {
        guard case .number(let text) = self else { return nil }
        return Int(text)
    }
}
