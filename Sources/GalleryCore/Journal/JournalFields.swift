/// The fields of images, galleries and the state's top level as the journal sets them: each the JSON text the state
/// file writes for it (compact), read back through the state file's own readers, so that the journal keeps every
/// field, a newer version's and one of another shape included, exactly as the state file does.
enum JournalFields {
    // MARK: Images

    /// Every field of `image` but its `id`, by name.
    static func imageFields(_ image: GalleryImage) -> [String: RawJSON] {
        var fields: [String: RawJSON] = [:]
        for name in StateFileFormat.imageFieldNames(image) where name != "id" {
            var writer = JSONWriter(compact: true)
            StateFileFormat.writeImageField(name, of: image, to: &writer)
            fields[name] = RawJSON(read: writer.bytes)
        }
        return fields
    }

    /// Sets the field `name` of `image` to `value` (nil: removes it); false, and `image` in any state, when the
    /// value cannot be that field (an `id`, a `url` that is not a text, no `url` at all).
    static func setImageField(_ name: String, to value: RawJSON?, in image: inout GalleryImage) -> Bool {
        setImageFields([(name, value)], in: &image)
    }

    /// `setImageField` for each of `values` in turn, the image's details unpacked once and packed once: a replica
    /// makes each of a million images from its registers so.
    static func setImageFields(_ values: [(name: String, value: RawJSON?)], in image: inout GalleryImage) -> Bool {
        if setMeasurements(values, in: &image) { return true }
        var details = image.detailFields
        var isValid = true
        for (name, value) in values {
            switch name {
            case "id":
                isValid = false
                continue
            case "url", "aspectRatio":
                guard value != nil else {
                    isValid = false
                    continue
                }
            case "note": details.note = nil
            case "tags": details.tags = []
            case "origin": details.origin = nil
            case "original": details.original = nil
            case "likeness": details.likeness = nil
            case "animation": details.animation = nil
            case "mergedCopies": details.mergedCopies = []
            default: break
            }
            details.unknownFields[name] = nil
            guard let value else { continue }
            let isRead = readImageField(
                name, value, url: &image.url, aspectRatio: &image.aspectRatio, details: &details)
            isValid = isValid && isRead
        }
        image.detailFields = details
        return isValid
    }

    /// Sets a likeness and an animation measured after the image arrived (most images' only fields set since) without
    /// packing its details again; false, and `image` untouched, for anything else (another field, a value removed or
    /// of another shape, an image that kept one of another shape), which `setImageFields` sets the long way.
    private static func setMeasurements(_ values: [(name: String, value: RawJSON?)], in image: inout GalleryImage)
        -> Bool
    {
        guard !values.isEmpty else { return false }
        var measured = ImageDetails.Fields()
        for (name, value) in values {
            guard name == "likeness" || name == "animation", let value, image.unknownFields[name] == nil,
                readField(
                    name, value,
                    { (reader, field) throws(JSONReader.Failure) in
                        try StateFileFormat.readImageField(&reader, field, into: &measured)
                    }),
                measured.unknownFields.isEmpty
            else { return false }
        }
        let names = Set(values.map(\.name))
        image.measure(
            likeness: names.contains("likeness") ? measured.likeness : image.likeness,
            animation: names.contains("animation") ? measured.animation : image.animation)
        return true
    }

    /// Whether `value` can be the field `name` of an image: what `setImageField` answers, without an image packed to
    /// set it in (a snapshot's and a log's reader ask it of every field they read).
    static func isValidImageField(_ name: String, _ value: RawJSON?) -> Bool {
        switch name {
        case "id": return false
        case "url" where value == nil, "aspectRatio" where value == nil: return false
        default: break
        }
        guard let value else { return true }
        var url = ""
        var aspectRatio = 0.0
        var details = ImageDetails.Fields()
        return readImageField(name, value, url: &url, aspectRatio: &aspectRatio, details: &details)
    }

    /// Reads `value` as the image field `name` into the parts of an image it sets; false when it cannot be that field.
    private static func readImageField(
        _ name: String, _ value: RawJSON, url: inout String, aspectRatio: inout Double,
        details: inout ImageDetails.Fields
    ) -> Bool {
        readField(name, value) { (reader, field) throws(JSONReader.Failure) in
            switch field {
            case "url": url = try reader.readString()
            case "aspectRatio": aspectRatio = try reader.readDouble() ?? 0
            default: try StateFileFormat.readImageField(&reader, field, into: &details)
            }
        }
    }

    /// The image's whole object, compact: what an arrival writes.
    static func imageText(_ image: GalleryImage) -> [UInt8] {
        var writer = JSONWriter(compact: true)
        StateFileFormat.write(image, to: &writer)
        return writer.bytes
    }

    // MARK: Galleries

    /// A gallery's fields but its `id` and `images`, by name.
    static func galleryFields(_ gallery: Gallery) -> [String: RawJSON] {
        var fields = gallery.unknownFields.mapValues(\.compacted)
        var writer = JSONWriter(compact: true)
        writer.string(gallery.name)
        fields["name"] = RawJSON(read: writer.bytes)
        return fields
    }

    /// Sets a gallery's field; false when the value cannot be that field.
    static func setGalleryField(_ name: String, to value: RawJSON?, in gallery: inout Gallery) -> Bool {
        switch name {
        case "id", "images": return false
        case "name":
            guard case .string(let text)? = value?.value else { return value == nil }
            gallery.name = text
        default: gallery.unknownFields[name] = value
        }
        return true
    }

    // MARK: The top level

    /// The state's top-level fields but `galleries`, by name.
    static func stateFields(_ state: GalleryState) -> [String: RawJSON] {
        var fields: [String: RawJSON] = [:]
        for name in StateFileFormat.stateFieldNames(state) where name != "galleries" {
            var writer = JSONWriter(compact: true)
            StateFileFormat.writeStateField(name, of: state, to: &writer)
            fields[name] = RawJSON(read: writer.bytes)
        }
        return fields
    }

    /// Sets a top-level field; false when the value cannot be that field.
    static func setStateField(_ name: String, to value: RawJSON?, in state: inout GalleryState) -> Bool {
        switch name {
        case "galleries": return false
        case "version": state.version = GalleryState.currentVersion
        case "shownGalleryID": state.shownGalleryID = nil
        case "sidebarVisible": state.sidebarVisible = nil
        case "playAnimations": state.playAnimations = nil
        case "smartGalleries": state.smartGalleries = []
        default: break
        }
        state.unknownFields[name] = nil
        guard let value else { return true }
        return readField(name, value) { (reader, field) throws(JSONReader.Failure) in
            if case "version" = field {
                state.version = try StateFileFormat.readVersion(&reader)
            } else {
                try StateFileFormat.readStateField(&reader, field, into: &state)
            }
        }
    }

    /// Reads `value` as the field `name` with `read`, which reads the one field's value as the state file's readers
    /// do: as they would read it in `{name: value}`, without that object made and read again.
    private static func readField(
        _ name: String, _ value: RawJSON, _ read: (inout JSONReader, JSONReader.Name) throws(JSONReader.Failure) -> Void
    ) -> Bool {
        do throws(JSONReader.Failure) {
            // Compact, as the field's writer makes it: a value kept as read (a newer version's field) is kept so.
            try JSONReader.read(value.compacted.bytes) { (reader) throws(JSONReader.Failure) in
                try read(&reader, JSONReader.Name(text: name))
            }
            return true
        } catch {
            return false
        }
    }
}
