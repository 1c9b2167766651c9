/// The whole library with its stamps, written now and then (`journal/snapshot-<computer>.json`) so that a launch
/// reads it and only the log entries written after it: the replica (`LibraryReplica`) and how far into each
/// computer's log it has taken in. One record (`JournalRecord`) holding one JSON object:
///
/// `{"format":1,"clock":N,"computers":[…],"covers":{"<computer>":offset},"settings":{name:[stamp,value]},
/// "galleries":[{"id","fields":{name:[stamp,value]},"key":[stamp,key],"deleted":[stamp,bool],"deletedAt":[stamp]}],
/// "imageCount":N,"images":[{"base":[stamp,{image}],"fields":{name:[stamp,value]},"place":[stamp,gallery,key]}]}`
///
/// A stamp is `[counter, n]`, `n` the index of its computer in `computers` (which comes first); a register without
/// its value (`[stamp]`) holds none: a field removed, an image deleted. An image without `base` names its `id`.
/// Images come grouped by gallery, so that a reader makes each gallery's id once (a launch reads every image).
public struct JournalSnapshot: Hashable, Sendable {
    /// The largest snapshot read: the state file's bound.
    public static let limit = StateFileBytes.limit
    static let format = 1

    public var replica: LibraryReplica
    /// For each computer's log, the offset just past the last of its entries `replica` holds. Taking an entry in
    /// twice changes nothing, so a log read from an earlier offset only costs time.
    public var covers: [String: Int]

    public init(replica: LibraryReplica, covers: [String: Int]) {
        self.replica = replica
        self.covers = covers
    }

    // MARK: Writing

    /// The snapshot as one record.
    public var encoded: [UInt8] { JournalRecord.frame(text) }

    var text: [UInt8] {
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
        var groups: [String: [Dictionary<ImageID, LibraryReplica.ImageRecord>.Index]] = [:]
        var unplaced: [Dictionary<ImageID, LibraryReplica.ImageRecord>.Index] = []
        for position in replica.images.indices {
            let record = replica.images[position].value
            if let base = record.base { _ = index(base.stamp.computer) }
            for register in record.fields.values { _ = index(register.stamp.computer) }
            if let placement = record.placement { _ = index(placement.stamp.computer) }
            if let gallery = record.placement?.value?.gallery {
                groups[gallery, default: []].append(position)
            } else {
                unplaced.append(position)
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
            writer.field("imageCount")
            writer.integer(replica.images.count)
            writer.field("images")
            writer.array { writer in
                for position in groups.keys.sorted().flatMap({ groups[$0]! }) + unplaced {
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
                            fields(&writer, record.fields)
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
        return writer.bytes
    }
}
