extension JournalSnapshot {
    /// What a snapshot's first record holds: the settings and galleries (and, in format 1, every image), the
    /// computers its stamps name, and the sections that follow it.
    public struct Contents: Sendable {
        public var snapshot: JournalSnapshot
        var computers: [String]
        public var sections: [Section]

        /// Room in the replica for the images of the sections at `indices`, made once before they are read: made
        /// section by section, the replica's arrays of images would be copied once a section. Each count is bounded
        /// by its section's length, checked against the bytes before.
        mutating func reserveImages(ofSections indices: some Collection<Int>) {
            let count = indices.reduce(snapshot.replica.images.count) { $0 + sections[$1].imageCount }
            snapshot.replica.images.reserveCapacity(count)
        }
    }

    /// The snapshot `bytes` hold; nil when they are not whole records of at most `limit` bytes holding a snapshot
    /// of a format this version reads whose every value can be its field (a snapshot cut or damaged is not read at
    /// all: the logs hold everything it did).
    public static func decode(_ bytes: [UInt8]) -> JournalSnapshot? {
        bytes.withUnsafeBufferPointer { buffer in
            let found = JournalRecord.read(buffer, from: 0, limit: limit)
            guard found.stop == nil, found.end == buffer.count, let first = found.payloads.first,
                var contents = readContents(UnsafeBufferPointer(rebasing: buffer[first])),
                contents.sections.count == found.payloads.count - 1,
                zip(contents.sections, found.payloads.dropFirst()).allSatisfy({ section, payload in
                    payload.count + JournalRecord.headerLength + 1 == section.length
                })
            else { return nil }
            contents.reserveImages(ofSections: contents.sections.indices)
            for (section, payload) in zip(contents.sections, found.payloads.dropFirst()) {
                guard readSection(UnsafeBufferPointer(rebasing: buffer[payload]), section, of: &contents) else {
                    return nil
                }
            }
            return contents.snapshot
        }
    }

    /// The first record's payload read; nil when it is no snapshot of a format this version reads.
    public static func readContents(_ text: UnsafeBufferPointer<UInt8>) -> Contents? {
        try? read(text)
    }

    /// Takes in one section's images (its record's payload) into `contents.snapshot`; false when it is not that
    /// section: another count of images, or a value that cannot be its field (the images read before it are taken
    /// in, each whole and checked: the caller reads the library again from elsewhere, which changes none of them).
    /// The caller makes room for the sections it reads first (`Contents.reserveImages`).
    public static func readSection(
        _ text: UnsafeBufferPointer<UInt8>, _ section: Section, of contents: inout Contents
    ) -> Bool {
        let computers = contents.computers
        var replica = contents.snapshot.replica
        // Dropped while it is read, so that taking the images in does not copy the table.
        contents.snapshot.replica = LibraryReplica()
        defer { contents.snapshot.replica = replica }
        do throws(JSONReader.Failure) {
            try JSONReader.read(text) { (reader) throws(JSONReader.Failure) in
                var previousGallery = ""
                var count = 0
                try reader.readFields { (reader, field) throws(JSONReader.Failure) in
                    switch field {
                    case "images":
                        try reader.readArray { (reader) throws(JSONReader.Failure) in
                            try readImage(&reader, computers, previousGallery: &previousGallery, into: &replica)
                            count += 1
                        }
                    default: try reader.skipValue()
                    }
                }
                guard count == section.imageCount else { throw JSONReader.Failure(offset: 0) }
            }
            return true
        } catch {
            return false
        }
    }

