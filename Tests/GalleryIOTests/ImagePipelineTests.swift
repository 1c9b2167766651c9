import Foundation
import GLibKit
import GalleryCore
import Testing

@testable import GalleryIO

/// Pictures for cells and the viewer, and the freedesktop thumbnails they leave behind.
@Suite struct ImagePipelineTests {
    let folder: TemporaryDirectory
    let pipeline: ImagePipeline

    init() throws {
        HTTPClientSetUp.once()
        folder = try TemporaryDirectory()
        let scheduler = JobScheduler(ioThreads: 1, cpuThreads: 1)
        pipeline = ImagePipeline(
            scheduler: scheduler,
            bytes: ImageBytesSource(
                cacheDirectory: folder.url.appendingPathComponent("downloads"),
                thumbnails: ThumbnailCache(cacheHome: folder.url), scheduler: scheduler,
                originals: OriginalsStore(directory: folder.url.appendingPathComponent("originals"))))
    }

    private func picture(_ url: String, fit: PictureRequest.Fit) async -> Result<
        DecodedImage<CairoSurface>, LoadFailure
    >? {
        await callback { done in
            pipeline.picture(
                PictureRequest(url: url, fit: fit, scale: 1), priority: .visible, cancellation: CancellationToken(),
                then: done)
        }
    }

    /// Waits until the I/O lane has run the work queued on it before: the thumbnails that decodes hand it.
    private func ioLaneDone() async {
        _ = await callback { done in pipeline.scheduler.submit(.io, .background) { done(()) } }
    }

