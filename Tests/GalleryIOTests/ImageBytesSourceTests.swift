import Dispatch
import Foundation
import GLibKit
import GalleryCore
import Synchronization
import Testing

@testable import GalleryIO

/// Fetching bytes from a file, a data: URI and the loopback server, and the cache in between.
@Suite struct ImageBytesSourceTests {
    let folder: TemporaryDirectory
    let scheduler = JobScheduler(ioThreads: 1, cpuThreads: 1)
    let source: ImageBytesSource

    init() throws {
        HTTPClientSetUp.once()
        folder = try TemporaryDirectory()
        source = ImageBytesSource(
            cacheDirectory: folder.url.appendingPathComponent("downloads"),
            thumbnails: ThumbnailCache(cacheHome: folder.url), scheduler: scheduler,
            originals: OriginalsStore(directory: folder.url.appendingPathComponent("originals")))
    }

    private func fetch(
        _ url: String, cancellation: CancellationToken = CancellationToken(), within seconds: Double = 60
    ) async -> Result<Data, LoadFailure>? {
        await callback(within: seconds) { done in
            source.fetch(url, priority: .visible, cancellation: cancellation, then: done)
        }
    }

    @Test func fileURL() async throws {
        defer { folder.remove() }
        let path = try folder.write([1, 2, 3, 4], to: "four bytes.bin")
        let url = try #require(FileURI.from(path: path))
        #expect(try #require(await fetch(url)).get() == Data([1, 2, 3, 4]))
    }

    @Test func missingFileSaysSo() async throws {
        defer { folder.remove() }
        let url = try #require(FileURI.from(path: folder.url.appendingPathComponent("gone.png").path))
        let result = try #require(await fetch(url))
        #expect(throws: LoadFailure.self) { try result.get() }
    }

    @Test func fileURLOfAFIFOOrADeviceIsRefusedAtOnce() async throws {
        defer { folder.remove() }
        let pipe = folder.url.appendingPathComponent("pipe.png").path
        try #require(mkfifo(pipe, 0o600) == 0)
        for path in [pipe, "/dev/zero", folder.url.path] {
            let url = try #require(FileURI.from(path: path))
            let result = try #require(await fetch(url))
            #expect(throws: LoadFailure(description: "not a regular file")) { try result.get() }
        }
    }

    @Test func dataURI() async throws {
        defer { folder.remove() }
        let bytes = Data(TestImages.png(width: 2, height: 2))
        let result = try #require(await fetch("data:image/png;base64," + bytes.base64EncodedString()))
        #expect(try result.get() == bytes)
    }

    @Test func dataURILargerThanADownloadIsRefusedUndecoded() async throws {
        defer { folder.remove() }
        // A PNG's signature, then zeros up to one byte more than a download may hold.
        var bytes = Data(TestImages.png(width: 2, height: 2).prefix(16))
        bytes.append(Data(count: Int(ImageLimits.maximumDownloadBytes) + 1 - bytes.count))
        // Measuring 67 MB of text takes a debug build tens of seconds on a busy machine: the wait is for a hang only.
        let result = try #require(await fetch("data:image/png;base64," + bytes.base64EncodedString(), within: 600))
        #expect(throws: LoadFailure(.tooLarge(limit: ImageLimits.maximumDownloadBytes))) { try result.get() }
    }

    @Test func httpIsDownloadedOnceThenCached() async throws {
        defer { folder.remove() }
        let server = try LoopbackServer()
        defer { server.stop() }
        server.answer("/cat.png", LoopbackServer.response(200, body: [5, 6, 7]))
        let url = server.url("/cat.png")
        #expect(try #require(await fetch(url)).get() == Data([5, 6, 7]))
        #expect(FileManager.default.contents(atPath: source.cacheFile(for: url).path) == Data([5, 6, 7]))
        #expect(try #require(await fetch(url)).get() == Data([5, 6, 7]))
        #expect(server.requestCount("/cat.png") == 1)
    }

    @Test func httpFailureIsNotCached() async throws {
        defer { folder.remove() }
        let server = try LoopbackServer()
        defer { server.stop() }
        let url = server.url("/gone.png")
        let result = try #require(await fetch(url))
        #expect(throws: LoadFailure(.status(404))) { try result.get() }
        #expect(!FileManager.default.fileExists(atPath: source.cacheFile(for: url).path))
    }

    @Test func aRedirectedDownloadTellsWhereItEnded() async throws {
        defer { folder.remove() }
        let server = try LoopbackServer()
        defer { server.stop() }
        server.answer("/cats", LoopbackServer.response(301, headers: ["Location: \(server.url("/cats/"))"]))
        server.answer("/cats/", LoopbackServer.response(200, body: Array("<html>".utf8)))
        let fetched: Result<FetchedBytes, LoadFailure>? = await callback { done in
            source.fetchAnswer(server.url("/cats"), priority: .visible, caching: false, then: done)
        }
        let answer = try #require(fetched).get()
        #expect(answer.address == server.url("/cats/"))
        #expect(answer.data == Data("<html>".utf8))
    }

