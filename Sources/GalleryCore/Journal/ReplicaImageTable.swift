/// The replica's images by id (`LibraryReplica.images`): ids and records in two dense arrays, in the order they
/// came in, and an open-addressed table of their positions. A dictionary of records kept at most 3/4 of a power of two
/// of buckets full, each bucket the size of a whole record (some 150 bytes), so more than half of it was empty
/// buckets; here an empty bucket is 4 bytes. Nothing is ever removed: the replica never forgets an image (a deleted
/// one is a placement of nil).
///
/// Equal and hashed by content, as a dictionary is: two tables holding the same records, taken in in another order,
/// are equal and hash alike.
struct ReplicaImageTable: Hashable, Sendable, RandomAccessCollection {
    typealias Record = LibraryReplica.ImageRecord

    private(set) var ids: ContiguousArray<ImageID> = []
    private(set) var records: ContiguousArray<Record> = []
    /// One more than the position of the image whose id hashes to the bucket, or to one before it when that was
    /// taken (linear probing); 0: empty. A power of two of them, at most 3/4 taken.
    private var buckets: ContiguousArray<UInt32> = []

    init() {}

    var startIndex: Int { 0 }
    var endIndex: Int { ids.count }

    /// How many images the arrays hold without growing.
    var capacity: Int { records.capacity }

    subscript(position: Int) -> (id: ImageID, record: Record) { (ids[position], records[position]) }

    /// The record of `id`; nil when it names no image taken in.
    subscript(id: ImageID) -> Record? { position(of: id).map { records[$0] } }

    /// Where the record of `id` is in `records`, for a caller that reads one of its registers without copying it
    /// whole; nil when it names no image taken in.
    func position(of id: ImageID) -> Int? {
        guard case .found(let position) = find(id) else { return nil }
        return position
    }

    /// Room for `count` images in all, made at once: a snapshot's reader knows how many come, and arrays grown one
    /// append at a time end up to twice as large as what they hold.
    mutating func reserveCapacity(_ count: Int) {
        guard count > capacity || Self.bucketCount(for: count) > buckets.count else { return }
        ids.reserveCapacity(count)
        records.reserveCapacity(count)
        if Self.bucketCount(for: count) > buckets.count { rehash(into: Self.bucketCount(for: count)) }
    }

    /// Changes the record of `id` in place, an empty one first when it names no image yet.
    mutating func modify(_ id: ImageID, _ body: (inout Record) -> Void) {
        switch find(id) {
        case .found(let position): body(&records[position])
        case .missing(let bucket):
            var record = Record()
            body(&record)
            append(id, record, at: bucket)
        }
    }

    /// Takes `record` in as `id`'s: merged into the one held, or held as it is.
    mutating func merge(_ record: Record, as id: ImageID) {
        switch find(id) {
        case .found(let position): records[position].merge(record)
        case .missing(let bucket): append(id, record, at: bucket)
        }
    }

    /// How many of `other`'s ids this table lacks.
    func countMissing(from other: ReplicaImageTable) -> Int {
        other.ids.reduce(0) { count, id in
            if case .missing = find(id) { return count + 1 }
            return count
        }
    }

    static func == (left: ReplicaImageTable, right: ReplicaImageTable) -> Bool {
        guard left.count == right.count else { return false }
        if left.ids == right.ids { return left.records == right.records }
        return zip(left.ids, left.records).allSatisfy { id, record in right[id] == record }
    }

    func hash(into hasher: inout Hasher) {
        // Each image's hash combined in an order-free way, as a dictionary's are.
        var images = 0
        for (id, record) in zip(ids, records) {
            var image = Hasher()
            image.combine(id)
            image.combine(record)
            images ^= image.finalize()
        }
        hasher.combine(count)
        hasher.combine(images)
    }

    // MARK: The table of positions

    private enum Found {
        case found(position: Int)
        /// The empty bucket where the id would go.
        case missing(bucket: Int)
    }

    private func find(_ id: ImageID) -> Found {
        guard !buckets.isEmpty else { return .missing(bucket: 0) }
        let mask = buckets.count - 1
        var bucket = id.hashValue & mask
        while true {
            let entry = buckets[bucket]
            if entry == 0 { return .missing(bucket: bucket) }
            if ids[Int(entry - 1)] == id { return .found(position: Int(entry - 1)) }
            bucket = (bucket + 1) & mask
        }
    }

    private mutating func append(_ id: ImageID, _ record: Record, at bucket: Int) {
        precondition(ids.count < Int(UInt32.max), untranslated("more images than a 32-bit position names"))
        let position = ids.count
        ids.append(id)
        records.append(record)
        if Self.bucketCount(for: ids.count) > buckets.count {
            rehash(into: Self.bucketCount(for: ids.count))
        } else {
            buckets[bucket] = UInt32(position + 1)
        }
    }

    /// The buckets made anew, `count` of them, for every id held.
    private mutating func rehash(into count: Int) {
        buckets = ContiguousArray(repeating: 0, count: count)
        let mask = count - 1
        for (position, id) in ids.enumerated() {
            var bucket = id.hashValue & mask
            while buckets[bucket] != 0 { bucket = (bucket + 1) & mask }
            buckets[bucket] = UInt32(position + 1)
        }
    }

    /// The least power of two of buckets (at least 8) of which `count` take at most 3/4.
    private static func bucketCount(for count: Int) -> Int {
        var buckets = 8
        while count > buckets / 4 * 3 { buckets *= 2 }
        return buckets
    }
}
