import Foundation

@testable import GalleryIO

/// What the tests of the library's originals start from: a byte source over a temporary folder (its
/// downloads, thumbnails and originals) on a scheduler of one thread a lane, and a loopback server.
struct OriginalsFixture {
    let folder: TemporaryDirectory
    let source: ImageBytesSource
    let server: LoopbackServer

    init() throws {
        HTTPClientSetUp.once()
        folder = try TemporaryDirectory()
        source = ImageBytesSource(
            cacheDirectory: folder.url.appendingPathComponent("downloads"),
            thumbnails: ThumbnailCache(cacheHome: folder.url), scheduler: JobScheduler(ioThreads: 1, cpuThreads: 1),
            originals: OriginalsStore(directory: folder.url.appendingPathComponent("originals")))
        server = try LoopbackServer()
    }

    func tearDown() {
        server.stop()
        folder.remove()
    }
}
