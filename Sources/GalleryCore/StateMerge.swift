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
        result.unknownFields = theirs.unknownFields.merging(ours.unknownFields) { _, mine in mine }
        return result
    }

    private static func merged(base: Gallery, theirs: Gallery, ours: Gallery) -> Gallery {
        var result = ours
        if ours.name == base.name { result.name = theirs.name }
        result.unknownFields = theirs.unknownFields.merging(ours.unknownFields) { _, mine in mine }
        if ours.images == base.images {
            result.images = theirs.images
        } else if theirs.images != base.images {
            let baseIDs = Set(base.images.map(\.id))
            let theirIDs = Set(theirs.images.map(\.id))
            let ourIDs = Set(ours.images.map(\.id))
            let removedByThem = baseIDs.subtracting(theirIDs)
            result.images = ours.images.filter { !removedByThem.contains($0.id) }
                + theirs.images.filter { !baseIDs.contains($0.id) && !ourIDs.contains($0.id) }
        }
        return result
    }
}
