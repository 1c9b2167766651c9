import Testing

@testable import GalleryCore

/// The animation survey's queue keeps where to read each image and where it stood, not the image: a library being
/// surveyed is not held twice once its images' likenesses or originals are recorded in place.
@Suite struct AnimationSurveyQueueTests {
    private static let digest = String(repeating: "b", count: 64)

    private static func image(_ id: String, url: String, kept: Bool = false, still: Bool = false) -> GalleryImage {
        var image = GalleryImage(id: ImageID(id), url: url, aspectRatio: 1)
        if kept {
            image.original = KeptOriginal(sha256: digest, byteCount: 1, pixelWidth: 1, pixelHeight: 1, format: "gif")
        }
        if still { image.animation = .still }
        return image
    }

    private static let cells: [GalleryCell] = [
        GalleryCell(image("web", url: "https://example.com/a.gif")),
        GalleryCell(id: ImageID("waiting"), content: .placeholder(label: "b.gif", progress: nil)),
        GalleryCell(image("read", url: "https://example.com/c.gif", still: true)),
        GalleryCell(image("kept", url: "file:///home/user/d.gif", kept: true)),
        GalleryCell(image("file", url: "file:///home/user/e.gif")),
    ]

    @Test func aLookQueuesWhereToReadEachUnreadImageAndWhereItStood() {
        let queue = AnimationSurveyQueue(batchSize: 10, libraryIsShareable: true)
        let (batch, hasQueued) = queue.nextBatch(looking: .galleries([("g", Self.cells)]))
        // Read already, a placeholder, and in a shared library a file this computer does not keep: none is queued.
        #expect(
            batch == [
                .init(id: ImageID("web"), galleryID: "g", cellIndex: 0, url: "https://example.com/a.gif", sha256: nil),
                .init(
                    id: ImageID("kept"), galleryID: "g", cellIndex: 3, url: "file:///home/user/d.gif",
                    sha256: Self.digest),
            ])
        #expect(!hasQueued)
    }

    @Test func batchesTakeTheQueueInTurnAndNoImageIsAskedTwice() {
        let queue = AnimationSurveyQueue(batchSize: 2, libraryIsShareable: false)
        let first = queue.nextBatch(looking: .galleries([("g", Self.cells)]))
        #expect(first.batch.map(\.id) == [ImageID("web"), ImageID("kept")])
        #expect(first.hasQueued)
        // The cells changed and are looked through again: those asked about already are not queued again.
        let second = queue.nextBatch(looking: .galleries([("g", Self.cells)]))
        #expect(second.batch.map(\.id) == [ImageID("file")])
        #expect(!second.hasQueued)
        #expect(queue.nextBatch(looking: nil).batch.isEmpty)
    }

    @Test func arrivedImagesJoinThoseQueued() {
        let queue = AnimationSurveyQueue(batchSize: 1, libraryIsShareable: false)
        _ = queue.nextBatch(looking: .galleries([("g", Array(Self.cells.prefix(4)))]))
        let arrived = Self.image("new", url: "https://example.com/f.gif")
        let still = Self.image("new still", url: "https://example.com/g.gif", still: true)
        let next = queue.nextBatch(looking: .arrived([(arrived, "h", 7), (still, "h", 8)]))
        #expect(next.batch.map(\.id) == [ImageID("kept")])
        #expect(next.hasQueued)
        let last = queue.nextBatch(looking: nil)
        #expect(
            last.batch == [
                .init(id: ImageID("new"), galleryID: "h", cellIndex: 7, url: "https://example.com/f.gif", sha256: nil)
            ])
        #expect(!last.hasQueued)
    }

    @Test func aBatchGoesOnIntoTheNextGallery() {
        let queue = AnimationSurveyQueue(batchSize: 4, libraryIsShareable: false)
        let other = [
            GalleryCell(Self.image("h1", url: "https://example.com/h1.gif")),
            GalleryCell(Self.image("h2", url: "https://example.com/h2.gif")),
        ]
        let first = queue.nextBatch(looking: .galleries([("g", Self.cells), ("empty", []), ("h", other)]))
        #expect(first.batch.map(\.id) == [ImageID("web"), ImageID("kept"), ImageID("file"), ImageID("h1")])
        #expect(first.batch.map(\.galleryID) == ["g", "g", "g", "h"])
        #expect(first.hasQueued)
        let rest = queue.nextBatch(looking: nil)
        #expect(
            rest.batch == [
                .init(id: ImageID("h2"), galleryID: "h", cellIndex: 1, url: "https://example.com/h2.gif", sha256: nil)
            ])
        #expect(!rest.hasQueued)
    }
}
