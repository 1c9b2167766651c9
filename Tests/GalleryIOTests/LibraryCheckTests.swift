import Foundation
import GLibKit
import GalleryCore
import Testing

@testable import GalleryIO

/// Check Library: each kept original checked against its name; one missing or cut short written back from its
/// source when the source gives the same bytes, and named when it gives other bytes or nothing.
@Suite struct LibraryCheckTests {
    let fixture: OriginalsFixture
    private var source: ImageBytesSource { fixture.source }
    private var server: LoopbackServer { fixture.server }

    init() throws { fixture = try OriginalsFixture() }

    /// Kept bytes, served by the loopback server at `path`, as an image of the library refers to them.
    private func keptImage(_ path: String, bytes: [UInt8], served: [UInt8]? = nil) throws -> GalleryImage {
        let sha256 = try source.originals.keep(Data(bytes))
        server.answer(path, LoopbackServer.response(200, body: served ?? bytes))
        var image = GalleryImage(url: server.url(path), aspectRatio: 1)
        image.original = KeptOriginal(
            sha256: sha256, byteCount: bytes.count, pixelWidth: 1, pixelHeight: 1, format: nil)
        return image
    }

    private func bytes(_ seed: Int) -> [UInt8] { (0..<5000).map { UInt8(($0 * 31 + seed) % 251) } }

    private func run(_ items: [LibraryCheck.Item]) async throws -> LibraryCheck.Report {
        try #require(
            await callback { done in
                LibraryCheck(items, source: source, progress: { _, _ in }, completion: done).start()
            })
    }

    @Test func findsMissingAndCutOriginalsAndRepairsThoseWhoseSourceGivesTheSameBytes() async throws {
        defer { fixture.tearDown() }
        let intact = try keptImage("/intact.png", bytes: bytes(1))
        let missing = try keptImage("/missing.png", bytes: bytes(2))
        let cut = try keptImage("/cut.png", bytes: bytes(3))
        let changed = try keptImage("/changed.png", bytes: bytes(4), served: bytes(40))
        let gone = try keptImage("/gone.png", bytes: bytes(5))
        server.answer("/gone.png", LoopbackServer.response(404))
        let store = source.originals
        unlink(try #require(store.path(for: missing.original!.sha256)))
        try Data(bytes(3).prefix(100)).write(
            to: URL(fileURLWithPath: try #require(store.path(for: cut.original!.sha256))))
        try Data(bytes(4).prefix(100)).write(
            to: URL(fileURLWithPath: try #require(store.path(for: changed.original!.sha256))))
        unlink(try #require(store.path(for: gone.original!.sha256)))

        let items = LibraryCheck.items(of: [intact, missing, cut, changed, gone])
        let report = try await run(items)

        #expect(!report.isCancelled)
        #expect(
            report.findings == [
                .intact, .repaired(.missing), .repaired(.damaged), .sourceChanged(.damaged),
                .lost(.missing, reason: "HTTP 404"),
            ])
        #expect(try store.read(missing.original!.sha256).get() == Data(bytes(2)))
        #expect(try store.read(cut.original!.sha256).get() == Data(bytes(3)))
        // Other bytes are never written under the original's name, nor is the damaged file replaced by them.
        #expect(store.condition(of: changed.original!.sha256) == .damaged)
        #expect(
            FileManager.default.contents(atPath: store.path(for: changed.original!.sha256)!)
                == Data(bytes(4).prefix(100)))
        #expect(store.condition(of: gone.original!.sha256) == .missing)
        #expect(report.labels { $0 == .sourceChanged(.damaged) } == [changed.label])
        // An intact original needs no network.
        #expect(server.requestCount("/intact.png") == 0)
    }

    @Test func aSourceWhoseServerIsGoneLeavesTheOriginalNamed() async throws {
        defer { fixture.tearDown() }
        // A server of its own, stopped once: a second shutdown could hit a descriptor another test's server reuses.
        let gone = try LoopbackServer()
        var image = try keptImage("/cat.png", bytes: bytes(6))
        image.url = gone.url("/cat.png")
        unlink(try #require(source.originals.path(for: image.original!.sha256)))
        gone.stop()
        let report = try await run(LibraryCheck.items(of: [image]))
        let finding = try #require(report.findings.first)
        guard case .lost(.missing, let reason) = finding else {
            Issue.record("expected the original lost, got \(finding)")
            return
        }
        #expect(reason == "could not connect")
        #expect(source.originals.condition(of: image.original!.sha256) == .missing)
    }

    @Test func aCachedDownloadOfTheSameBytesRepairsWithoutTheNetwork() async throws {
        defer { fixture.tearDown() }
        let image = try keptImage("/cached.png", bytes: bytes(7))
        source.store(Data(bytes(7)), for: image.url)
        unlink(try #require(source.originals.path(for: image.original!.sha256)))
        let report = try await run(LibraryCheck.items(of: [image]))
        #expect(report.findings == [.repaired(.missing)])
        #expect(server.requestCount("/cached.png") == 0)
    }

    @Test func anOriginalSeveralImagesKeepIsCheckedOnceAndTriesEachAddress() async throws {
        defer { fixture.tearDown() }
        let first = try keptImage("/first.png", bytes: bytes(8))
        server.answer("/first.png", LoopbackServer.response(404))
        var second = GalleryImage(url: server.url("/second.png"), aspectRatio: 1)
        second.original = first.original
        server.answer("/second.png", LoopbackServer.response(200, body: bytes(8)))
        unlink(try #require(source.originals.path(for: first.original!.sha256)))

        let items = LibraryCheck.items(of: [first, second])
        #expect(
            items == [
                LibraryCheck.Item(sha256: first.original!.sha256, urls: [first.url, second.url], label: first.label)
            ])
        let report = try await run(items)
        #expect(report.findings == [.repaired(.missing)])
        #expect(source.originals.condition(of: first.original!.sha256) == .intact)
    }

    @Test func aCancelledCheckSaysSoAndLeavesTheRestUnchecked() async throws {
        defer { fixture.tearDown() }
        let images = try (0..<6).map { try keptImage("/\($0).png", bytes: bytes(10 + $0)) }
        let check = try #require(
            await callback { (done: @escaping @Sendable (LibraryCheck.Report) -> Void) in
                let check = LibraryCheck(
                    LibraryCheck.items(of: images), source: source, progress: { _, _ in }, completion: done)
                check.cancel()
                check.start()
            })
        #expect(check.isCancelled)
        #expect(check.findings == Array(repeating: .unchecked, count: 6))
    }
}