    private static func read(_ text: UnsafeBufferPointer<UInt8>) throws(JSONReader.Failure) -> Contents {
        try JSONReader.read(text) { (reader) throws(JSONReader.Failure) in
            var snapshot = JournalSnapshot(replica: LibraryReplica(), covers: [:])
            var computers: [String]?
            var format: String?
            var sections: [Section] = []
            var hasImages = false
            var previousGallery = ""
            try reader.readFields { (reader, field) throws(JSONReader.Failure) in
                switch field {
                case "format":
                    let number = try reader.readNumber()
                    guard number == "1" || number == String(Self.format) else { throw JSONReader.Failure(offset: 0) }
                    format = number
                case "clock": snapshot.replica.clock = max(snapshot.replica.clock, try readCounter(&reader))
                case "computers":
                    var list: [String] = []
                    try reader.readArray { (reader) throws(JSONReader.Failure) in
                        let computer = try reader.readString()
                        guard JournalStamp.isValidComputer(computer) else { throw JSONReader.Failure(offset: 0) }
                        list.append(computer)
                    }
                    computers = list
                case "covers":
                    try reader.readObject { (reader, computer) throws(JSONReader.Failure) in
                        guard JournalStamp.isValidComputer(computer), let offset = Int(try reader.readNumber()),
                            offset >= 0
                        else { throw JSONReader.Failure(offset: 0) }
                        snapshot.covers[computer] = offset
                    }
                case "settings":
                    guard let computers else { throw JSONReader.Failure(offset: 0) }
                    try reader.readObject { (reader, name) throws(JSONReader.Failure) in
                        let register = try readRegister(&reader, computers)
                        var scratch = GalleryState(galleries: [])
                        guard JournalFields.setStateField(name, to: register.value, in: &scratch) else {
                            throw JSONReader.Failure(offset: 0)
                        }
                        snapshot.replica.apply(.setSetting(name: name, value: register.value), at: register.stamp)
                    }
                case "galleries":
                    guard let computers else { throw JSONReader.Failure(offset: 0) }
                    try reader.readArray { (reader) throws(JSONReader.Failure) in
                        try readGallery(&reader, computers, into: &snapshot.replica)
                    }
                case "sections":
                    try reader.readArray { (reader) throws(JSONReader.Failure) in
                        sections.append(try readSectionEntry(&reader))
                    }
                case "imageCount":
                    // A hint, bounded by the text: each image takes more than sixteen bytes of it.
                    guard let count = try reader.readWholeNumber(atMost: UInt64(text.count / 16)) else {
                        throw JSONReader.Failure(offset: 0)
                    }
                    snapshot.replica.images.reserveCapacity(Int(count))
                case "images":
                    guard let computers else { throw JSONReader.Failure(offset: 0) }
                    hasImages = true
                    try reader.readArray { (reader) throws(JSONReader.Failure) in
                        try readImage(&reader, computers, previousGallery: &previousGallery, into: &snapshot.replica)
                    }
                default: try reader.skipValue()
                }
            }
            // Format 1 holds its images in itself; format 2 in its sections.
            guard let format, format == "1" ? sections.isEmpty : !hasImages else { throw JSONReader.Failure(offset: 0) }
            return Contents(snapshot: snapshot, computers: computers ?? [], sections: sections)
        }
    }

    /// `{"gallery":id,"imageCount":N,"length":bytes}`, `gallery` left out for the images without a place.
    private static func readSectionEntry(_ reader: inout JSONReader) throws(JSONReader.Failure) -> Section {
        var gallery: String?
        var count: UInt64?
        var length: UInt64?
        try reader.readFields { (reader, field) throws(JSONReader.Failure) in
            switch field {
            case "gallery": gallery = try readName(&reader)
            case "imageCount": count = try reader.readWholeNumber(atMost: UInt64(limit))
            case "length":
                length = try reader.readWholeNumber(atMost: UInt64(limit))
            default: try reader.skipValue()
            }
        }
        // Each image takes more than sixteen bytes of its section, so a count is bounded by the section's length.
        guard let count, let length, length > UInt64(JournalRecord.headerLength), count <= length / 16 else {
            throw JSONReader.Failure(offset: 0)
        }
        return Section(gallery: gallery, imageCount: Int(count), length: Int(length))
    }

