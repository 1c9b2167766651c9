/// The whole library with its stamps, written now and then (`journal/snapshot-<computer>.json`) so that a launch
/// reads it and only the log entries written after it: the replica (`LibraryReplica`) and how far into each
/// computer's log it has taken in. Records (`JournalRecord`) each holding one JSON object: first the table of
/// contents, then one section per gallery's images, in the order the table lists them, so that a launch reads the
/// table and the shown gallery's section before its first screen and the rest after it.
///
/// `{"format":2,"clock":N,"computers":[…],"covers":{"<computer>":offset},"settings":{name:[stamp,value]},
/// "galleries":[{"id","fields":{name:[stamp,value]},"key":[stamp,key],"deleted":[stamp,bool],"deletedAt":[stamp]}],
/// "sections":[{"gallery":id,"imageCount":N,"length":bytes}]}`, then each section
/// `{"images":[{"base":[stamp,{image}],"fields":{name:[stamp,value]},"place":[stamp,gallery,key]}]}`; the images
/// without a place in a last section without `gallery`. Format 1 was the table with `imageCount` and `images` in it.
///
/// A stamp is `[counter, n]`, `n` the index of its computer in `computers` (which comes first); a register without
/// its value (`[stamp]`) holds none: a field removed, an image deleted. An image without `base` names its `id`.
public struct JournalSnapshot: Hashable, Sendable {
    /// The largest snapshot read: the state file's bound.
    public static let limit = StateFileBytes.limit
    static let format = 2

    public var replica: LibraryReplica
    /// For each computer's log, the offset just past the last of its entries `replica` holds. Taking an entry in
    /// twice changes nothing, so a log read from an earlier offset only costs time.
    public var covers: [String: Int]

    public init(replica: LibraryReplica, covers: [String: Int]) {
        self.replica = replica
        self.covers = covers
    }

    // MARK: Writing

    /// One gallery's images (`gallery` nil: the images without a place), as a record after the table of contents.
    public struct Section: Hashable, Sendable {
        public var gallery: String?
        public var imageCount: Int
        /// The record's length, header and newline included: each section starts where the one before ends.
        public var length: Int
    }

