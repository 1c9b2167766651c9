/// One value an edit set: the unit of the library's journal. Each sets one register of the library (`LibraryReplica`),
/// so that edits of different values on two computers never touch each other.
public enum JournalChange: Hashable, Sendable {
    /// An image arrived: all its fields, under one stamp.
    case addImage(GalleryImage)
    /// One field of an image (`note`, `tags`, a newer version's…) as the state file writes it; nil: removed.
    case setImageField(ImageID, name: String, value: RawJSON?)
    /// Where an image is: its gallery and its place in it; nil: deleted.
    case placeImage(ImageID, ImagePlacement?)
    /// One field of a gallery (`name`, or a newer version's); nil: removed.
    case setGalleryField(String, name: String, value: RawJSON?)
    /// A gallery's place in the sidebar: its position key.
    case placeGallery(String, key: String)
    /// Whether a gallery is deleted. A deleted gallery hides the images placed in it before, and shows again,
    /// with them, when another computer placed images in it after (it had not taken in the deletion).
    case setGalleryDeleted(String, Bool)
    /// One top-level field of the state file other than `galleries` (`shownGalleryID`, `sidebarVisible`,
    /// `playAnimations`, `smartGalleries`, `version`, a newer version's); nil: removed.
    case setSetting(name: String, value: RawJSON?)

    /// An image's gallery and its position key there.
    public struct ImagePlacement: Hashable, Sendable {
        public var gallery: String
        public var key: String

        public init(gallery: String, key: String) {
            self.gallery = gallery
            self.key = key
        }
    }

    /// Where it goes in a batch split into several entries: galleries made first and deleted last, so that an entry
    /// lost to a crash never leaves an image placed in a gallery that does not exist yet.
    var batchOrder: Int {
        switch self {
        case .placeGallery: 0
        case .setGalleryDeleted(_, let isDeleted): isDeleted ? 3 : 0
        case .setGalleryField, .setSetting: 1
        case .addImage, .setImageField, .placeImage: 2
        }
    }

    /// The image it changes, if it changes one.
    var imageID: ImageID? {
        switch self {
        case .addImage(let image): image.id
        case .setImageField(let id, _, _), .placeImage(let id, _): id
        case .setGalleryField, .placeGallery, .setGalleryDeleted, .setSetting: nil
        }
    }
}