    private static func readGallery(
        _ reader: inout JSONReader, _ computers: [String], into replica: inout LibraryReplica
    ) throws(JSONReader.Failure) {
        var id: String?
        var deletedAt: JournalStamp?
        var changes: [(JournalChange, JournalStamp)] = []
        try reader.readFields { (reader, field) throws(JSONReader.Failure) in
            switch field {
            case "id": id = try readName(&reader)
            case "fields":
                try reader.readObject { (reader, name) throws(JSONReader.Failure) in
                    let register = try readRegister(&reader, computers)
                    var scratch = Gallery(id: "", name: "")
                    guard JournalFields.setGalleryField(name, to: register.value, in: &scratch) else {
                        throw JSONReader.Failure(offset: 0)
                    }
                    changes.append((.setGalleryField("", name: name, value: register.value), register.stamp))
                }
            case "key":
                var stamp: JournalStamp?
                var key: String?
                try readTuple(&reader) { (reader, index) throws(JSONReader.Failure) in
                    switch index {
                    case 0: stamp = try readStamp(&reader, computers)
                    case 1: key = try reader.readString()
                    default: throw JSONReader.Failure(offset: 0)
                    }
                }
                guard let stamp, let key, PositionKey.isValid(key) else { throw JSONReader.Failure(offset: 0) }
                changes.append((.placeGallery("", key: key), stamp))
            case "deleted":
                var stamp: JournalStamp?
                var isDeleted: Bool?
                try readTuple(&reader) { (reader, index) throws(JSONReader.Failure) in
                    switch index {
                    case 0: stamp = try readStamp(&reader, computers)
                    case 1: isDeleted = try reader.readBool()
                    default: throw JSONReader.Failure(offset: 0)
                    }
                }
                guard let stamp, let isDeleted else { throw JSONReader.Failure(offset: 0) }
                changes.append((.setGalleryDeleted("", isDeleted), stamp))
            case "deletedAt":
                var stamp: JournalStamp?
                try readTuple(&reader) { (reader, index) throws(JSONReader.Failure) in
                    guard index == 0 else { throw JSONReader.Failure(offset: 0) }
                    stamp = try readStamp(&reader, computers)
                }
                guard let stamp else { throw JSONReader.Failure(offset: 0) }
                deletedAt = stamp
            default: try reader.skipValue()
            }
        }
        guard let id else { throw JSONReader.Failure(offset: 0) }
        for (change, stamp) in changes {
            switch change {
            case .setGalleryField(_, let name, let value):
                replica.apply(.setGalleryField(id, name: name, value: value), at: stamp)
            case .placeGallery(_, let key): replica.apply(.placeGallery(id, key: key), at: stamp)
            case .setGalleryDeleted(_, let isDeleted): replica.apply(.setGalleryDeleted(id, isDeleted), at: stamp)
            default: break
            }
            replica.clock = max(replica.clock, stamp.counter)
        }
        if let deletedAt {
            // The deletion itself (a `true` that lost to a later `false`) is known only by its stamp.
            let known = replica.galleries[id]?.deletedAt ?? deletedAt
            replica.galleries[id, default: LibraryReplica.GalleryRecord()].deletedAt = max(known, deletedAt)
            replica.clock = max(replica.clock, deletedAt.counter)
        }
    }

    /// One image's registers, taken in with one look-up of its id. Images come grouped by gallery, so that each
    /// names the gallery the one before it named (`previousGallery`), whose text it then shares.
    private static func readImage(
        _ reader: inout JSONReader, _ computers: [String], previousGallery: inout String,
        into replica: inout LibraryReplica
    ) throws(JSONReader.Failure) {
        var id: ImageID?
        var base: (stamp: JournalStamp, image: GalleryImage)?
        var fields: [(name: String, register: JournalRegister<RawJSON?>)] = []
        var placement: JournalRegister<JournalChange.ImagePlacement?>?
        try reader.readFields { (reader, field) throws(JSONReader.Failure) in
            switch field {
            case "id": id = ImageID(try readName(&reader))
            case "base":
                var stamp: JournalStamp?
                var image: GalleryImage?
                try readTuple(&reader) { (reader, index) throws(JSONReader.Failure) in
                    switch index {
                    case 0: stamp = try readStamp(&reader, computers)
                    case 1: image = try StateFileFormat.readImage(&reader)
                    default: throw JSONReader.Failure(offset: 0)
                    }
                }
                guard let stamp, let image, (1...JournalEntry.nameLimit).contains(image.id.rawValue.utf8.count)
                else { throw JSONReader.Failure(offset: 0) }
                base = (stamp, image)
            case "fields":
                try reader.readObject { (reader, name) throws(JSONReader.Failure) in
                    let register = try readRegister(&reader, computers)
                    guard JournalFields.isValidImageField(name, register.value) else {
                        throw JSONReader.Failure(offset: 0)
                    }
                    fields.append((name, register))
                }
            case "place":
                var stamp: JournalStamp?
                var gallery: String?
                var key: String?
                try readTuple(&reader) { (reader, index) throws(JSONReader.Failure) in
                    switch index {
                    case 0: stamp = try readStamp(&reader, computers)
                    case 1:
                        let name = try reader.readName()
                        if previousGallery.isEmpty || !name.isText(previousGallery) {
                            let text = name.text
                            guard (1...JournalEntry.nameLimit).contains(text.utf8.count) else {
                                throw JSONReader.Failure(offset: 0)
                            }
                            previousGallery = text
                        }
                        gallery = previousGallery
                    case 2: key = try reader.readString()
                    default: throw JSONReader.Failure(offset: 0)
                    }
                }
                guard let stamp, (gallery == nil) == (key == nil), key.map(PositionKey.isValid) ?? true else {
                    throw JSONReader.Failure(offset: 0)
                }
                let place = gallery.map { JournalChange.ImagePlacement(gallery: $0, key: key!) }
                placement = JournalRegister(stamp: stamp, value: place)
            default: try reader.skipValue()
            }
        }
        guard let imageID = base?.image.id ?? id, id == nil || base == nil else { throw JSONReader.Failure(offset: 0) }
        var record = LibraryReplica.ImageRecord()
        if let (stamp, arrived) = base {
            var image = arrived
            // As the state file writes it (JSON has no infinity), as `LibraryReplica.apply` takes an arrival in.
            if !image.aspectRatio.isFinite { image.aspectRatio = 0 }
            record.mergeBase(JournalRegister(stamp: stamp, value: image))
            replica.clock = max(replica.clock, stamp.counter)
        }
        for (name, register) in fields {
            record.mergeField(name, register)
            replica.clock = max(replica.clock, register.stamp.counter)
        }
        if let placement {
            record.mergePlacement(placement)
            replica.clock = max(replica.clock, placement.stamp.counter)
        }
        replica.images.merge(record, as: imageID)
    }