    /// The snapshot as its records: the table of contents, then the sections.
    public var encoded: [UInt8] {
        var computers: [String] = []
        var indices: [String: Int] = [:]
        // Most stamps name the computer the one before named: compared first, the text is not hashed.
        var previous: (computer: String, index: Int) = ("", 0)
        func index(_ computer: String) -> Int {
            if computer == previous.computer { return previous.index }
            let index = indices[computer] ?? computers.count
            if index == computers.count {
                indices[computer] = index
                computers.append(computer)
            }
            previous = (computer, index)
            return index
        }
        // Every stamp's computer first, so that `computers` is written before any stamp.
        for register in replica.settings.values { _ = index(register.stamp.computer) }
        for record in replica.galleries.values {
            for register in record.fields.values { _ = index(register.stamp.computer) }
            if let key = record.key { _ = index(key.stamp.computer) }
            if let isDeleted = record.isDeleted { _ = index(isDeleted.stamp.computer) }
            if let deletedAt = record.deletedAt { _ = index(deletedAt.computer) }
        }
        // Images grouped by gallery, so that a reader shares each gallery's id among its images.
        var groups: [(gallery: String, positions: [Int])] = []
        var groupIndices: [String: Int] = [:]
        var unplaced: [Int] = []
        let images = replica.images.records
        for position in images.indices {
            if let computer = images[position].base?.stamp.computer { _ = index(computer) }
            for (_, register) in images[position].fields { _ = index(register.stamp.computer) }
            guard let placement = images[position].placement else {
                unplaced.append(position)
                continue
            }
            _ = index(placement.stamp.computer)
            guard let gallery = placement.value?.gallery else {
                unplaced.append(position)
                continue
            }
            // Images mostly come in by gallery: the one before's gallery is compared first, not hashed.
            if let last = groups.indices.last, groups[last].gallery == gallery {
                groups[last].positions.append(position)
            } else if let group = groupIndices[gallery] {
                groups[group].positions.append(position)
            } else {
                groupIndices[gallery] = groups.count
                groups.append((gallery, [position]))
            }
        }
        var writer = JSONWriter(compact: true)
        let stamp = { (writer: inout JSONWriter, stamp: JournalStamp) in
            writer.element()
            writer.array { writer in
                writer.element()
                writer.integer(Int(stamp.counter))
                writer.element()
                writer.integer(index(stamp.computer))
            }
        }
        let register = { (writer: inout JSONWriter, register: JournalRegister<RawJSON?>) in
            writer.array { writer in
                stamp(&writer, register.stamp)
                if let value = register.value {
                    writer.element()
                    writer.value(value)
                }
            }
        }
        let fields = { (writer: inout JSONWriter, registers: [String: JournalRegister<RawJSON?>]) in
            writer.object { writer in
                for name in registers.keys.sorted() {
                    writer.field(name)
                    register(&writer, registers[name]!)
                }
            }
        }
        let imageFields = { (writer: inout JSONWriter, registers: ImageFieldRegisters) in
            writer.object { writer in
                for (name, value) in registers {
                    writer.field(name)
                    register(&writer, value)
                }
            }
        }
        // Each gallery's images a record of its own, in the order of the galleries' ids, the images without a place
        // last: a reader makes each gallery's id once, and a launch reads the shown gallery's alone.
        var sections: [Section] = []
        var records: [[UInt8]] = []
        let sectioned =
            groups.sorted { $0.gallery < $1.gallery }.map { ($0.gallery as String?, $0.positions) }
            + (unplaced.isEmpty ? [] : [(nil, unplaced)])
        for (gallery, positions) in sectioned {
            var section = JSONWriter(compact: true)
            section.object { writer in
                writer.field("images")
                writer.array { writer in
                    for position in positions {
                        let (id, record) = replica.images[position]
                        writer.element()
                        writer.object { writer in
                            if let base = record.base {
                                writer.field("base")
                                writer.array { writer in
                                    stamp(&writer, base.stamp)
                                    writer.element()
                                    StateFileFormat.write(base.value, to: &writer)
                                }
                            } else {
                                writer.field("id")
                                writer.string(id.rawValue)
                            }
                            if !record.fields.isEmpty {
                                writer.field("fields")
                                imageFields(&writer, record.fields)
                            }
                            if let placement = record.placement {
                                writer.field("place")
                                writer.array { writer in
                                    stamp(&writer, placement.stamp)
                                    if let place = placement.value {
                                        writer.element()
                                        writer.string(place.gallery)
                                        writer.element()
                                        writer.string(place.key)
                                    }
                                }
                            }
                        }
                    }
                }
            }
            let framed = JournalRecord.frame(section.bytes)
            sections.append(Section(gallery: gallery, imageCount: positions.count, length: framed.count))
            records.append(framed)
        }
        writer.object { writer in
            writer.field("format")
            writer.integer(Self.format)
            writer.field("clock")
            writer.integer(Int(replica.clock))
            writer.field("computers")
            writer.value(.array(computers.map(JSONValue.string)))
            writer.field("covers")
            writer.value(.object(covers.mapValues { JSONValue.number($0) }))
            writer.field("settings")
            fields(&writer, replica.settings)
            writer.field("galleries")
            writer.array { writer in
                for id in replica.galleries.keys.sorted() {
                    let record = replica.galleries[id]!
                    writer.element()
                    writer.object { writer in
                        writer.field("id")
                        writer.string(id)
                        writer.field("fields")
                        fields(&writer, record.fields)
                        if let key = record.key {
                            writer.field("key")
                            writer.array { writer in
                                stamp(&writer, key.stamp)
                                writer.element()
                                writer.string(key.value)
                            }
                        }
                        if let isDeleted = record.isDeleted {
                            writer.field("deleted")
                            writer.array { writer in
                                stamp(&writer, isDeleted.stamp)
                                writer.element()
                                writer.bool(isDeleted.value)
                            }
                        }
                        if let deletedAt = record.deletedAt {
                            writer.field("deletedAt")
                            writer.array { writer in stamp(&writer, deletedAt) }
                        }
                    }
                }
            }
            writer.field("sections")
            writer.array { writer in
                for section in sections {
                    writer.element()
                    writer.object { writer in
                        if let gallery = section.gallery {
                            writer.field("gallery")
                            writer.string(gallery)
                        }
                        writer.field("imageCount")
                        writer.integer(section.imageCount)
                        writer.field("length")
                        writer.integer(section.length)
                    }
                }
            }
        }
        var bytes = JournalRecord.frame(writer.bytes)
        bytes.reserveCapacity(bytes.count + sections.reduce(0) { $0 + $1.length })
        for record in records { bytes += record }
        return bytes
    }
}
