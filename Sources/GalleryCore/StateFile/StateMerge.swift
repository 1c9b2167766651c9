/// Merging two sets of changes made to the same file (two copies of the app, two computers through a
/// sync tool): what only one side changed is taken from it; where both changed a list (the galleries,
/// a gallery's images), each side's additions, deletions and moves are kept (`mergedOrder`). Where
/// both changed one value differently, the same side wins whichever side merges, so two computers
/// that merge each other's files end with the same state.
extension GalleryState {
    public static func merged(base: GalleryState, theirs: GalleryState, ours: GalleryState) -> GalleryState {
        let baseByID = Dictionary(base.galleries.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let theirsByID = Dictionary(theirs.galleries.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let oursByID = Dictionary(ours.galleries.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        /// Deleted on one side is gone, unless the other side changed it since.
        func keptGallery(_ id: String) -> Bool {
            guard let original = baseByID[id] else { return true }
            switch (theirsByID[id], oursByID[id]) {
            case (.some, .some): return true
            case (let only?, nil), (nil, let only?): return only != original
            case (nil, nil): return false
            }
        }
        let sides = ImageSides(base: base, theirs: theirs, ours: ours)
        let order = mergedOrder(
            base: base.galleries.map(\.id), theirs: theirs.galleries.map(\.id), ours: ours.galleries.map(\.id),
            key: { $0 }, kept: keptGallery)
        var galleries: [Gallery] = order.map { id in
            switch (theirsByID[id], oursByID[id]) {
            case (let their?, let our?):
                return merged(
                    base: baseByID[id] ?? Gallery(id: id, name: "", images: []), theirs: their, ours: our, sides: sides)
            case (let only?, nil), (nil, let only?): return only
            case (nil, nil): preconditionFailure(untranslated("a merged gallery comes from a side"))
            }
        }
        // An image's fields come from every side's copy of it, wherever it is: a note written on one
        // side reaches the image the other side moved into another gallery.
        for galleryIndex in galleries.indices {
            for imageIndex in galleries[galleryIndex].images.indices {
                galleries[galleryIndex].images[imageIndex] = sides.merged(galleries[galleryIndex].images[imageIndex])
            }
        }
        var result = ours
        result.version = max(theirs.version, ours.version)
        result.galleries =
            galleries.isEmpty ? (theirs.galleries.isEmpty ? ours.galleries : theirs.galleries) : galleries
        result.shownGalleryID = pick(base.shownGalleryID, theirs.shownGalleryID, ours.shownGalleryID)
        result.sidebarVisible = pick(base.sidebarVisible, theirs.sidebarVisible, ours.sidebarVisible)
        result.playAnimations = pick(base.playAnimations, theirs.playAnimations, ours.playAnimations)
        result.smartGalleries = pick(base.smartGalleries, theirs.smartGalleries, ours.smartGalleries)
        result.unknownFields = mergedFields(
            base: base.unknownFields, theirs: theirs.unknownFields, ours: ours.unknownFields)
        return result
    }

    /// A merge with no common state known (two libraries met for the first time): nothing counts as
    /// deleted, so everything either side has is kept.
    public static func merged(theirs: GalleryState, ours: GalleryState) -> GalleryState {
        merged(base: GalleryState(galleries: []), theirs: theirs, ours: ours)
    }

    /// The side that changed it; when both changed it differently, the one whose text sorts first.
    /// `base` is nil when there is none (both sides made it).
    static func pick<Value: Equatable>(_ base: Value?, _ theirs: Value, _ ours: Value) -> Value {
        if theirs == ours { return ours }
        if let base, ours == base { return theirs }
        if let base, theirs == base { return ours }
        return String(describing: ours) < String(describing: theirs) ? ours : theirs
    }

    /// Field by field: a field only one side changed (or added, or removed) comes from that side.
    private static func mergedFields(base: [String: RawJSON], theirs: [String: RawJSON], ours: [String: RawJSON])
        -> [String: RawJSON]
    {
        var result: [String: RawJSON] = [:]
        for key in Set(base.keys).union(theirs.keys).union(ours.keys) {
            result[key] = pick(.some(base[key]), theirs[key], ours[key])
        }
        return result
    }

    private static func merged(base: Gallery, theirs: Gallery, ours: Gallery, sides: ImageSides) -> Gallery {
        var result = ours
        result.name = pick(base.name, theirs.name, ours.name)
        result.unknownFields = mergedFields(
            base: base.unknownFields, theirs: theirs.unknownFields, ours: ours.unknownFields)
        if ours.images == base.images {
            result.images = theirs.images
        } else if theirs.images != base.images && theirs.images != ours.images {
            result.images = mergedImages(base: base.images, theirs: theirs.images, ours: ours.images, sides: sides)
        }
        return result
    }

    /// Both sides changed a gallery's images. Added on either side is in; deleted on either side is
    /// gone, unless the other side changed its note or tags since and it was not moved to another gallery.
    private static func mergedImages(
        base: [GalleryImage], theirs: [GalleryImage], ours: [GalleryImage], sides: ImageSides
    ) -> [GalleryImage] {
        let baseImages = Dictionary(base.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let theirsImages = Dictionary(theirs.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let oursImages = Dictionary(ours.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        func kept(_ id: ImageID) -> Bool {
            guard let original = baseImages[id] else { return true }
            switch (theirsImages[id], oursImages[id]) {
            case (.some, .some): return true
            case (let only?, nil): return userChanged(only, from: original) && !sides.ours.keys.contains(id)
            case (nil, let only?): return userChanged(only, from: original) && !sides.theirs.keys.contains(id)
            case (nil, nil): return false
            }
        }
        let order = mergedOrder(
            base: base.map(\.id), theirs: theirs.map(\.id), ours: ours.map(\.id), key: \.rawValue, kept: kept)
        return order.compactMap { oursImages[$0] ?? theirsImages[$0] }
    }

    /// Whether the user's own words about an image changed (its note, its tags): what the app records
    /// by itself (its kept original, its measured shape) does not save an image the other side deleted.
    private static func userChanged(_ image: GalleryImage, from original: GalleryImage) -> Bool {
        image.note != original.note || image.tags != original.tags
    }

    /// Two sides' orders of one list merged: items neither side moved keep the order they share; then
    /// each side's moved and added items go right after the item before them on that side (first
    /// when none is). The side whose order comes first by `key` goes first and wins an item both
    /// moved, so the merge is the same whichever side makes it. `kept` says which items stay.
    static func mergedOrder<ID: Hashable>(
        base: [ID], theirs: [ID], ours: [ID], key: (ID) -> String, kept: (ID) -> Bool
    ) -> [ID] {
        let baseIDs = Set(base)
        let sides = [ours, theirs].sorted { $0.lazy.map(key).lexicographicallyPrecedes($1.lazy.map(key)) }
        let commonBase = base.filter(kept)
        let placedBySide = sides.map { side in
            let ids = side.filter(kept)
            let moved = movedItems(from: commonBase, to: ids.filter { baseIDs.contains($0) })
            return Set(ids.filter { !baseIDs.contains($0) || moved.contains($0) })
        }
        var order = OrderedIDs(commonBase.filter { !placedBySide[0].contains($0) && !placedBySide[1].contains($0) })
        for (side, placed) in zip(sides, placedBySide) {
            var previous: ID?
            for id in side where kept(id) {
                if placed.contains(id) && !order.contains(id) { order.insert(id, after: previous) }
                if order.contains(id) { previous = id }
            }
        }
        return order.ids
    }

    /// The items of `after` that are not where they were in `before`: those outside a longest run
    /// kept in order, found as the longest increasing sequence of their places.
    private static func movedItems<ID: Hashable>(from before: [ID], to after: [ID]) -> Set<ID> {
        let place = Dictionary(before.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let places = after.map { place[$0]! }
        // Patience sorting: tails[k] ends the best run of length k + 1; links lead back along it.
        var tails: [Int] = []
        var links = [Int](repeating: -1, count: places.count)
        for index in places.indices {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if places[tails[middle]] < places[index] { low = middle + 1 } else { high = middle }
            }
            if low > 0 { links[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var stayed = Set<ID>()
        var index = tails.last ?? -1
        while index >= 0 {
            stayed.insert(after[index])
            index = links[index]
        }
        return Set(after).subtracting(stayed)
    }
}

/// Ids in an order that grows by insertions after a given id, each in constant time on average:
/// a linked list over the ids, read out once at the end.
private struct OrderedIDs<ID: Hashable> {
    private var next: [ID: ID] = [:]
    private var head: ID?
    private var tail: ID?

    init(_ ids: [ID]) {
        for id in ids { insert(id, after: tail) }
    }

    func contains(_ id: ID) -> Bool { next[id] != nil || tail == id }

    /// Inserts `id` after `previous`, or at the start when nil.
    mutating func insert(_ id: ID, after previous: ID?) {
        if let previous {
            if let following = next[previous] {
                next[id] = following
            } else {
                tail = id
            }
            next[previous] = id
        } else {
            if let head { next[id] = head } else { tail = id }
            head = id
        }
    }

    var ids: [ID] {
        var result: [ID] = []
        var current = head
        while let id = current {
            result.append(id)
            current = next[id]
        }
        return result
    }
}

/// Every image of each side by id, whatever gallery holds it: an image's fields are merged from
/// all three, and an image one side moved to another gallery is not deleted by that side.
private struct ImageSides {
    let base: [ImageID: GalleryImage]
    let theirs: [ImageID: GalleryImage]
    let ours: [ImageID: GalleryImage]

    init(base: GalleryState, theirs: GalleryState, ours: GalleryState) {
        func byID(_ state: GalleryState) -> [ImageID: GalleryImage] {
            Dictionary(state.galleries.flatMap(\.images).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        }
        self.base = byID(base)
        self.theirs = byID(theirs)
        self.ours = byID(ours)
    }

    /// The image with each field from the side that changed it. Both sides' notes are kept, and the
    /// tags either side added (less those either removed).
    func merged(_ image: GalleryImage) -> GalleryImage {
        guard let their = theirs[image.id], let our = ours[image.id], their != our else { return image }
        let original = base[image.id]
        func pick<Value: Equatable>(_ field: KeyPath<GalleryImage, Value>) -> Value {
            GalleryState.pick(original.map { $0[keyPath: field] }, their[keyPath: field], our[keyPath: field])
        }
        var result = our
        result.url = pick(\.url)
        result.aspectRatio = pick(\.aspectRatio)
        result.original = pick(\.original)
        result.origin = pick(\.origin)
        result.animation = pick(\.animation)
        result.mergedCopies = pick(\.mergedCopies)
        result.likeness = pick(\.likeness)
        result.note = pick(\.note)
        let notes = [our.note, their.note].compactMap { $0 }.filter { !$0.isEmpty && $0 != original?.note }.sorted()
        if notes.count == 2 && notes[0] != notes[1] { result.note = notes.joined(separator: "\n\n") }
        let (first, second) =
            String(describing: our.tags) < String(describing: their.tags) ? (our, their) : (their, our)
        let baseTags = Set(original?.tags ?? [])
        var seen = Set<String>()
        result.tags = (first.tags + second.tags).filter { tag in
            seen.insert(tag).inserted
                && (first.tags.contains(tag) && second.tags.contains(tag) || !baseTags.contains(tag))
        }
        var fields: [String: RawJSON] = [:]
        for key in Set(their.unknownFields.keys).union(our.unknownFields.keys).union(
            original?.unknownFields.keys ?? [:].keys)
        {
            fields[key] = GalleryState.pick(
                .some(original?.unknownFields[key]), their.unknownFields[key], our.unknownFields[key])
        }
        result.unknownFields = fields
        return result
    }
}
