import Foundation

/// The state file's JSON: the fields this version knows, read into the model, and every other
/// field kept as the text it was read in (`unknownFields`) and written back among them in name order.
/// Those texts are kept, in the file's order, up to `unknownTextLimit` bytes in all: a field past it
/// (a newer version's, or a peer's flood) is dropped, and the caller says so.
enum StateFileFormat {
    /// The top-level fields that name one write of the file and the writes it took in (`Lineage`): read
    /// and written among the fields kept as read, so that every write carries them whole.
    static let revisionField = "revision"
    static let ancestorsField = "ancestors"

    /// The most text the fields this version does not know may keep, in one file.
    static let unknownTextLimit = 4 << 20

    /// The most text a `smartGalleries` field is read into a tree from; a longer one is kept as read.
    private static let smartGalleriesLimit = 1 << 20

    /// The most bytes a `likeness` string is read from, quotes and escapes included: `Likeness.savedText` is shorter.
    private static let likenessTextLimit = 64

    /// What `decode` refuses: not JSON, or not the shape of a state file.
    struct Invalid: Error {}

    /// A state read, and how many fields it lost to `unknownTextLimit`.
    struct Decoded {
        let state: GalleryState
        let droppedFields: Int
    }

    static func decode(_ data: Data) throws(Invalid) -> GalleryState {
        let outcome: Result<Decoded, Invalid> = data.withUnsafeBytes { bytes in
            Result { () throws(Invalid) in try decode(bytes.assumingMemoryBound(to: UInt8.self)) }
        }
        return try outcome.get().state
    }

    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(Invalid) -> Decoded {
        do throws(JSONReader.Failure) {
            return try JSONReader.read(bytes, unknownBudget: unknownTextLimit) { (reader) throws(JSONReader.Failure) in
                Decoded(state: try readState(&reader), droppedFields: reader.droppedUnknownValues)
            }
        } catch {
            throw Invalid()
        }
    }

    static func encode(_ state: GalleryState) -> Data {
        var writer = JSONWriter(reservingCapacity: 128 + state.galleries.reduce(0) { $0 + 140 * $1.images.count })
        write(state, to: &writer) { writer, image in
            writer.element()
            write(image, to: &writer)
        }
        return Data(writer.bytes)
    }

    // MARK: Reading

    private static func readState(_ reader: inout JSONReader) throws(JSONReader.Failure) -> GalleryState {
        var version: Int?
        var galleries: [Gallery]?
        var state = GalleryState(galleries: [])
        try reader.readFields { (reader, name) throws(JSONReader.Failure) in
            switch name {
            case "version": version = try readVersion(&reader)
            case "galleries":
                var list: [Gallery] = []
                try reader.readArray { (reader) throws(JSONReader.Failure) in list.append(try readGallery(&reader)) }
                galleries = list
            default: try readStateField(&reader, name, into: &state)
            }
        }
        guard let version, let galleries else { throw JSONReader.Failure(offset: 0) }
        state.version = version
        state.galleries = galleries
        return state
    }

    /// A top-level field other than `version` and `galleries`, read into `state`.
    static func readStateField(
        _ reader: inout JSONReader, _ name: JSONReader.Name, into state: inout GalleryState
    ) throws(JSONReader.Failure) {
        switch name {
        case "shownGalleryID": state.shownGalleryID = try reader.takeNull() ? nil : try reader.readString()
        case "sidebarVisible": state.sidebarVisible = try reader.takeNull() ? nil : try reader.readBool()
        case "playAnimations" where reader.nextIs(UInt8(ascii: "t")) || reader.nextIs(UInt8(ascii: "f")):
            state.playAnimations = try reader.readBool()
        case "smartGalleries":
            // Another shape (a newer version's, a hand edit) is kept as read, and no smart gallery shows.
            if let parsed = try reader.readKnown(
                name.text, keepingOtherShapesIn: &state.unknownFields, readSmartGalleries)
            {
                state.smartGalleries = parsed
            }
        default: state.unknownFields[name.text] = try reader.readUnknown()
        }
    }

    /// The smart galleries, nil when the value is of another shape or too long to read into a tree.
    private static func readSmartGalleries(_ reader: inout JSONReader) -> [SmartGallery]? {
        let start = reader.mark
        guard (try? reader.skipValue()) != nil, reader.offset(since: start) <= smartGalleriesLimit else { return nil }
        reader.rewind(to: start)
        guard case .array(let items)? = try? reader.readValue() else { return nil }
        return items.map(SmartGallery.init(json:)) as? [SmartGallery]
    }

