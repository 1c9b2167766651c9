/// Which version of the state file a write is (`revision`, a random id) and the versions it was made
/// from (`ancestors`, newest first): two computers whose sync tool put one's file over the other's
/// find, from these, the newest state both had, and merge against it instead of taking what one never
/// saw for deleted. Kept in the file's top-level fields `revision` and `ancestors` (`StateFileFormat`).
struct Lineage: Equatable, Sendable {
    /// Enough for the edits two computers make between two exchanges; keeps the file small.
    static let limit = 64

    let revision: String
    let ancestors: [String]

    init(revision: String, takenIn: [Lineage]) {
        self.revision = revision
        var seen = Set<String>()
        ancestors = Array(
            takenIn.flatMap { [$0.revision] + $0.ancestors }.filter { seen.insert($0).inserted }.prefix(Self.limit))
    }

    private init(revision: String, ancestors: [String]) {
        self.revision = revision
        self.ancestors = ancestors
    }

    var all: Set<String> { Set([revision] + ancestors) }

    /// The state without its lineage's fields: what `split` gives, without naming a file that has none.
    static func withoutLineage(_ state: GalleryState) -> GalleryState {
        var clean = state
        clean.unknownFields.removeValue(forKey: StateFileFormat.revisionField)
        clean.unknownFields.removeValue(forKey: StateFileFormat.ancestorsField)
        return clean
    }

    /// The state without its lineage fields, and its lineage.
    static func split(_ state: GalleryState) -> (state: GalleryState, lineage: Lineage?) {
        let clean = withoutLineage(state)
        return (clean, written(in: state) ?? named(byContentOf: clean))
    }

    /// The lineage a copy of this version wrote into the state's fields; nil in a file none wrote.
    static func written(in state: GalleryState) -> Lineage? {
        guard case .string(let id)? = state.unknownFields[StateFileFormat.revisionField]?.value else { return nil }
        var names: [String] = []
        if case .array(let values)? = state.unknownFields[StateFileFormat.ancestorsField]?.value {
            for case .string(let name) in values { names.append(name) }
        }
        return Lineage(revision: id, ancestors: names)
    }

    /// A file no copy of this version wrote (by hand, an older version) is named by its content, so that two
    /// computers that start from it name it alike.
    static func named(byContentOf clean: GalleryState) -> Lineage {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        // Over the bytes in place: Data's iterator took most of a 50,000-image launch's hashing, and a copy of
        // them into an array was one more copy of the file in memory.
        StateStore.encode(clean).withUnsafeBytes { bytes in
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        return Lineage(revision: "content-" + String(hash, radix: 16), ancestors: [])
    }

    func stamped(_ state: GalleryState) -> GalleryState {
        var stamped = state
        stamped.unknownFields[StateFileFormat.revisionField] = RawJSON(.string(revision))
        stamped.unknownFields[StateFileFormat.ancestorsField] = RawJSON(.array(ancestors.map { .string($0) }))
        return stamped
    }

    /// The states a copy of the app wrote or read lately, oldest first.
    struct History: Sendable {
        private var entries: [(state: GalleryState, lineage: Lineage?)] = []

        mutating func add(_ state: GalleryState, _ lineage: Lineage?) {
            entries.append((state, lineage))
            if entries.count > Lineage.limit { entries.removeFirst() }
        }

        var oldest: GalleryState? { entries.first?.state }

        /// `state` with the galleries, and in a changed gallery the images, that are alike in `other` taken from
        /// `other`, so that they share its storage: a state read from a file holds its own copy of everything.
        static func sharingStorage(of state: GalleryState, with other: GalleryState) -> GalleryState {
            let theirs = Dictionary(other.galleries.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            var shared = state
            shared.galleries = state.galleries.map { gallery in
                guard let same = theirs[gallery.id] else { return gallery }
                if same == gallery { return same }
                let images = Dictionary(same.images.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                var sharing = gallery
                sharing.images = gallery.images.map { image in
                    images[image.id].flatMap { $0 == image ? $0 : nil } ?? image
                }
                return sharing
            }
            if shared.smartGalleries == other.smartGalleries { shared.smartGalleries = other.smartGalleries }
            return shared
        }

        /// Gives the launch's entry (the newest, `state`, no lineage yet) the lineage it was read with.
        mutating func name(_ lineage: Lineage, ofLaunch state: GalleryState) {
            guard let last = entries.last, last.lineage == nil, last.state == state else { return }
            entries[entries.count - 1].lineage = lineage
        }

        /// The lineages of the newest few entries: what a new write was made from.
        var recentLineages: [Lineage] { entries.suffix(4).reversed().compactMap(\.lineage) }

        /// The newest state every one of `lineages` was made from (or is); nil when there is none known.
        func newest(commonTo lineages: [Lineage?]) -> GalleryState? {
            let sets = lineages.map { $0?.all ?? [] }
            return entries.last { entry in
                guard let revision = entry.lineage?.revision else { return false }
                return sets.allSatisfy { $0.contains(revision) }
            }?.state
        }
    }
}