    @Test func aPageIsDownloadedOnlyUpToItsLimit() async throws {
        defer { folder.remove() }
        let server = try LoopbackServer()
        defer { server.stop() }
        let page = Array("<!DOCTYPE html><p>".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 300_000)
        server.answer("/page", LoopbackServer.response(200, body: page))
        let fetched: Result<FetchedBytes, LoadFailure>? = await callback { done in
            source.fetchAnswer(
                server.url("/page"), priority: .visible, caching: false, maximumPageBytes: 100_000, then: done)
        }
        let answer = try #require(fetched).get()
        #expect(answer.data.count > 0 && answer.data.count <= 100_000)
        #expect(answer.data == Data(page.prefix(answer.data.count)))
    }

    @Test func cancelledFetchSaysCancelledExactlyOnce() async throws {
        defer { folder.remove() }
        let server = try LoopbackServer()
        defer { server.stop() }
        let calls = Mutex<[Result<Data, LoadFailure>]>([])
        let called = DispatchSemaphore(value: 0)
        let cancellation = CancellationToken()
        cancellation.cancel()
        source.fetch(server.url("/cat.png"), priority: .visible, cancellation: cancellation) { result in
            calls.withLock { $0.append(result) }
            called.signal()
        }
        #expect(called.wait(timeout: .now() + 10) == .success)
        // The lane's one thread runs this after the fetch's job has returned: any second call came before it.
        let drained = DispatchSemaphore(value: 0)
        scheduler.submit(.io, .background) { drained.signal() }
        #expect(drained.wait(timeout: .now() + 10) == .success)
        let results = calls.withLock { $0 }
        #expect(results.count == 1)
        #expect(throws: LoadFailure(.cancelled)) { try results.first?.get() }
        #expect(server.requests.isEmpty)
    }

