/// Merging two sets of changes made to the same file (two copies of the app, or a sync tool): what
/// only one side changed is taken from it; where both changed a gallery's images, each side's
/// additions, deletions and moves are kept (`mergedImages`).
extension GalleryState {
    public static func merged(base: GalleryState, theirs: GalleryState, ours: GalleryState) -> GalleryState {
        let baseByID = Dictionary(base.galleries.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let theirsByID = Dictionary(theirs.galleries.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let oursIDs = Set(ours.galleries.map(\.id))
        var galleries: [Gallery] = []
        for gallery in ours.galleries {
            switch (baseByID[gallery.id], theirsByID[gallery.id]) {
            case (let original?, nil):
                // They deleted it: gone, unless we changed it since.
                if gallery != original { galleries.append(gallery) }
            case (let original?, let their?):
                galleries.append(Self.merged(base: original, theirs: their, ours: gallery))
            case (nil, _):
                galleries.append(gallery)  // ours is new
            }
        }
        for (index, gallery) in theirs.galleries.enumerated() where !oursIDs.contains(gallery.id) {
            // New on their side, or deleted on ours but changed on theirs since: it stays, near where they have it.
            if let original = baseByID[gallery.id], original == gallery { continue }
            galleries.insert(gallery, at: min(index, galleries.count))
        }
        var result = ours
        result.galleries = galleries.isEmpty ? theirs.galleries : galleries
        result.shownGalleryID = pick(base.shownGalleryID, theirs.shownGalleryID, ours.shownGalleryID)
        result.sidebarVisible = pick(base.sidebarVisible, theirs.sidebarVisible, ours.sidebarVisible)
        result.smartGalleries = pick(base.smartGalleries, theirs.smartGalleries, ours.smartGalleries)
        result.unknownFields = mergedFields(
            base: base.unknownFields, theirs: theirs.unknownFields, ours: ours.unknownFields)
        return result
    }

    /// Ours where we changed it, else theirs.
    private static func pick<Value: Equatable>(_ base: Value, _ theirs: Value, _ ours: Value) -> Value {
        ours != base ? ours : theirs
    }

    /// Field by field: a field only one side changed (or added, or removed) comes from that side.
    private static func mergedFields(base: [String: JSONValue], theirs: [String: JSONValue], ours: [String: JSONValue])
        -> [String: JSONValue]
    {
        var result: [String: JSONValue] = [:]
        for key in Set(base.keys).union(theirs.keys).union(ours.keys) {
            result[key] = pick(base[key], theirs[key], ours[key])
        }
        return result
    }

    private static func merged(base: Gallery, theirs: Gallery, ours: Gallery) -> Gallery {
        var result = ours
        result.name = pick(base.name, theirs.name, ours.name)
        result.unknownFields = mergedFields(
            base: base.unknownFields, theirs: theirs.unknownFields, ours: ours.unknownFields)
        if ours.images == base.images {
            result.images = theirs.images
        } else if theirs.images != base.images {
            result.images = mergedImages(base: base.images, theirs: theirs.images, ours: ours.images)
        }
        return result
    }

    /// Both sides changed a gallery's images. Deleted on either side is gone; added on either side
    /// is in. The order: images neither side moved keep the order they share; then each side's
    /// moved and added images go right after the image before them on that side (first when none
    /// is). The side whose order comes first by ids goes first and wins an image both moved, so the
    /// merge is the same whichever side makes it.
    static func mergedImages(base: [GalleryImage], theirs: [GalleryImage], ours: [GalleryImage]) -> [GalleryImage] {
        let baseImages = Dictionary(base.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let sides = [ours, theirs].sorted {
            $0.lazy.map(\.id.rawValue).lexicographicallyPrecedes($1.lazy.map(\.id.rawValue))
        }
        let sideIDs = sides.map { Set($0.map(\.id)) }
        /// Added by a side, or in both.
        func kept(_ id: ImageID) -> Bool {
            baseImages[id] == nil || (sideIDs[0].contains(id) && sideIDs[1].contains(id))
        }
        let commonBase = base.map(\.id).filter(kept)
        let placedBySide = sides.map { side in
            let ids = side.map(\.id).filter(kept)
            let moved = movedImages(from: commonBase, to: ids.filter { baseImages[$0] != nil })
            return Set(ids.filter { baseImages[$0] == nil || moved.contains($0) })
        }
        var order = OrderedIDs(commonBase.filter { !placedBySide[0].contains($0) && !placedBySide[1].contains($0) })
        for (side, placed) in zip(sides, placedBySide) {
            var previous: ImageID?
            for id in side.lazy.map(\.id) where kept(id) {
                if placed.contains(id) && !order.contains(id) { order.insert(id, after: previous) }
                if order.contains(id) { previous = id }
            }
        }
        // An image's own fields: from the side that changed them, the first side when both did.
        var images: [ImageID: GalleryImage] = [:]
        for side in sides.reversed() {
            for image in side where images[image.id] == nil || image != baseImages[image.id] {
                images[image.id] = image
            }
        }
        return order.ids.compactMap { images[$0] }
    }

    /// The images of `before` that are not where they were in `after` (both the same images): those
    /// outside a longest run kept in order, found as the longest increasing sequence of their places.
    private static func movedImages(from before: [ImageID], to after: [ImageID]) -> Set<ImageID> {
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
        var stayed = Set<ImageID>()
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
private struct OrderedIDs {
    private var next: [ImageID: ImageID] = [:]
    private var head: ImageID?
    private var tail: ImageID?

    init(_ ids: [ImageID]) {
        for id in ids { insert(id, after: tail) }
    }

    func contains(_ id: ImageID) -> Bool { next[id] != nil || tail == id }

    /// Inserts `id` after `previous`, or at the start when nil.
    mutating func insert(_ id: ImageID, after previous: ImageID?) {
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

    var ids: [ImageID] {
        var result: [ImageID] = []
        var current = head
        while let id = current {
            result.append(id)
            current = next[id]
        }
        return result
    }
}
