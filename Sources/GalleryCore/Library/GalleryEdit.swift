/// An image and where it stood, so that a deletion can be undone in place.
public struct IndexedImage: Hashable, Sendable {
    public var index: Int
    public var image: GalleryImage

    public init(index: Int, image: GalleryImage) {
        self.index = index
        self.image = image
    }
}

/// One image's tags before and after a change.
public struct TagChange: Hashable, Sendable {
    public var id: ImageID
    public var from: [String]
    public var to: [String]

    public init(id: ImageID, from: [String], to: [String]) {
        self.id = id
        self.from = from
        self.to = to
    }
}

/// One undoable change of a gallery's images, described by ids so that it stays meaningful while
/// placeholders come and go around it. Indices count images only, never placeholders.
public enum GalleryEdit: Hashable, Sendable {
    /// `ids` (in order) were at `originalIndices` and now start at `destination`.
    case move(ids: [ImageID], originalIndices: [Int], destination: Int)
    /// The inverse of a move: each id goes back to its original index.
    case restoreMove(ids: [ImageID], originalIndices: [Int])
    case insert([IndexedImage])
    case remove([IndexedImage])
    /// The image's note went from `from` to `to` (nil: no note).
    case note(id: ImageID, from: String?, to: String?)
    /// Images' tags changed, each as given (several images, one step).
    case tags([TagChange])
    /// Images (known by their ids, which stay) were `from` and are now `to`: copies merged into them.
    case replace(from: [GalleryImage], to: [GalleryImage])

    public var inverse: GalleryEdit {
        switch self {
        case .move(let ids, let originalIndices, _): .restoreMove(ids: ids, originalIndices: originalIndices)
        case .restoreMove(let ids, let originalIndices):
            // Not recorded in the history, but keep the algebra total.
            .move(ids: ids, originalIndices: originalIndices, destination: originalIndices.first ?? 0)
        case .insert(let entries): .remove(entries)
        case .remove(let entries): .insert(entries)
        case .note(let id, let from, let to): .note(id: id, from: to, to: from)
        case .tags(let changes): .tags(changes.map { TagChange(id: $0.id, from: $0.to, to: $0.from) })
        case .replace(let from, let to): .replace(from: to, to: from)
        }
    }
}

/// One undoable change of the library: of one gallery's images, of the list of galleries, or
/// several taken as one step (a move between galleries removes from one and inserts into another).
public indirect enum LibraryEdit: Hashable, Sendable {
    case images(galleryID: String, GalleryEdit)
    /// `gallery` (with its images) now stands at `index` of the list.
    case createGallery(Gallery, index: Int)
    case deleteGallery(Gallery, index: Int)
    case renameGallery(id: String, from: String, to: String)
    case moveGallery(id: String, from: Int, to: Int)
    /// The smart galleries were `from` and are now `to` (one was saved, renamed, moved or deleted).
    case smartGalleries(from: [SmartGallery], to: [SmartGallery])
    case group([LibraryEdit])

    public var inverse: LibraryEdit {
        switch self {
        case .images(let galleryID, let edit): .images(galleryID: galleryID, edit.inverse)
        case .createGallery(let gallery, let index): .deleteGallery(gallery, index: index)
        case .deleteGallery(let gallery, let index): .createGallery(gallery, index: index)
        case .renameGallery(let id, let from, let to): .renameGallery(id: id, from: to, to: from)
        case .moveGallery(let id, let from, let to): .moveGallery(id: id, from: to, to: from)
        case .smartGalleries(let from, let to): .smartGalleries(from: to, to: from)
        case .group(let edits): .group(edits.reversed().map(\.inverse))
        }
    }

    /// The galleries this edit changes, the one a window should show first.
    public var galleryIDs: [String] {
        switch self {
        case .images(let galleryID, _): [galleryID]
        case .createGallery(let gallery, _), .deleteGallery(let gallery, _): [gallery.id]
        case .renameGallery(let id, _, _), .moveGallery(let id, _, _): [id]
        case .smartGalleries: []
        case .group(let edits):
            edits.flatMap(\.galleryIDs).reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
        }
    }
}
