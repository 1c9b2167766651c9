/// The library's fields of an image in the state file, `original` and `origin`, as JSON objects read in place.
/// A field of the wrong shape is not the library's: the caller keeps it as read, among the unknown fields.
extension KeptOriginal {
    /// Nil when the value is of another shape (the reader is then anywhere inside it: the caller rewinds).
    static func read(_ reader: inout JSONReader) throws(JSONReader.Failure) -> KeptOriginal? {
        guard reader.nextIs(UInt8(ascii: "{")) else { return nil }
        var sha256: String?
        var byteCount: Int?
        var width: Int?
        var height: Int?
        var format: String?
        var unknownFields: [String: RawJSON] = [:]
        var otherShape = false
        try reader.readFields { (reader, name) throws(JSONReader.Failure) in
            switch name {
            case "sha256":
                guard reader.nextIs(UInt8(ascii: "\"")) else {
                    otherShape = true
                    return try reader.skipValue()
                }
                sha256 = try reader.readString()
            case "bytes":
                byteCount = try reader.readInteger()
                if byteCount == nil { otherShape = true }
            case "width", "height", "format":
                let start = reader.mark
                let known: Bool
                switch name {
                case "width":
                    width = try reader.readInteger()
                    known = width != nil
                case "height":
                    height = try reader.readInteger()
                    known = height != nil
                default:
                    format = reader.nextIs(UInt8(ascii: "\"")) ? try reader.readString() : nil
                    known = format != nil
                }
                if !known {
                    reader.rewind(to: start)
                    unknownFields[name.text] = try reader.readUnknown()
                }
            default: unknownFields[name.text] = try reader.readUnknown()
            }
        }
        guard !otherShape, let sha256, Self.isValidName(sha256), let byteCount else { return nil }
        var original = KeptOriginal(
            sha256: sha256, byteCount: byteCount, pixelWidth: width ?? 0, pixelHeight: height ?? 0, format: format)
        original.unknownFields = unknownFields
        return original
    }

    /// The fields this version knows, by name.
    var knownFields: [String: JSONValue] {
        var fields: [String: JSONValue] = [
            "sha256": .string(sha256), "bytes": .number(String(byteCount)), "width": .number(String(pixelWidth)),
            "height": .number(String(pixelHeight)),
        ]
        if let format { fields["format"] = .string(format) }
        return fields
    }

    /// The object as the state file writes it: its fields in name order.
    func write(to writer: inout JSONWriter) {
        guard unknownFields.isEmpty else { return writer.object(known: knownFields, unknown: unknownFields) }
        writer.object { writer in
            writer.field("bytes")
            writer.integer(byteCount)
            if let format {
                writer.field("format")
                writer.string(format)
            }
            writer.field("height")
            writer.integer(pixelHeight)
            writer.field("sha256")
            writer.string(sha256)
            writer.field("width")
            writer.integer(pixelWidth)
        }
    }
}

extension ImageOrigin {
    /// The JSON name of each text field, with its key path.
    private static var texts: [(String, WritableKeyPath<ImageOrigin, String?>)] {
        [
            ("added", \.added), ("link", \.link), ("page", \.page), ("alt", \.altText), ("title", \.title),
            ("description", \.browserDescription), ("pageTitle", \.pageTitle),
        ]
    }

    /// Nil when the value is not an object (the reader has not moved).
    static func read(_ reader: inout JSONReader) throws(JSONReader.Failure) -> ImageOrigin? {
        guard reader.nextIs(UInt8(ascii: "{")) else { return nil }
        var origin = ImageOrigin()
        try reader.readFields { (reader, name) throws(JSONReader.Failure) in
            let start = reader.mark
            let text = reader.nextIs(UInt8(ascii: "\"")) ? try reader.readString() : nil
            switch name {
            case "arrival" where text.flatMap(Arrival.init(rawValue:)) != nil:
                origin.arrival = Arrival(rawValue: text!)
            case "added" where text != nil: origin.added = text
            case "link" where text != nil: origin.link = text
            case "page" where text != nil: origin.page = text
            case "alt" where text != nil: origin.altText = text
            case "title" where text != nil: origin.title = text
            case "description" where text != nil: origin.browserDescription = text
            case "pageTitle" where text != nil: origin.pageTitle = text
            default:
                reader.rewind(to: start)
                origin.unknownFields[name.text] = try reader.readUnknown()
            }
        }
        return origin
    }