    @Test func fetchCancelledDuringTheDownloadSaysCancelled() async throws {
        defer { folder.remove() }
        let server = try LoopbackServer()
        defer { server.stop() }
        server.answer("/slow.png", [.send(LoopbackServer.head(200, headers: ["Content-Length: 1000"])), .stall])
        let cancellation = CancellationToken()
        let result = try #require(
            await callback { done in
                source.fetch(
                    server.url("/slow.png"), priority: .visible, cancellation: cancellation,
                    progress: { _, _ in
                        cancellation.cancel()
                        return true
                    }, then: done)
            })
        #expect(throws: LoadFailure(.cancelled)) { try result.get() }
    }

    @Test func requestsForAnAddressOnItsWayShareItsDownload() async throws {
        defer { folder.remove() }
        let server = try LoopbackServer()
        defer { server.stop() }
        let body = Array("shared bytes".utf8)
        let release = DispatchSemaphore(value: 0)
        server.answer(
            "/shared.png",
            [.send(LoopbackServer.head(200, headers: ["Content-Length: \(body.count)"])), .wait(release), .send(body)])
        let url = server.url("/shared.png")
        let results = Mutex<[Result<Data, LoadFailure>]>([])
        let arrived = DispatchSemaphore(value: 0)
        let first = CancellationToken()
        let started = DispatchSemaphore(value: 0)
        source.fetch(
            url, priority: .visible, cancellation: first,
            progress: { _, _ in
                started.signal()
                return true
            }, then: { _ in arrived.signal() })
        #expect(started.wait(timeout: .now() + 10) == .success)
        // A later request of a lower priority shares it, and still gets the bytes when the first is cancelled.
        source.fetch(url, priority: .background) { result in
            results.withLock { $0.append(result) }
            arrived.signal()
        }
        let joined = DispatchSemaphore(value: 0)
        scheduler.submit(.io, .background) { joined.signal() }
        #expect(joined.wait(timeout: .now() + 10) == .success)
        first.cancel()
        release.signal()
        #expect(arrived.wait(timeout: .now() + 10) == .success)
        #expect(arrived.wait(timeout: .now() + 10) == .success)
        #expect(try results.withLock { $0 }.first?.get() == Data(body))
        #expect(server.requestCount("/shared.png") == 1)
    }

    @Test func aRequestSharingADownloadHearsItsCancellationAtOnce() async throws {
        defer { folder.remove() }
        let server = try LoopbackServer()
        defer { server.stop() }
        // The server never sends the body: the download ends only when nobody wants it any more.
        server.answer("/stalled.png", [.send(LoopbackServer.head(200, headers: ["Content-Length: 1000"])), .stall])
        let url = server.url("/stalled.png")
        let first = CancellationToken()
        let started = DispatchSemaphore(value: 0)
        let firstResult = Mutex<Result<Data, LoadFailure>?>(nil)
        let firstHeard = DispatchSemaphore(value: 0)
        source.fetch(
            url, priority: .visible, cancellation: first,
            progress: { _, expected in
                // The answer's head has come (its length with it): the server holds the one request.
                if expected != nil { started.signal() }
                return true
            },
            then: { result in
                firstResult.withLock { $0 = result }
                firstHeard.signal()
            })
        #expect(started.wait(timeout: .now() + 10) == .success)
        let joiner = CancellationToken()
        let joinerResult = Mutex<Result<Data, LoadFailure>?>(nil)
        let joinerHeard = DispatchSemaphore(value: 0)
        source.fetch(url, priority: .visible, cancellation: joiner) { result in
            joinerResult.withLock { $0 = result }
            joinerHeard.signal()
        }
        let joined = DispatchSemaphore(value: 0)
        scheduler.submit(.io, .background) { joined.signal() }
        #expect(joined.wait(timeout: .now() + 10) == .success)
        joiner.cancel()
        // Heard while the shared download still goes on for the first request.
        #expect(joinerHeard.wait(timeout: .now() + 30) == .success)
        #expect(throws: LoadFailure(.cancelled)) { try joinerResult.withLock { $0 }?.get() }
        #expect(firstResult.withLock { $0 } == nil)
        first.cancel()
        #expect(firstHeard.wait(timeout: .now() + 30) == .success)
        #expect(throws: LoadFailure(.cancelled)) { try firstResult.withLock { $0 }?.get() }
        #expect(server.requestCount("/stalled.png") == 1)
    }

    @Test func fetchEachKeepsTheOrder() async throws {
        defer { folder.remove() }
        let first = try #require(FileURI.from(path: try folder.write([1], to: "1")))
        let second = try #require(FileURI.from(path: try folder.write([2], to: "2")))
        let results = Mutex<[(Int, Data?)]>([])
        let done: Void? = await callback { done in
            source.fetchEach(
                [first, "nowhere:x", second].map { GalleryImage(url: $0, aspectRatio: 1) }, priority: .background,
                each: { index, result in
                    results.withLock { $0.append((index, try? result.get())) }
                }, done: { done(()) })
        }
        #expect(done != nil)
        let seen = results.withLock { $0 }
        #expect(seen.map(\.0) == [0, 1, 2])
        #expect(seen.map(\.1) == [Data([1]), nil, Data([2])])
    }

    @Test func aDragOutGivesTheOriginalsBytesOnlyWhileTheyHashToItsName() throws {
        defer { folder.remove() }
        let bytes = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data("the kept picture".utf8)
        let sha256 = try source.originals.keep(bytes)
        var image = GalleryImage(url: "https://e.org/kept.png", aspectRatio: 1)
        image.original = KeptOriginal(
            sha256: sha256, byteCount: bytes.count, pixelWidth: 1, pixelHeight: 1, format: "png")
        let shared = try #require(source.shareableFile(for: image))
        #expect(try Data(contentsOf: shared) == bytes)
        try FileManager.default.removeItem(at: shared.deletingLastPathComponent())
        // Changed in place, then replaced by a link to another file: neither is handed out as the image.
        let path = try #require(source.originals.path(for: sha256))
        try Data("other bytes".utf8).write(to: URL(fileURLWithPath: path))
        #expect(source.shareableFile(for: image) == nil)
        let other = try folder.write(Array("a file of someone's".utf8), to: "other")
        unlink(path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: other)
        #expect(source.shareableFile(for: image) == nil)
    }

    @Test func cachedDownloadsAndTheirFoldersArePrivate() throws {
        defer { folder.remove() }
        // An image: bytes that are none are never shared (OutgoingFileTests).
        source.store(Data(TestImages.png(width: 2, height: 2)), for: "https://e.org/cat.png")
        let file = source.cacheFile(for: "https://e.org/cat.png").path
        #expect(try mode(of: file) == 0o600)
        #expect(try mode(of: source.cacheDirectory.path) == 0o700)
        let shared = try #require(source.shareableFile(for: GalleryImage(url: "https://e.org/cat.png", aspectRatio: 1)))
        #expect(try mode(of: shared.deletingLastPathComponent().path) == 0o700)
        #expect(try mode(of: shared.path) == 0o600)
    }

    @Test func importedFilesNoGalleryRefersToAreRemovedOnlyWhenWrittenBeforeTheLaunch() throws {
        defer { folder.remove() }
        let imports = folder.url.appendingPathComponent("imported", isDirectory: true)
        try FileManager.default.createDirectory(at: imports, withIntermediateDirectories: true)
        let launch = Date()
        let earlier = launch.addingTimeInterval(-3600)
        let names = ["kept.png", "unreferenced.png", "fresh.png"]
        for name in names {
            try Data([1]).write(to: imports.appendingPathComponent(name))
        }
        try FileManager.default.createDirectory(
            at: imports.appendingPathComponent("folder"), withIntermediateDirectories: true)
        for name in ["kept.png", "unreferenced.png", "folder"] {
            try FileManager.default.setAttributes(
                [.modificationDate: earlier], ofItemAtPath: imports.appendingPathComponent(name).path)
        }
        try FileManager.default.setAttributes(
            [.modificationDate: launch.addingTimeInterval(1)],
            ofItemAtPath: imports.appendingPathComponent("fresh.png").path)
        source.pruneImports(
            in: imports, keeping: ["file://" + imports.appendingPathComponent("kept.png").path, "https://e.org/x.png"],
            writtenBefore: launch)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: imports.path).sorted()
                == ["folder", "fresh.png", "kept.png"])
    }

    private func mode(of path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }
}
