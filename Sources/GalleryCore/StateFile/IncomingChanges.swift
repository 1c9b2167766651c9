/// What a merge brought in from elsewhere, in a sentence for the window: the images it added, else
/// those it removed, else that something changed.
public struct IncomingChanges: Equatable, Sendable {
    public let imagesAdded: Int
    public let imagesRemoved: Int
    public let galleriesAdded: Int

    /// The difference between the state the library had (`before`) and the one it takes in.
    public init(before: GalleryState, after: GalleryState) {
        let beforeImages = Set(before.galleries.flatMap { $0.images.map(\.id) })
        let afterImages = Set(after.galleries.flatMap { $0.images.map(\.id) })
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
