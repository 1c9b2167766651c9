/// One edit as the journal keeps it: the changes it made, under one stamp (`JournalStamp`), encoded as one JSON
/// object on one line:
/// `{"at":[12,"<computer>"],"changes":[{"image":"<id>","set":"note","to":"For the kitchen wall"}]}`.
public struct JournalEntry: Hashable, Sendable {
    /// The most an entry this version writes holds, in bytes: a larger edit (a drop of thousands) is split.
    public static let batchLimit = 1 << 20
    /// The longest id (of an image or a gallery) or field name read.
    static let nameLimit = 4096

    public var stamp: JournalStamp
    public var changes: [JournalChange]

    public init(stamp: JournalStamp, changes: [JournalChange]) {
        self.stamp = stamp
        self.changes = changes
    }

    // MARK: Writing

    /// The entry's JSON text, on one line.
    public var encoded: [UInt8] {
        var writer = JSONWriter(compact: true)
        writer.object { writer in
            writer.field("at")
            writer.array { writer in
                writer.element()
                writer.integer(Int(stamp.counter))
                writer.element()
                writer.string(stamp.computer)
            }
            writer.field("changes")
            writer.array { writer in
                for change in changes {
                    writer.element()
                    Self.write(change, to: &writer)
                }
            }
        }
        return writer.bytes
    }

    static func encodedSize(of change: JournalChange) -> Int {
        var writer = JSONWriter(compact: true)
        write(change, to: &writer)
        return writer.bytes.count + 1
    }

    /// `{"add":{image}}`; `{"image":id,"set":name,"to":value}` (no `to`: removed); `{"image":id,"gallery":id,
    /// "key":key}`; `{"image":id,"delete":true}`; `{"gallery":id,"set":name,"to":value}`; `{"gallery":id,
    /// "key":key}`; `{"gallery":id,"delete":true}` (`false`: back); `{"set":name,"to":value}` (a setting).
    private static func write(_ change: JournalChange, to writer: inout JSONWriter) {
        writer.object { writer in
            func text(_ name: String, _ value: String) {
                writer.field(name)
                writer.string(value)
            }
            func set(_ name: String, _ value: RawJSON?) {
                text("set", name)
                if let value {
                    writer.field("to")
                    writer.value(value)
                }
            }
            switch change {
            case .addImage(let image):
                writer.field("add")
                StateFileFormat.write(image, to: &writer)
            case .setImageField(let id, let name, let value):
                text("image", id.rawValue)
                set(name, value)
            case .placeImage(let id, let placement?):
                text("image", id.rawValue)
                text("gallery", placement.gallery)
                text("key", placement.key)
            case .placeImage(let id, nil):
                text("image", id.rawValue)
                writer.field("delete")
                writer.bool(true)
            case .setGalleryField(let id, let name, let value):
                text("gallery", id)
                set(name, value)
            case .placeGallery(let id, let key):
                text("gallery", id)
                text("key", key)
            case .setGalleryDeleted(let id, let isDeleted):
                text("gallery", id)
                writer.field("delete")
                writer.bool(isDeleted)
            case .setSetting(let name, let value): set(name, value)
            }
        }
    }

    // MARK: Reading

    /// An entry read from its text, with the number of its changes this version does not know (a newer version's,
    /// or values that cannot be their field), which are left out; nil when the text is not an entry.
    public static func decode(_ text: UnsafeBufferPointer<UInt8>) -> (entry: JournalEntry, skipped: Int)? {
        var stamp: JournalStamp?
        var changes: [JournalChange]?
        var skipped = 0
        do throws(JSONReader.Failure) {
            try JSONReader.read(text) { (reader) throws(JSONReader.Failure) in
                try reader.readFields { (reader, field) throws(JSONReader.Failure) in
                    switch field {
                    case "at": stamp = try readStamp(&reader)
                    case "changes":
                        var list: [JournalChange] = []
                        try reader.readArray { (reader) throws(JSONReader.Failure) in
                            if let change = try readChange(&reader) { list.append(change) } else { skipped += 1 }
                        }
                        changes = list
                    default: try reader.skipValue()
                    }
                }
            }
        } catch {
            return nil
        }
        guard let stamp, let changes else { return nil }
        return (JournalEntry(stamp: stamp, changes: changes), skipped)
    }

