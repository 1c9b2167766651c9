/// Merging two sets of changes made to the same file (two copies of the app, or a sync tool): what
/// only one side changed is taken from it; where both changed a gallery's images, our order stays,
/// their additions come at the end and their deletions are honoured.
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
            let baseIDs = Set(base.images.map(\.id))
            let theirIDs = Set(theirs.images.map(\.id))
            let ourIDs = Set(ours.images.map(\.id))
            let removedByThem = baseIDs.subtracting(theirIDs)
            // Whose order wins: theirs when they moved or removed images and we only added, else ours.
            let weOnlyAdded = ours.images.filter { baseIDs.contains($0.id) } == base.images
            let theyOnlyAdded = theirs.images.filter { baseIDs.contains($0.id) } == base.images
            if weOnlyAdded && !theyOnlyAdded {
                result.images =
                    theirs.images + ours.images.filter { !baseIDs.contains($0.id) && !theirIDs.contains($0.id) }
            } else {
                result.images =
                    ours.images.filter { !removedByThem.contains($0.id) }
                    + theirs.images.filter { !baseIDs.contains($0.id) && !ourIDs.contains($0.id) }
            }
        }
        return result
    }
}