    /// A whole number; one too big for an `Int` (or written `1e9`) is a version from the future.
    static func readVersion(_ reader: inout JSONReader) throws(JSONReader.Failure) -> Int {
        let text = try reader.readNumber()
        if let version = Int(text) { return version }
        guard let number = Double(text) else { throw JSONReader.Failure(offset: 0) }
        if number > Double(GalleryState.currentVersion) { return Int.max }
        guard let version = Int(exactly: number) else { throw JSONReader.Failure(offset: 0) }
        return version
    }

    private static func readGallery(_ reader: inout JSONReader) throws(JSONReader.Failure) -> Gallery {
        var id: String?
        var name: String?
        var images: [GalleryImage]?
        var unknownFields: [String: RawJSON] = [:]
        try reader.readFields { (reader, field) throws(JSONReader.Failure) in
            switch field {
            case "id": id = try reader.readString()
            case "name": name = try reader.readString()
            case "images":
                var list: [GalleryImage] = []
                try reader.readArray { (reader) throws(JSONReader.Failure) in list.append(try readImage(&reader)) }
                images = list
            default: unknownFields[field.text] = try reader.readUnknown()
            }
        }
        guard let id, let name, let images else { throw JSONReader.Failure(offset: 0) }
        var gallery = Gallery(id: id, name: name, images: images)
        gallery.unknownFields = unknownFields
        return gallery
    }

    static func readImage(_ reader: inout JSONReader) throws(JSONReader.Failure) -> GalleryImage {
        // Filled in place: a launch reads every image, and copying one (its optional fields inline) cost more.
        var image = GalleryImage(id: ImageID(""), url: "", aspectRatio: 0)
        // Its other fields are packed once, when all are read.
        var fields = ImageDetails.Fields()
        var hasID = false
        var hasURL = false
        var hasAspectRatio = false
        try reader.readFields { (reader, field) throws(JSONReader.Failure) in
            switch field {
            case "id":
                image.id = ImageID(try reader.readString())
                hasID = true
            case "url":
                image.url = try reader.readString()
                hasURL = true
            // Out of a Double's range (1e400) it is infinite or 0: shown as a square, measured again.
            case "aspectRatio":
                image.aspectRatio = try reader.readDouble() ?? 0
                hasAspectRatio = true
            default: try readImageField(&reader, field, into: &fields)
            }
        }
        guard hasID, hasURL, hasAspectRatio else { throw JSONReader.Failure(offset: 0) }
        image.detailFields = fields
        return image
    }

    /// An image's field other than its `id`, `url` and `aspectRatio`, read into `image`.
    static func readImageField(
        _ reader: inout JSONReader, _ field: JSONReader.Name, into image: inout GalleryImage
    ) throws(JSONReader.Failure) {
        var fields = image.detailFields
        try readImageField(&reader, field, into: &fields)
        image.detailFields = fields
    }

    /// An image's field other than its `id`, `url` and `aspectRatio`, read into `image`'s other fields.
    static func readImageField(
        _ reader: inout JSONReader, _ field: JSONReader.Name, into image: inout ImageDetails.Fields
    ) throws(JSONReader.Failure) {
        switch field {
        // The library's fields: one of another shape (a newer version's?) is kept as read.
        case "original":
            if let original = try reader.readKnown(
                field.text, keepingOtherShapesIn: &image.unknownFields, KeptOriginal.read)
            {
                image.original = original
            }
        case "origin":
            if let origin = try reader.readKnown(
                field.text, keepingOtherShapesIn: &image.unknownFields, ImageOrigin.read)
            {
                image.origin = origin
            }
        case "note":
            if reader.nextIs(UInt8(ascii: "\"")) {
                image.note = try reader.readString()
            } else {
                image.unknownFields[field.text] = try reader.readUnknown()
            }
        case "tags":
            if let names = try reader.readKnown(field.text, keepingOtherShapesIn: &image.unknownFields, readStrings) {
                image.tags = names
            }
        // A fixed shape, so a peer's file can make it no larger; any other value is kept as read.
        case "likeness":
            if let likeness = try reader.readKnown(
                field.text, keepingOtherShapesIn: &image.unknownFields, readLikeness)
            {
                image.likeness = likeness
            }
        case "animation":
            if let animation = try reader.readKnown(
                field.text, keepingOtherShapesIn: &image.unknownFields, readAnimation)
            {
                image.animation = animation
            }
        case "mergedCopies":
            if let copies = try reader.readKnown(
                field.text, keepingOtherShapesIn: &image.unknownFields, MergedCopy.readList)
            {
                image.mergedCopies = copies
            }
        default: image.unknownFields[field.text] = try reader.readUnknown()
        }
    }

