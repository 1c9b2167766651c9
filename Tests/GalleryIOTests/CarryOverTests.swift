import Foundation
import GLibKit
import GalleryCore
import Synchronization
import Testing

@testable import GalleryIO

/// A library of the previous layout carried into the originals image by image: from the cache, from the network
/// when the cache lost it, from the old `imported/` folder; stopped halfway, it carries on with the rest.
@Suite struct CarryOverTests {
    let fixture: OriginalsFixture
    let imports: URL
    private var source: ImageBytesSource { fixture.source }
    private var server: LoopbackServer { fixture.server }

    init() throws {
        fixture = try OriginalsFixture()
        imports = fixture.folder.url.appendingPathComponent("imported", isDirectory: true)
    }

    private func carry(_ image: GalleryImage) async throws -> Result<CarryOver.Kept, LoadFailure> {
        try #require(
            await callback { done in
                CarryOver.keep(
                    image, source: source, importsDirectory: imports, cancellation: CancellationToken(),
                    then: done)
            })
    }

    /// Carries `images` one by one, recording each into `library` as the app does.
    @MainActor private func carry(_ images: some Sequence<GalleryImage>, into library: GalleryLibrary) async throws {
        for image in images {
            let (original, url, likeness) = try await carry(image).get()
            library.recordOriginal(original, of: image.id, url: url, likeness: likeness)
        }
    }

    /// A state of the previous layout: three downloads in the cache, one the cache lost (still served), one import.
    private func previousLayout() throws -> (GalleryState, pictures: [String: [UInt8]]) {
        var images: [GalleryImage] = []
        var pictures: [String: [UInt8]] = [:]
        for index in 0..<4 {
            let png = TestImages.png(width: 10 + index, height: 7)
            let image = GalleryImage(url: server.url("/\(index).png"), aspectRatio: 1)
            server.answer("/\(index).png", LoopbackServer.response(200, body: png))
            if index < 3 { source.store(Data(png), for: image.url) }
            images.append(image)
            pictures[image.url] = png
        }
        try FileManager.default.createDirectory(at: imports, withIntermediateDirectories: true)
        let imported = TestImages.gif(width: 5, height: 4)
        let importedPath = imports.appendingPathComponent(Checksum.sha256(Data(imported))).path
        try Data(imported).write(to: URL(fileURLWithPath: importedPath))
        let importedImage = GalleryImage(url: try #require(FileURI.from(path: importedPath)), aspectRatio: 1)
        images.insert(importedImage, at: 1)
        pictures[importedImage.url] = imported
        var onDisk = GalleryImage(url: "file:///home/someone/cat.png", aspectRatio: 1)
        onDisk.aspectRatio = 1.5
        images.append(onDisk)
        return (GalleryState(galleries: [Gallery(name: "Old", images: images)]), pictures)
    }

    @MainActor @Test func aCarryOverInterruptedHalfwayCarriesOnWithTheRestAtTheNextLaunch() async throws {
        defer { fixture.tearDown() }
        let (state, pictures) = try previousLayout()
        let pending = CarryOver.pending(in: state, importsDirectory: imports)
        // Web images and the import; an image on disk stays where it is.
        #expect(pending.map(\.id) == state.galleries[0].images.dropLast().map(\.id))

        let firstLaunch = GalleryLibrary(state: state)
        try await carry(pending.prefix(3), into: firstLaunch)
        // Killed here: what was saved is the state with the first three carried over.
        let saved = firstLaunch.state

        let rest = CarryOver.pending(in: saved, importsDirectory: imports)
        #expect(rest.map(\.id) == pending.dropFirst(3).map(\.id))
        let nextLaunch = GalleryLibrary(state: saved)
        try await carry(rest, into: nextLaunch)
        let carried = nextLaunch.state

        #expect(CarryOver.pending(in: carried, importsDirectory: imports).isEmpty)
        for (before, after) in zip(state.galleries[0].images, carried.galleries[0].images).dropLast() {
            let original = try #require(after.original)
            let bytes = try #require(pictures[before.url])
            #expect(try source.originals.read(original.sha256).get() == Data(bytes))
            #expect(original.byteCount == bytes.count)
            #expect(original.sha256 == Checksum.sha256(Data(bytes)))
            // Measured from the bytes carried, as a drop measures them.
            #expect(after.likeness != nil)
            #expect(after.likeness == Likeness(imageBytes: Data(bytes)))
        }
        // The images the cache held needed no network; the one it lost was fetched again once.
        #expect((0..<3).map { server.requestCount("/\($0).png") } == [0, 0, 0])
        #expect(server.requestCount("/3.png") == 1)
        // The import is recorded by its kept file, its address is the library's own now.
        let importImage = carried.galleries[0].images[1]
        #expect(importImage.url == FileURI.from(path: source.originals.path(for: importImage.original!.sha256)!))
        #expect(importImage.original?.format == "gif")
        #expect((importImage.original?.pixelWidth, importImage.original?.pixelHeight) == (5, 4))
        #expect(carried.galleries[0].images.last?.original == nil)
    }

    @Test func thePendingImagesAreFoundAStepOfImagesAtATime() throws {
        defer { fixture.tearDown() }
        let (oneGallery, _) = try previousLayout()
        // Six images over two galleries, and an empty one between them.
        let images = oneGallery.galleries[0].images
        let state = GalleryState(galleries: [
            Gallery(name: "First", images: Array(images.prefix(4))), Gallery(name: "Empty", images: []),
            Gallery(name: "Second", images: Array(images.dropFirst(4))),
        ])
        let steps = Mutex(0)
        let found = Mutex<[GalleryImage]?>(nil)
        CarryOver.findPending(
            in: state, importsDirectory: imports, imagesPerStep: 4,
            submitting: { job in
                steps.withLock { $0 += 1 }
                job()
            },
            then: { images in found.withLock { $0 = images } })
        // Each step a job of its own: an edit's save waits for one step, not for the whole library.
        #expect(steps.withLock { $0 } == 2)
        #expect(found.withLock { $0 }?.map(\.id) == CarryOver.pending(in: state, importsDirectory: imports).map(\.id))
        #expect(found.withLock { $0 }?.map(\.id) == images.dropLast().map(\.id))
    }

    @Test func whatIsNoImageKeepsNoBytesAndStaysPending() async throws {
        defer { fixture.tearDown() }
        let image = GalleryImage(url: server.url("/page.png"), aspectRatio: 1)
        server.answer("/page.png", LoopbackServer.response(200, body: Array("<html>gone</html>".utf8)))
        let outcome = try await carry(image)
        #expect(throws: LoadFailure(description: "not an image")) { try outcome.get() }
        #expect(source.originals.list().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: source.cacheFile(for: image.url).path))
        let state = GalleryState(galleries: [Gallery(name: "Old", images: [image])])
        #expect(CarryOver.pending(in: state, importsDirectory: imports).map(\.id) == [image.id])
    }

    /// A cell drops what the server sent cut short from the cache; carrying the image over must not put it back.
    @Test func anImageCutShortIsNeitherKeptNorCached() async throws {
        defer { fixture.tearDown() }
        let whole = TestImages.png(width: 300, height: 200)
        let image = GalleryImage(url: server.url("/cut.png"), aspectRatio: 1.5)
        server.answer("/cut.png", LoopbackServer.response(200, body: Array(whole.prefix(whole.count / 2))))
        let outcome = try await carry(image)
        #expect(throws: LoadFailure(.incomplete, decoding: Data(whole.prefix(whole.count / 2)))) { try outcome.get() }
        #expect(source.originals.list().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: source.cacheFile(for: image.url).path))
    }
}
