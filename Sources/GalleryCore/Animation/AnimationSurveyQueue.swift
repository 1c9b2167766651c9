import Synchronization

/// What the animation survey has left to read, kept by the I/O thread that reads the headers: the images asked about
/// in this run (answered or not: none is read twice) and those the last look found and are not read yet. Each is kept
/// as where its bytes are and where it stood, never as the image: a copy of the image would keep the fields it had
/// when looked at alive beside the library's once a record in place (a likeness, its animation summary) gave the
/// library's image new ones, until the whole survey was read.
public final class AnimationSurveyQueue: Sendable {
    /// An image to read: where its bytes are, and the gallery and cell where it stood, where its record looks first.
    public struct Unread: Equatable, Sendable {
        public var id: ImageID
        public var galleryID: String
        public var cellIndex: Int
        public var url: String
        /// Its kept original's digest, the bytes read before its address.
        public var sha256: String?
    }

    /// What a look goes through: every gallery's cells, whose unread images replace those queued, or the images that
    /// arrived since the last look (with where each took its placeholder's cell), added to them.
    public enum Look: Sendable {
        case galleries([(id: String, cells: [GalleryCell])])
        case arrived([(image: GalleryImage, galleryID: String, cellIndex: Int)])
    }

    /// The unread images of one gallery, in its order: a gallery's are let go of once all are read, so a survey of a
    /// large library holds less as it goes.
    private struct UnreadInGallery {
        var galleryID: String
        var images: ArraySlice<Entry>
    }

    /// An unread image of a gallery (`Unread` without the gallery, which its `UnreadInGallery` holds once).
    private typealias Entry = (id: ImageID, cellIndex: Int, url: String, sha256: String?)

    private struct State {
        var asked: Set<ImageID> = []
        var queued: [UnreadInGallery] = []
        /// The first gallery of `queued` not read through yet.
        var next = 0
    }

    private let state = Mutex(State())
    private let batchSize: Int
    private let libraryIsShareable: Bool

    /// `libraryIsShareable`: a library others may read, where what a file of this computer is made of is not
    /// recorded unless the library keeps it (`MeasuredRatio.mayRecord`).
    public init(batchSize: Int, libraryIsShareable: Bool) {
        self.batchSize = batchSize
        self.libraryIsShareable = libraryIsShareable
    }

    /// The next batch to read, after going through `look` when there is one, and whether more are queued.
    public func nextBatch(looking look: Look?) -> (batch: [Unread], hasQueued: Bool) {
        state.withLock { state in
            switch look {
            case .galleries(let galleries):
                state.queued = unread(in: galleries, asked: state.asked)
                state.next = 0
            case .arrived(let arrived): state.queued += unread(in: arrived, asked: state.asked)
            case nil: break
            }
            var batch: [Unread] = []
            while batch.count < batchSize && state.next < state.queued.count {
                let galleryID = state.queued[state.next].galleryID
                let taken = state.queued[state.next].images.prefix(batchSize - batch.count)
                batch += taken.map {
                    Unread(id: $0.id, galleryID: galleryID, cellIndex: $0.cellIndex, url: $0.url, sha256: $0.sha256)
                }
                state.queued[state.next].images.removeFirst(taken.count)
                if state.queued[state.next].images.isEmpty {
                    // An empty slice would still hold the gallery's whole list.
                    state.queued[state.next].images = []
                    state.next += 1
                }
            }
            if state.next == state.queued.count {
                state.queued = []
                state.next = 0
            }
            state.asked.formUnion(batch.map(\.id))
            return (batch, !state.queued.isEmpty)
        }
    }

    /// The images of these galleries not read yet nor asked about, in the library's order.
    private func unread(in galleries: [(id: String, cells: [GalleryCell])], asked: Set<ImageID>) -> [UnreadInGallery] {
        galleries.compactMap { galleryID, cells in
            let images = cells.indices.compactMap { index in
                cells[index].image.flatMap { isUnread($0, asked: asked) ? Self.entry($0, cellIndex: index) : nil }
            }
            return images.isEmpty ? nil : UnreadInGallery(galleryID: galleryID, images: images[...])
        }
    }

    private func unread(
        in arrived: [(image: GalleryImage, galleryID: String, cellIndex: Int)], asked: Set<ImageID>
    ) -> [UnreadInGallery] {
        arrived.filter { isUnread($0.image, asked: asked) }.map {
            UnreadInGallery(galleryID: $0.galleryID, images: [Self.entry($0.image, cellIndex: $0.cellIndex)])
        }
    }

    private func isUnread(_ image: GalleryImage, asked: Set<ImageID>) -> Bool {
        image.animation == nil && !asked.contains(image.id)
            && MeasuredRatio.mayRecord(for: image, libraryIsShareable: libraryIsShareable)
    }

    private static func entry(_ image: GalleryImage, cellIndex: Int) -> Entry {
        (image.id, cellIndex, image.url, image.original?.sha256)
    }
}
