/// The library as a state-based CRDT: every value a register stamped by the change that set it, so that taking in
/// changes (`apply`) and other replicas (`merge`) in any order, any number of times, ends in the same library.
///
/// An image is one register for all the fields it arrived with (`base`: an image never edited costs one stamp),
/// one register per field edited since, and one for its place (gallery and position key, or deleted). A gallery is
/// a register per field (`name`…) and one for its place in the sidebar; each top-level setting is a register.
public struct LibraryReplica: Hashable, Sendable {
    struct ImageRecord: Hashable, Sendable {
        var base: JournalRegister<GalleryImage>?
        /// Fields set after `base`, by name: only those stamped later than it.
        var fields = ImageFieldRegisters()
        var placement: JournalRegister<JournalChange.ImagePlacement?>?

        mutating func mergeBase(_ register: JournalRegister<GalleryImage>) {
            if let base, !register.wins(over: base) { return }
            base = register
            fields.removeAll { $0.stamp <= register.stamp }
        }

        mutating func mergeField(_ name: String, _ register: JournalRegister<RawJSON?>) {
            if let base, base.stamp >= register.stamp { return }
            if fields[name]?.wins(over: register) == true { return }
            fields[name] = register
        }

        mutating func mergePlacement(_ register: JournalRegister<JournalChange.ImagePlacement?>) {
            if placement?.wins(over: register) == true { return }
            placement = register
        }

        mutating func merge(_ other: ImageRecord) {
            if let base = other.base { mergeBase(base) }
            for (name, register) in other.fields { mergeField(name, register) }
            if let placement = other.placement { mergePlacement(placement) }
        }

        /// The image as its registers make it; nil until its arrival is known.
        var image: GalleryImage? {
            guard var image = base?.value else { return nil }
            guard !fields.isEmpty else { return image }
            // Values were checked when read: setting them cannot fail.
            _ = JournalFields.setImageFields(fields.map { ($0.name, $0.register.value) }, in: &image)
            return image
        }
    }

    struct GalleryRecord: Hashable, Sendable {
        var fields: [String: JournalRegister<RawJSON?>] = [:]
        var key: JournalRegister<String>?
        var isDeleted: JournalRegister<Bool>?
        /// The latest deletion's stamp, kept when the gallery comes back: the images placed in it before stay hidden
        /// (an undo places them again).
        var deletedAt: JournalStamp?

        mutating func mergeField(_ name: String, _ register: JournalRegister<RawJSON?>) {
            if fields[name]?.wins(over: register) == true { return }
            fields[name] = register
        }

        mutating func mergeKey(_ register: JournalRegister<String>) {
            if key?.wins(over: register) != true { key = register }
        }

        mutating func mergeDeleted(_ register: JournalRegister<Bool>) {
            if isDeleted?.wins(over: register) != true { isDeleted = register }
            if register.value { deletedAt = max(deletedAt ?? register.stamp, register.stamp) }
        }

        mutating func merge(_ other: GalleryRecord) {
            for (name, register) in other.fields { mergeField(name, register) }
            if let key = other.key { mergeKey(key) }
            if let isDeleted = other.isDeleted { mergeDeleted(isDeleted) }
            if let stamp = other.deletedAt { deletedAt = max(deletedAt ?? stamp, stamp) }
        }

        /// Whether an image placed in it under `stamp` shows: not when it was deleted later (even if back since).
        func shows(placedAt stamp: JournalStamp) -> Bool {
            guard key != nil else { return false }
            return deletedAt.map { stamp > $0 } ?? true
        }
    }

    /// The largest counter of any change taken in: this computer's next change is stamped one more.
    public internal(set) var clock: UInt64 = 0
    var settings: [String: JournalRegister<RawJSON?>] = [:]
    var galleries: [String: GalleryRecord] = [:]
    var images = ReplicaImageTable()

    /// An empty library: no gallery, no image.
    public init() {}

    /// The library of `state` (an older version's `state.json`), as one change of `computer`'s: every value stamped
    /// alike and every position key made from its index, so that two computers carrying over one file make the same
    /// library.
    public init(carryingOver state: GalleryState, by computer: String) {
        let stamp = JournalStamp(counter: 1, computer: computer)
        clock = 1
        images.reserveCapacity(state.galleries.reduce(0) { $0 + $1.images.count })
        for (name, value) in JournalFields.stateFields(state) {
            settings[name] = JournalRegister(stamp: stamp, value: value)
        }
        for (gallery, galleryKey) in zip(state.galleries, PositionKey.evenlySpaced(state.galleries.count)) {
            var record = GalleryRecord()
            for (name, value) in JournalFields.galleryFields(gallery) {
                record.fields[name] = JournalRegister(stamp: stamp, value: value)
            }
            record.key = JournalRegister(stamp: stamp, value: galleryKey)
            galleries[gallery.id] = record
            for (var image, key) in zip(gallery.images, PositionKey.evenlySpaced(gallery.images.count)) {
                if !image.aspectRatio.isFinite { image.aspectRatio = 0 }
                let record = ImageRecord(
                    base: JournalRegister(stamp: stamp, value: image),
                    placement: JournalRegister(
                        stamp: stamp, value: JournalChange.ImagePlacement(gallery: gallery.id, key: key)))
                // An id the file holds twice keeps its last record.
                images.modify(image.id) { $0 = record }
            }
        }
    }

    // MARK: Taking in

