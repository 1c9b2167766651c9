/// What a merge brought in from elsewhere, in a sentence for the window: the images it added, else
/// those it removed, else that something changed.
public struct IncomingChanges: Equatable, Sendable {
    public let imagesAdded: Int
    public let imagesRemoved: Int
    public let galleriesAdded: Int

    /// The difference between the state the library had (`before`) and the one it takes in, an image's id being in
    /// at most one gallery of each: only the galleries whose images differ are looked into (arrays that share their
    /// storage compare at once), so that another computer's edit costs its galleries, not the library.
    public init(before: GalleryState, after: GalleryState) {
        let imagesBefore = Dictionary(
            before.galleries.map { ($0.id, $0.images) }, uniquingKeysWith: { first, _ in first })
        var beforeImages = Set<ImageID>()
        var afterImages = Set<ImageID>()
        var kept = Set<String>()
        for gallery in after.galleries where kept.insert(gallery.id).inserted {
            let images = imagesBefore[gallery.id]
            guard images != gallery.images else { continue }
            afterImages.formUnion(gallery.images.lazy.map(\.id))
            beforeImages.formUnion((images ?? []).lazy.map(\.id))
        }
        for gallery in before.galleries where !kept.contains(gallery.id) {
            beforeImages.formUnion(gallery.images.lazy.map(\.id))
        }
        imagesAdded = afterImages.subtracting(beforeImages).count
        imagesRemoved = beforeImages.subtracting(afterImages).count
        galleriesAdded = Set(after.galleries.map(\.id)).subtracting(before.galleries.map(\.id)).count
    }

    public var message: String {
        if imagesAdded > 0 {
            return trPlural(
                "{count} image added on another computer", "{count} images added on another computer", imagesAdded)
        }
        if imagesRemoved > 0 {
            return trPlural(
                "{count} image deleted on another computer", "{count} images deleted on another computer",
                imagesRemoved)
        }
        if galleriesAdded > 0 {
            return trPlural(
                "{count} gallery created on another computer", "{count} galleries created on another computer",
                galleriesAdded)
        }
        return tr("Changes made on another computer were merged in")
    }
}