    /// `[stamp]` or `[stamp, value]`.
    private static func readRegister(_ reader: inout JSONReader, _ computers: [String]) throws(JSONReader.Failure)
        -> JournalRegister<RawJSON?>
    {
        var stamp: JournalStamp?
        var value: RawJSON?
        try readTuple(&reader) { (reader, index) throws(JSONReader.Failure) in
            switch index {
            case 0: stamp = try readStamp(&reader, computers)
            case 1: value = try reader.readRaw().compacted
            default: throw JSONReader.Failure(offset: 0)
            }
        }
        guard let stamp else { throw JSONReader.Failure(offset: 0) }
        return JournalRegister(stamp: stamp, value: value)
    }

    /// `[counter, index of the computer]`.
    private static func readStamp(_ reader: inout JSONReader, _ computers: [String]) throws(JSONReader.Failure)
        -> JournalStamp
    {
        var counter: UInt64?
        var computer: String?
        try readTuple(&reader) { (reader, index) throws(JSONReader.Failure) in
            switch index {
            case 0: counter = try readCounter(&reader)
            case 1:
                guard let number = try reader.readWholeNumber(atMost: UInt64(max(computers.count - 1, 0))),
                    computers.indices.contains(Int(number))
                else { throw JSONReader.Failure(offset: 0) }
                computer = computers[Int(number)]
            default: throw JSONReader.Failure(offset: 0)
            }
        }
        guard let counter, let computer else { throw JSONReader.Failure(offset: 0) }
        return JournalStamp(counter: counter, computer: computer)
    }

    private static func readCounter(_ reader: inout JSONReader) throws(JSONReader.Failure) -> UInt64 {
        guard let counter = try reader.readWholeNumber(atMost: JournalStamp.maximumCounter) else {
            throw JSONReader.Failure(offset: 0)
        }
        return counter
    }

    /// An id or a gallery's: a text of 1 to `JournalEntry.nameLimit` bytes.
    private static func readName(_ reader: inout JSONReader) throws(JSONReader.Failure) -> String {
        let name = try reader.readString()
        guard (1...JournalEntry.nameLimit).contains(name.utf8.count) else { throw JSONReader.Failure(offset: 0) }
        return name
    }

    /// An array whose elements `element` reads, given their index.
    private static func readTuple(
        _ reader: inout JSONReader, _ element: (inout JSONReader, Int) throws(JSONReader.Failure) -> Void
    ) throws(JSONReader.Failure) {
        var index = 0
        try reader.readArray { (reader) throws(JSONReader.Failure) in
            try element(&reader, index)
            index += 1
        }
    }
}