    /// `[counter, computer]`, nil when either is out of bounds.
    private static func readStamp(_ reader: inout JSONReader) throws(JSONReader.Failure) -> JournalStamp? {
        var counter: UInt64?
        var computer: String?
        var count = 0
        try reader.readArray { (reader) throws(JSONReader.Failure) in
            count += 1
            switch count {
            case 1: counter = (try? reader.readNumber()).flatMap { UInt64($0) }
            case 2: computer = reader.nextIs(UInt8(ascii: "\"")) ? try reader.readString() : nil
            default: try reader.skipValue()
            }
        }
        guard count == 2, let counter, (1...JournalStamp.maximumCounter).contains(counter), let computer,
            JournalStamp.isValidComputer(computer)
        else { throw JSONReader.Failure(offset: 0) }
        return JournalStamp(counter: counter, computer: computer)
    }

    /// One change; nil for one of another kind or shape, or whose value cannot be its field.
    private static func readChange(_ reader: inout JSONReader) throws(JSONReader.Failure) -> JournalChange? {
        guard reader.nextIs(UInt8(ascii: "{")) else {
            try reader.skipValue()
            return nil
        }
        var added: GalleryImage?
        var texts = ChangeTexts()
        var value: RawJSON?
        var delete: Bool?
        var otherShape = false
        try reader.readFields { (reader, field) throws(JSONReader.Failure) in
            switch field {
            case "add" where reader.nextIs(UInt8(ascii: "{")):
                let start = reader.mark
                added = try? StateFileFormat.readImage(&reader)
                if added == nil {
                    reader.rewind(to: start)
                    try reader.skipValue()
                    otherShape = true
                }
            case "image", "gallery", "set", "key":
                guard reader.nextIs(UInt8(ascii: "\"")) else {
                    otherShape = true
                    return try reader.skipValue()
                }
                let text = try reader.readString()
                if text.utf8.count > nameLimit || text.isEmpty { otherShape = true }
                switch field {
                case "image": texts.image = text
                case "gallery": texts.gallery = text
                case "set": texts.set = text
                default: texts.key = text
                }
            case "to": value = try reader.readRaw().compacted
            case "delete" where reader.nextIs(UInt8(ascii: "t")) || reader.nextIs(UInt8(ascii: "f")):
                delete = try reader.readBool()
            default:
                otherShape = true
                try reader.skipValue()
            }
        }
        guard !otherShape else { return nil }
        return change(added: added, texts: texts, value: value, delete: delete)
    }

    private static func change(added: GalleryImage?, texts: ChangeTexts, value: RawJSON?, delete: Bool?)
        -> JournalChange?
    {
        let shape = (
            added != nil, texts.image != nil, texts.gallery != nil, texts.set != nil, texts.key != nil,
            value != nil, delete
        )
        switch shape {
        case (true, false, false, false, false, false, nil):
            guard let image = added, (1...nameLimit).contains(image.id.rawValue.utf8.count) else { return nil }
            return .addImage(image)
        case (false, true, false, true, false, _, nil):
            let name = texts.set!
            guard JournalFields.isValidImageField(name, value) else { return nil }
            return .setImageField(ImageID(texts.image!), name: name, value: value)
        case (false, true, true, false, true, false, nil):
            guard PositionKey.isValid(texts.key!) else { return nil }
            return .placeImage(
                ImageID(texts.image!), JournalChange.ImagePlacement(gallery: texts.gallery!, key: texts.key!))
        case (false, true, false, false, false, false, true?): return .placeImage(ImageID(texts.image!), nil)
        case (false, false, true, true, false, _, nil):
            let name = texts.set!
            var scratch = Gallery(id: "", name: "")
            guard JournalFields.setGalleryField(name, to: value, in: &scratch) else { return nil }
            return .setGalleryField(texts.gallery!, name: name, value: value)
        case (false, false, true, false, true, false, nil):
            guard PositionKey.isValid(texts.key!) else { return nil }
            return .placeGallery(texts.gallery!, key: texts.key!)
        case (false, false, true, false, false, false, let isDeleted?):
            return .setGalleryDeleted(texts.gallery!, isDeleted)
        case (false, false, false, true, false, _, nil):
            let name = texts.set!
            var scratch = GalleryState(galleries: [])
            guard JournalFields.setStateField(name, to: value, in: &scratch) else { return nil }
            return .setSetting(name: name, value: value)
        default: return nil
        }
    }

    /// The texts a change names: which image, gallery, field or key.
    private struct ChangeTexts {
        var image: String?
        var gallery: String?
        var set: String?
        var key: String?
    }
}