    // MARK: Writing

    private static func write(
        _ state: GalleryState, to writer: inout JSONWriter, image: (inout JSONWriter, GalleryImage) -> Void
    ) {
        writer.object { writer in
            for name in stateFieldNames(state) {
                writer.field(name)
                if name == "galleries" {
                    writer.array { writer in
                        for gallery in state.galleries {
                            writer.element()
                            write(gallery, to: &writer, image: image)
                        }
                    }
                } else {
                    writeStateField(name, of: state, to: &writer)
                }
            }
        }
    }

    /// The names of the top-level fields `state` has, `galleries` among them, in the order they are written.
    static func stateFieldNames(_ state: GalleryState) -> [String] {
        var known = ["galleries", "version"]
        if state.shownGalleryID != nil { known.append("shownGalleryID") }
        if state.sidebarVisible != nil { known.append("sidebarVisible") }
        if state.playAnimations != nil { known.append("playAnimations") }
        if !state.smartGalleries.isEmpty { known.append("smartGalleries") }
        return fieldNames(known: known.sorted(), unknown: state.unknownFields)
    }

    /// The value of the top-level field `name` (one `stateFieldNames` gives, not `galleries`).
    static func writeStateField(_ name: String, of state: GalleryState, to writer: inout JSONWriter) {
        switch name {
        case "version": writer.integer(state.version)
        // Without the known value, a field of that name is one kept as read (of another shape).
        case "shownGalleryID" where state.shownGalleryID != nil: writer.string(state.shownGalleryID!)
        case "sidebarVisible" where state.sidebarVisible != nil: writer.bool(state.sidebarVisible!)
        case "playAnimations" where state.unknownFields[name] == nil && state.playAnimations != nil:
            writer.bool(state.playAnimations!)
        case "smartGalleries" where state.unknownFields[name] == nil && !state.smartGalleries.isEmpty:
            writer.value(.array(state.smartGalleries.map(\.json)))
        default: writer.value(state.unknownFields[name]!)
        }
    }

    private static func write(
        _ gallery: Gallery, to writer: inout JSONWriter, image writeImage: (inout JSONWriter, GalleryImage) -> Void
    ) {
        writer.object { writer in
            for name in fieldNames(known: ["id", "images", "name"], unknown: gallery.unknownFields) {
                writer.field(name)
                switch name {
                case "id": writer.string(gallery.id)
                case "images":
                    writer.array { writer in
                        for image in gallery.images { writeImage(&writer, image) }
                    }
                case "name": writer.string(gallery.name)
                default: writer.value(gallery.unknownFields[name]!)
                }
            }
        }
    }

    static func write(_ image: GalleryImage, to writer: inout JSONWriter) {
        guard image.unknownFields.isEmpty else {
            return writer.object { writer in
                for name in imageFieldNames(image) {
                    writer.field(name)
                    writeImageField(name, of: image, to: &writer)
                }
            }
        }
        // The known fields alone, in name order, without gathering their names: a snapshot writes every image.
        writer.object { writer in
            if let animation = image.animation {
                writer.field("animation")
                write(animation, to: &writer)
            }
            writer.field("aspectRatio")
            writer.double(image.aspectRatio)
            writer.field("id")
            writer.string(image.id.rawValue)
            if let likeness = image.likeness {
                writer.field("likeness")
                writer.string(likeness.savedText)
            }
            let copies = image.mergedCopies
            if !copies.isEmpty {
                writer.field("mergedCopies")
                writer.value(.array(copies.map(\.json)))
            }
            // The texts are written from where they are packed, without a String made of each.
            if let note = image.detailText(.note) {
                writer.field("note")
                writer.string(note)
            }
            if let details = image.details, details.hasOrigin {
                writer.field("origin")
                details.writeOrigin(to: &writer)
            }
            if let original = image.original {
                writer.field("original")
                original.write(to: &writer)
            }
            let tags = image.tags
            if !tags.isEmpty {
                writer.field("tags")
                writer.array { writer in
                    for tag in tags {
                        writer.element()
                        writer.string(tag)
                    }
                }
            }
            writer.field("url")
            writer.string(image.url)
        }
    }