    /// The fields this version knows, by name (`GalleryExport` writes them too).
    var knownFields: [String: JSONValue] {
        var fields: [String: JSONValue] = [:]
        if let arrival { fields["arrival"] = .string(arrival.rawValue) }
        for (name, path) in Self.texts {
            if let text = self[keyPath: path] { fields[name] = .string(text) }
        }
        return fields
    }

    /// The object as the state file writes it: its fields in name order.
    func write(to writer: inout JSONWriter) {
        guard unknownFields.isEmpty else { return writer.object(known: knownFields, unknown: unknownFields) }
        writer.object { writer in
            func write(_ name: String, _ text: String?) {
                guard let text else { return }
                writer.field(name)
                writer.string(text)
            }
            write("added", added)
            write("alt", altText)
            write("arrival", arrival?.rawValue)
            write("description", browserDescription)
            write("link", link)
            write("page", page)
            write("pageTitle", pageTitle)
            write("title", title)
        }
    }
}

extension ImageDetails {
    /// The origin as `ImageOrigin.write` writes it, its texts read in place.
    func writeOrigin(to writer: inout JSONWriter) {
        guard originUnknownFields.isEmpty else {
            origin?.write(to: &writer)
            return
        }
        writer.object { writer in
            func write(_ name: String, _ slot: Slot) {
                guard let text = text(slot) else { return }
                writer.field(name)
                writer.string(text)
            }
            write("added", .added)
            write("alt", .altText)
            if let arrival {
                writer.field("arrival")
                writer.string(arrival.rawValue)
            }
            write("description", .browserDescription)
            write("link", .link)
            write("page", .page)
            write("pageTitle", .pageTitle)
            write("title", .title)
        }
    }
}

extension MergedCopy {
    /// A list of merged copies, each `{"url": …, "origin": {…}}`; nil when it is not a list of such objects or holds
    /// more than `maximumPerImage` (the reader is then inside it, and has read no more copies than that).
    static func readList(_ reader: inout JSONReader) throws(JSONReader.Failure) -> [MergedCopy]? {
        guard reader.nextIs(UInt8(ascii: "[")) else { return nil }
        var copies: [MergedCopy] = []
        var allCopies = true
        try reader.readArray { (reader) throws(JSONReader.Failure) in
            guard allCopies, copies.count < maximumPerImage, reader.nextIs(UInt8(ascii: "{")) else {
                allCopies = false
                return try reader.skipValue()
            }
            var copy = MergedCopy(url: "")
            var hasURL = false
            try reader.readFields { (reader, name) throws(JSONReader.Failure) in
                // A value of another shape is passed over: a copy is only ever written as this version writes it.
                switch name {
                case "url" where reader.nextIs(UInt8(ascii: "\"")):
                    copy.url = try reader.readString()
                    hasURL = true
                case "origin" where reader.nextIs(UInt8(ascii: "{")): copy.origin = try ImageOrigin.read(&reader)
                default: try reader.skipValue()
                }
            }
            if hasURL { copies.append(copy) } else { allCopies = false }
        }
        return allCopies ? copies : nil
    }

    var json: JSONValue {
        var fields: [String: JSONValue] = ["url": .string(url)]
        if let origin {
            fields["origin"] = .object(
                origin.knownFields.merging(origin.unknownFields.compactMapValues(\.value)) { known, _ in known })
        }
        return .object(fields)
    }
}

extension JSONReader {
    /// A whole number that fits an `Int`; nil for any other value, which is then passed over (a long one uncopied).
    fileprivate mutating func readInteger() throws(JSONReader.Failure) -> Int? {
        let start = mark
        if let text = try? readNumber(atMost: 24), let number = Int(text) { return number }
        rewind(to: start)
        try skipValue()
        return nil
    }
}