    @Test func anOriginalNotArrivedYetIsWaitedForAndShowsOnceItLands() async throws {
        defer { folder.remove() }
        let bytes = Data(TestImages.png(width: 40, height: 30))
        let sha256 = Checksum.sha256(bytes)
        let cell = PictureRequest.Fit.cell(width: 40, height: 30, cornerRadius: 0)
        // Another computer's file, on a path this one does not have, and an address nothing answers at.
        for url in ["file:///nowhere/on/this/computer/cat.png", "http://127.0.0.1:9/cat.png"] {
            let request = PictureRequest(url: url, sha256: sha256, fit: cell, scale: 1)
            let waiting = await callback { done in
                pipeline.picture(request, priority: .visible, cancellation: CancellationToken(), then: done)
            }
            guard case .failure(let failure) = try #require(waiting) else {
                Issue.record("an image with no bytes anywhere decoded")
                continue
            }
            #expect(failure.isWaitingForSync && failure.description == "waiting for sync")
        }
        // Without an original named, the same address is an error, not a wait.
        let unnamed = try #require(await picture("file:///nowhere/on/this/computer/cat.png", fit: cell))
        guard case .failure(let error) = unnamed else {
            Issue.record("a missing file decoded")
            return
        }
        #expect(!error.isWaitingForSync)
        // In a library no sync tool shares (the data folder), a missing original is the failure it is.
        let local = ImagePipeline(
            scheduler: pipeline.scheduler,
            bytes: ImageBytesSource(
                cacheDirectory: pipeline.bytes.cacheDirectory, thumbnails: pipeline.bytes.thumbnails,
                scheduler: pipeline.scheduler, originals: pipeline.bytes.originals, originalsMayArrive: false))
        let missing = try #require(
            await callback { done in
                local.picture(
                    PictureRequest(url: "http://127.0.0.1:9/cat.png", sha256: sha256, fit: cell, scale: 1),
                    priority: .visible, cancellation: CancellationToken(), then: done)
            })
        guard case .failure(let failed) = missing else {
            Issue.record("an image with no bytes anywhere decoded")
            return
        }
        #expect(!failed.isWaitingForSync)
        // The sync tool delivers the original: the same request shows it.
        #expect(try pipeline.bytes.originals.keep(bytes) == sha256)
        let request = PictureRequest(
            url: "file:///nowhere/on/this/computer/cat.png", sha256: sha256, fit: cell, scale: 1)
        let arrived = try #require(
            await callback { done in
                pipeline.picture(request, priority: .visible, cancellation: CancellationToken(), then: done)
            }
        ).get()
        #expect((arrived.originalWidth, arrived.originalHeight) == (40, 30))
    }

    @Test func thumbnailNamesAreTheMD5OfTheURI() {
        #expect(Checksum.md5("file:///home/user/Pictures/cat%20photo.png") == "c5240ee2ede01acea1881469f644bda4")
    }

    @Test func cellLeavesAThumbnailThatTheNextRequestReads() async throws {
        defer { folder.remove() }
        let path = try folder.write(TestImages.png(width: 300, height: 200), to: "a photo.png")
        let uri = try #require(FileURI.from(path: path))
        let cell = PictureRequest.Fit.cell(width: 100, height: 80, cornerRadius: 0)

        let first = try #require(await picture(uri, fit: cell)).get()
        #expect((first.originalWidth, first.originalHeight) == (300, 200))
        await ioLaneDone()
        let thumbnailPath = folder.url.appendingPathComponent("thumbnails/normal/\(Checksum.md5(uri)).png").path
        let thumbnail = try #require(Pixbuf.loadThumbnail(contentsOf: thumbnailPath))
        let modified = try #require(
            try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
        #expect(thumbnail.text("Thumb::URI") == uri)
        #expect(thumbnail.text("Thumb::MTime") == String(Int(modified.timeIntervalSince1970)))
        #expect((thumbnail.width, thumbnail.height) == (128, 85))

        // The original no longer decodes, at the same modification time: only the thumbnail can serve.
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path)
        let second = try #require(await picture(uri, fit: cell)).get()
        #expect((second.originalWidth, second.originalHeight) == (300, 200))
        #expect(second.bitmap.pixelWidth <= 128)
    }

    @Test func withinFitsInsideTheBox() async throws {
        defer { folder.remove() }
        let path = try folder.write(TestImages.png(width: 300, height: 200), to: "wide.png")
        let uri = try #require(FileURI.from(path: path))
        let image = try #require(await picture(uri, fit: .within(width: 50, height: 50))).get()
        #expect((image.bitmap.pixelWidth, image.bitmap.pixelHeight) == (50, 33))
        #expect((image.originalWidth, image.originalHeight) == (300, 200))
    }

    @Test func withinNeverEnlarges() async throws {
        defer { folder.remove() }
        let path = try folder.write(TestImages.png(width: 30, height: 20), to: "small.png")
        let uri = try #require(FileURI.from(path: path))
        let image = try #require(await picture(uri, fit: .within(width: 500, height: 500))).get()
        #expect((image.bitmap.pixelWidth, image.bitmap.pixelHeight) == (30, 20))
    }

    @Test func httpPictureIsDownloadedAndDecoded() async throws {
        defer { folder.remove() }
        let server = try LoopbackServer()
        defer { server.stop() }
        server.answer("/wide.png", LoopbackServer.response(200, body: TestImages.png(width: 300, height: 200)))
        let image = try #require(await picture(server.url("/wide.png"), fit: .within(width: 60, height: 60))).get()
        #expect((image.bitmap.pixelWidth, image.bitmap.pixelHeight) == (60, 40))
    }

    @Test func damagedFileSaysWhy() async throws {
        defer { folder.remove() }
        let uri = try #require(FileURI.from(path: try folder.write(Array("not an image".utf8), to: "text.png")))
        let result = try #require(await picture(uri, fit: .within(width: 50, height: 50)))
        #expect(throws: LoadFailure(DecodeError.notAnImage, decoding: Data())) { try result.get() }
    }

    /// A kept original cut short on disk, its address served by the loopback server with `served`.
    private func damagedOriginal(served: [UInt8]) throws -> (request: PictureRequest, sha256: String, LoopbackServer) {
        let png = Data(TestImages.png(width: 40, height: 30))
        let sha256 = try pipeline.bytes.originals.keep(png)
        try png.prefix(50).write(to: URL(fileURLWithPath: try #require(pipeline.bytes.originals.path(for: sha256))))
        let server = try LoopbackServer()
        server.answer("/cat.png", LoopbackServer.response(200, body: served))
        let request = PictureRequest(
            url: server.url("/cat.png"), sha256: sha256, fit: .within(width: 100, height: 100), scale: 1)
        return (request, sha256, server)
    }

    private func picture(_ request: PictureRequest) async -> Result<DecodedImage<CairoSurface>, LoadFailure>? {
        await callback { done in
            pipeline.picture(request, priority: .visible, cancellation: CancellationToken(), then: done)
        }
    }

    @Test func aDamagedOriginalIsFetchedAgainFromItsSourceAndWrittenBack() async throws {
        defer { folder.remove() }
        let (request, sha256, server) = try damagedOriginal(served: TestImages.png(width: 40, height: 30))
        defer { server.stop() }
        let shown = try #require(await picture(request)).get()
        #expect((shown.originalWidth, shown.originalHeight) == (40, 30))
        #expect(pipeline.bytes.originals.condition(of: sha256) == .intact)
    }

    @Test func aDamagedOriginalWhoseSourceSendsOtherBytesIsNeitherShownNorReplaced() async throws {
        defer { folder.remove() }
        let (request, sha256, server) = try damagedOriginal(served: TestImages.png(width: 41, height: 30))
        defer { server.stop() }
        let result = try #require(await picture(request))
        #expect(
            throws: LoadFailure(
                description: "the library’s copy of it is damaged, and its source now sends other bytes")
        ) {
            try result.get()
        }
        #expect(pipeline.bytes.originals.condition(of: sha256) == .damaged)
        #expect(!FileManager.default.fileExists(atPath: pipeline.bytes.cacheFile(for: request.url).path))
    }

    @Test func anArrivingPictureHasTheLikenessOfItsBytesAndOthersNone() throws {
        defer { folder.remove() }
        let bytes = Data(TestImages.png(width: 800, height: 600))
        let fit = PictureRequest.Fit.cell(width: 512, height: 512, cornerRadius: 0)
        let arriving = try pipeline.pictureNow(
            PictureRequest(url: "", bytes: bytes, fit: fit, scale: 1, measuresLikeness: true)
        ).get()
        #expect(arriving.likeness != nil)
        #expect(arriving.likeness == Likeness(imageBytes: bytes))
        let shown = try pipeline.pictureNow(PictureRequest(url: "", bytes: bytes, fit: fit, scale: 1)).get()
        #expect(shown.likeness == nil)
    }

    @Test func aCellSmallerThanADropsThumbnailIsMadeFromItWithoutReadingTheOriginalAgain() async throws {
        defer { folder.remove() }
        let server = try LoopbackServer()
        defer { server.stop() }
        let bytes = Data(TestImages.png(width: 800, height: 600))
        let originals = pipeline.bytes.originals
        let sha256 = try originals.keep(bytes)
        let url = server.url("/gone.png")
        // The drop decodes the bytes it holds and leaves the x-large thumbnail beside the kept original.
        let dropped = try pipeline.pictureNow(
            PictureRequest(
                url: url, sha256: sha256, bytes: bytes, fit: .cell(width: 512, height: 512, cornerRadius: 0),
                scale: 1)
        ).get()
        #expect((dropped.originalWidth, dropped.originalHeight) == (800, 600))
        await ioLaneDone()
        // The original no longer matches its name, at the same size and time: reading it would fail the cell.
        let path = try #require(originals.path(for: sha256))
        let modified = try #require(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
        try Data(count: bytes.count).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path)
        let cell = try #require(
            await picture(
                PictureRequest(
                    url: url, sha256: sha256, fit: .cell(width: 200, height: 150, cornerRadius: 0), scale: 1))
        ).get()
        #expect((cell.originalWidth, cell.originalHeight) == (800, 600))
        #expect((cell.bitmap.pixelWidth, cell.bitmap.pixelHeight) == (200, 150))
        // And kept at the cell's own size, for the next launch.
        await ioLaneDone()
        let uri = try #require(FileURI.from(path: path))
        let largePath = folder.url.appendingPathComponent("thumbnails/large/\(Checksum.md5(uri)).png").path
        let large = try #require(Pixbuf.loadThumbnail(contentsOf: largePath))
        #expect((large.width, large.height) == (256, 192))
        #expect(large.text("Thumb::Image::Width") == "800")
    }

    @Test func aDecodeHandsItsThumbnailToTheIOLaneInsteadOfWritingIt() async throws {
        defer { folder.remove() }
        let bytes = Data(TestImages.png(width: 800, height: 600))
        let sha256 = try pipeline.bytes.originals.keep(bytes)
        let uri = try #require(pipeline.bytes.originals.path(for: sha256).flatMap(FileURI.from(path:)))
        let thumbnailPath = folder.url.appendingPathComponent("thumbnails/x-large/\(Checksum.md5(uri)).png").path
        // The I/O lane busy with work queued first: the decode (a drop's, on the CPU lane) does not wait for it.
        let busy = DispatchSemaphore(value: 0)
        pipeline.scheduler.submit(.io, .visible) { busy.wait() }
        let dropped = try pipeline.pictureNow(
            PictureRequest(
                url: "https://example.com/dropped.png", sha256: sha256, bytes: bytes,
                fit: .cell(width: 512, height: 512, cornerRadius: 0), scale: 1)
        ).get()
        #expect((dropped.originalWidth, dropped.originalHeight) == (800, 600))
        #expect(!FileManager.default.fileExists(atPath: thumbnailPath))
        busy.signal()
        await ioLaneDone()
        let thumbnail = try #require(Pixbuf.loadThumbnail(contentsOf: thumbnailPath))
        #expect((thumbnail.width, thumbnail.height) == (512, 384))
        #expect(thumbnail.text("Thumb::URI") == uri)
    }

    @Test func thumbnailsWaitingForABusyIOLaneAreFewTheNextIsWrittenAtOnce() async throws {
        defer { folder.remove() }
        let busy = DispatchSemaphore(value: 0)
        pipeline.scheduler.submit(.io, .visible) { busy.wait() }
        var written: [Bool] = []
        for index in 0...ImagePipeline.thumbnailsWaitingAtMost {
            let bytes = Data(TestImages.png(width: 600 + index, height: 400))
            let sha256 = try pipeline.bytes.originals.keep(bytes)
            let uri = try #require(pipeline.bytes.originals.path(for: sha256).flatMap(FileURI.from(path:)))
            _ = try pipeline.pictureNow(
                PictureRequest(
                    url: "https://example.com/\(index).png", sha256: sha256, bytes: bytes,
                    fit: .cell(width: 512, height: 512, cornerRadius: 0), scale: 1)
            ).get()
            let thumbnailPath = folder.url.appendingPathComponent("thumbnails/x-large/\(Checksum.md5(uri)).png").path
            written.append(FileManager.default.fileExists(atPath: thumbnailPath))
        }
        busy.signal()
        await ioLaneDone()
        #expect(written == Array(repeating: false, count: ImagePipeline.thumbnailsWaitingAtMost) + [true])
        #expect(pipeline.bytes.thumbnailsWaiting.load(ordering: .relaxed) == 0)
    }
}