    /// The names of the fields `image` has, in the order they are written.
    static func imageFieldNames(_ image: GalleryImage) -> [String] {
        var known = ["aspectRatio", "id", "url"]
        if image.note != nil { known.append("note") }
        if !image.tags.isEmpty { known.append("tags") }
        if image.origin != nil { known.append("origin") }
        if image.original != nil { known.append("original") }
        if image.likeness != nil { known.append("likeness") }
        if image.animation != nil { known.append("animation") }
        if !image.mergedCopies.isEmpty { known.append("mergedCopies") }
        return fieldNames(known: known.sorted(), unknown: image.unknownFields)
    }

    /// The value of the field `name` of `image` (one `imageFieldNames` gives).
    static func writeImageField(_ name: String, of image: GalleryImage, to writer: inout JSONWriter) {
        switch name {
        case "aspectRatio": writer.double(image.aspectRatio)
        case "id": writer.string(image.id.rawValue)
        case "url": writer.string(image.url)
        // Without the known value, a field of that name is one kept as read (of another shape).
        case "note" where image.note != nil: writer.string(image.note!)
        case "tags" where !image.tags.isEmpty: writer.value(.array(image.tags.map(JSONValue.string)))
        case "origin" where image.origin != nil: image.origin!.write(to: &writer)
        case "original" where image.original != nil: image.original!.write(to: &writer)
        case "likeness" where image.likeness != nil: writer.string(image.likeness!.savedText)
        case "animation" where image.animation != nil: write(image.animation!, to: &writer)
        case "mergedCopies" where !image.mergedCopies.isEmpty: writer.value(.array(image.mergedCopies.map(\.json)))
        default: writer.value(image.unknownFields[name]!)
        }
    }

    /// `false` for a still, `{"duration", "frames"}` for an animation.
    private static func write(_ animation: AnimationSummary, to writer: inout JSONWriter) {
        guard animation.isAnimated else { return writer.bool(false) }
        writer.object { writer in
            writer.field("duration")
            writer.integer(Int(animation.duration))
            writer.field("frames")
            writer.integer(Int(animation.frameCount))
        }
    }

    /// An animation as `write` writes it, or nil for any other value (the reader is then inside it or past it).
    private static func readAnimation(_ reader: inout JSONReader) throws(JSONReader.Failure) -> AnimationSummary? {
        if reader.nextIs(UInt8(ascii: "f")) { return try reader.readBool() ? nil : .still }
        guard reader.nextIs(UInt8(ascii: "{")) else { return nil }
        var frames: Int?
        var duration: Int?
        var otherShape = false
        try reader.readFields { (reader, name) throws(JSONReader.Failure) in
            // A whole number of `Int32`, not negative: anything else is of another shape.
            let isDigit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains { reader.nextIs($0) }
            let number = isDigit ? try reader.readNumber(atMost: 16).flatMap { Int32($0) } : nil
            if !isDigit { try reader.skipValue() }
            switch name {
            case "frames" where number.map({ $0 >= 2 }) == true: frames = number.map(Int.init)
            case "duration" where number != nil: duration = number.map(Int.init)
            default: otherShape = true
            }
        }
        guard !otherShape, let frames, let duration else { return nil }
        return AnimationSummary(frameCount: frames, duration: duration)
    }

    /// A likeness as `Likeness.savedText` writes it, or nil for any other value (the reader is then past it).
    private static func readLikeness(_ reader: inout JSONReader) throws(JSONReader.Failure) -> Likeness? {
        guard reader.nextIs(UInt8(ascii: "\"")) else { return nil }
        // A longer string is no likeness: passed over, never copied, however long a peer made it.
        let start = reader.mark
        try reader.skipValue()
        guard reader.offset(since: start) <= likenessTextLimit else { return nil }
        reader.rewind(to: start)
        return Likeness(savedText: try reader.readString())
    }

    /// An array's strings, or nil when it is not an array of strings (the reader is then inside it).
    private static func readStrings(_ reader: inout JSONReader) throws(JSONReader.Failure) -> [String]? {
        guard reader.nextIs(UInt8(ascii: "[")) else { return nil }
        var texts: [String] = []
        var allStrings = true
        try reader.readArray { (reader) throws(JSONReader.Failure) in
            guard allStrings, reader.nextIs(UInt8(ascii: "\"")) else {
                allStrings = false
                return try reader.skipValue()
            }
            texts.append(try reader.readString())
        }
        return allStrings ? texts : nil
    }

    /// Every field's name in the order they are written: by name, as before (`known` is sorted).
    private static func fieldNames(known: [String], unknown: [String: RawJSON]) -> [String] {
        guard !unknown.isEmpty else { return known }
        return (known + unknown.keys.filter { !known.contains($0) }).sorted()
    }
}