    /// Takes in one entry's changes.
    public mutating func apply(_ entry: JournalEntry) {
        clock = max(clock, entry.stamp.counter)
        for change in entry.changes { apply(change, at: entry.stamp) }
    }

    mutating func apply(_ change: JournalChange, at stamp: JournalStamp) {
        switch change {
        case .addImage(var image):
            // As the state file writes it (JSON has no infinity): every computer holds the value it reads.
            if !image.aspectRatio.isFinite { image.aspectRatio = 0 }
            images.modify(image.id) { $0.mergeBase(JournalRegister(stamp: stamp, value: image)) }
        case .setImageField(let id, let name, let value):
            images.modify(id) { $0.mergeField(name, JournalRegister(stamp: stamp, value: value)) }
        case .placeImage(let id, let placement):
            images.modify(id) { $0.mergePlacement(JournalRegister(stamp: stamp, value: placement)) }
        case .setGalleryField(let id, let name, let value):
            galleries[id, default: GalleryRecord()].mergeField(name, JournalRegister(stamp: stamp, value: value))
        case .placeGallery(let id, let key):
            galleries[id, default: GalleryRecord()].mergeKey(JournalRegister(stamp: stamp, value: key))
        case .setGalleryDeleted(let id, let isDeleted):
            galleries[id, default: GalleryRecord()].mergeDeleted(JournalRegister(stamp: stamp, value: isDeleted))
        case .setSetting(let name, let value):
            let register = JournalRegister(stamp: stamp, value: value)
            if settings[name]?.wins(over: register) != true { settings[name] = register }
        }
    }

    /// Takes in everything `other` holds (a snapshot, another computer's replica).
    public mutating func merge(_ other: LibraryReplica) {
        clock = max(clock, other.clock)
        for (name, register) in other.settings where settings[name]?.wins(over: register) != true {
            settings[name] = register
        }
        for (id, record) in other.galleries { galleries[id, default: GalleryRecord()].merge(record) }
        if images.count + other.images.count > images.capacity {
            // Room for exactly the new ones: grown by appends, the arrays would end up to twice what they hold.
            images.reserveCapacity(images.count + images.countMissing(from: other.images))
        }
        for (id, record) in other.images { images.merge(record, as: id) }
    }

    /// Stamps `changes` as `computer`'s next entries and takes them in: one entry, or several of at most
    /// `JournalEntry.batchLimit` bytes each for a large edit (a drop of thousands).
    public mutating func commit(_ changes: [JournalChange], by computer: String) -> [JournalEntry] {
        let entries = entries(committing: changes, by: computer)
        for entry in entries { apply(entry) }
        return entries
    }

    /// The entries `commit` would make of `changes`, this replica left as it is: a caller that takes them in only
    /// once they are written spares a copy of the whole replica.
    public func entries(committing changes: [JournalChange], by computer: String) -> [JournalEntry] {
        guard !changes.isEmpty else { return [] }
        var batches: [[JournalChange]] = [[]]
        var size = 0
        for change in changes.sorted(by: { $0.batchOrder < $1.batchOrder }) {
            let changeSize = JournalEntry.encodedSize(of: change)
            if size + changeSize > JournalEntry.batchLimit, !batches[batches.count - 1].isEmpty {
                batches.append([])
                size = 0
            }
            batches[batches.count - 1].append(change)
            size += changeSize
        }
        var counter = clock
        return batches.map { batch in
            counter = min(counter + 1, JournalStamp.maximumCounter)
            return JournalEntry(stamp: JournalStamp(counter: counter, computer: computer), changes: batch)
        }
    }

    // MARK: The library

    /// The position key of a shown image, of a gallery.
    func key(of image: ImageID) -> String? {
        images.position(of: image).flatMap { images.records[$0].placement?.value?.key }
    }
    func key(ofGallery id: String) -> String? { galleries[id]?.key?.value }

    /// The library as the state file holds it. An image shows in its gallery when the gallery exists and is not
    /// deleted, or was deleted before the image was placed in it (another computer moved it there meanwhile): such a
    /// gallery shows, with those images only. Galleries and images are in the order of their keys (ties: ids).
    public var state: GalleryState {
        var state = GalleryState(galleries: [])
        for name in settings.keys.sorted() {
            _ = JournalFields.setStateField(name, to: settings[name]!.value, in: &state)
        }
        var members: [String: [(key: String, image: GalleryImage)]] = [:]
        for record in images.records {
            guard let placement = record.placement, let place = placement.value,
                galleries[place.gallery]?.shows(placedAt: placement.stamp) == true, let image = record.image
            else { continue }
            members[place.gallery, default: []].append((place.key, image))
        }
        var shown: [(key: String, gallery: Gallery)] = []
        for (id, record) in galleries {
            guard let key = record.key?.value, record.isDeleted?.value != true || members[id] != nil else { continue }
            var gallery = Gallery(id: id, name: "")
            for name in record.fields.keys.sorted() {
                _ = JournalFields.setGalleryField(name, to: record.fields[name]!.value, in: &gallery)
            }
            gallery.images = (members[id] ?? [])
                .sorted { ($0.key, $0.image.id.rawValue) < ($1.key, $1.image.id.rawValue) }.map(\.image)
            shown.append((key, gallery))
        }
        state.galleries = shown.sorted { ($0.key, $0.gallery.id) < ($1.key, $1.gallery.id) }.map(\.gallery)
        return state
    }
}
