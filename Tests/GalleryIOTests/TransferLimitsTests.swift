import Dispatch
import Foundation
import Synchronization
import Testing

@testable import GalleryIO

/// Floods of transfers against servers on 127.0.0.1, each run by a transfer thread of the test's own, so
/// that other tests' downloads do not share its limits.
@Suite struct TransferLimitsTests {
    init() {
        HTTPClientSetUp.once()
    }

    private static func limits(on thread: TransferThread) -> HTTPClient.Limits {
        var limits = HTTPClient.Limits()
        limits.transfers = thread
        return limits
    }

    /// Downloads every URL at once and returns each one's outcome, in their order: the body's size, so
    /// that no response holds its bytes against the budget after its completion, or all responses.
    private static func downloadAll(
        _ urls: [String], limits: HTTPClient.Limits, cancellations: [CancellationToken?]? = nil,
        progress: @escaping @Sendable () -> Void = {}
    ) async -> [Result<Int, DownloadError>]? {
        await downloadAll(urls, limits: limits, cancellations: cancellations, progress: progress) {
            $0.map(\.body.count)
        }
    }

    private static func downloadAll<Kept: Sendable>(
        _ urls: [String], limits: HTTPClient.Limits, cancellations: [CancellationToken?]? = nil,
        progress: @escaping @Sendable () -> Void = {}, keep: @escaping @Sendable (HTTPClient.Outcome) -> Kept
    ) async -> [Kept]? {
        let outcomes = Mutex([Int: Kept]())
        return await callback(within: 240) { done in
            for (index, url) in urls.enumerated() {
                HTTPClient.start(url, limits: limits, cancellation: cancellations?[index]) { _, _ in
                    progress()
                    return true
                } completion: { outcome in
                    let all: [Kept]? = outcomes.withLock { outcomes in
                        outcomes[index] = keep(outcome)
                        guard outcomes.count == urls.count else { return nil }
                        defer { outcomes = [:] }
                        return urls.indices.map { outcomes[$0]! }
                    }
                    if let all { done(all) }
                }
            }
        }
    }

    @Test func aFloodToOneServerOpensAtMostSixConnectionsAndAllArrive() async throws {
        let gauge = ConnectionGauge()
        let server = try LoopbackServer(gauge: gauge)
        defer { server.stop() }
        for index in 0..<2_000 { server.answer("/\(index)", LoopbackServer.response(200, body: [UInt8(index % 256)])) }
        let thread = TransferThread(connectionsPerHost: 6, connections: 64, bytesHeld: 1_000_000)
        let outcomes = try #require(
            await Self.downloadAll((0..<2_000).map { server.url("/\($0)") }, limits: Self.limits(on: thread)))
        for (index, outcome) in outcomes.enumerated() {
            #expect(try outcome.get() == 1, "request \(index)")
        }
        #expect(server.requests.count == 2_000)
        #expect(gauge.peak <= 6)
        #expect(gauge.peak >= 2, "the transfers ran side by side")
    }

    @Test func floodsToManyServersOpenAtMostTheTotal() async throws {
        let gauge = ConnectionGauge()
        let servers = try (0..<30).map { _ in try LoopbackServer(gauge: gauge) }
        defer { for server in servers { server.stop() } }
        for server in servers { server.answer("/image", LoopbackServer.response(200, body: [7])) }
        let thread = TransferThread(connectionsPerHost: 6, connections: 10, bytesHeld: 1_000_000)
        let urls = (0..<20).flatMap { _ in servers.map { $0.url("/image") } }
        let outcomes = try #require(await Self.downloadAll(urls, limits: Self.limits(on: thread)))
        #expect(outcomes.allSatisfy { (try? $0.get()) == 1 })
        #expect(gauge.peak <= 10)
        #expect(gauge.peak >= 2, "the transfers ran side by side")
    }

    @Test func aStalledTransferGivesItsConnectionToAVisibleImageAndStartsAgainAfterIt() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        // The first answer sends its head and nothing more until the client hangs up; the second is whole.
        server.answer(
            "/stalled", [.send(LoopbackServer.head(200, headers: ["Content-Length: 1"])), .stall],
            LoopbackServer.response(200, body: [5]))
        server.answer("/watched", LoopbackServer.response(200, body: [6]))
        let thread = TransferThread(connectionsPerHost: 1, connections: 64, bytesHeld: 1_000_000)
        var stallingLimits = Self.limits(on: thread)
        stallingLimits.giveWaySeconds = 1
        // Never abandoned while the test waits: with every suite running at once on two cores, the task that asks for
        // the watched image may run many seconds after the stalled one started.
        stallingLimits.slowSeconds = 600
        let limits = stallingLimits
        let download: @Sendable (String) async -> HTTPClient.Outcome? = { path in
            await callback { done in
                HTTPClient.start(
                    server.url(path), limits: limits, priority: .visible, progress: { _, _ in true }, completion: done)
            }
        }
        let stalled = Task { await download("/stalled") }
        while server.requests.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        #expect(try #require(await download("/watched")).get().body == Data([6]))
        #expect(try #require(await stalled.value).get().body == Data([5]))
        #expect(server.requests == ["/stalled", "/watched", "/stalled"])
    }

    @Test func cancelledQueuedTransfersNeverConnectAndFreeTheirPlace() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let release = DispatchSemaphore(value: 0)
        server.answer(
            "/held", [.send(LoopbackServer.head(200, headers: ["Content-Length: 1"])), .wait(release), .send([1])])
        server.answer("/after", LoopbackServer.response(200, body: [2]))
        for index in 0..<5 { server.answer("/queued/\(index)", LoopbackServer.response(200, body: [3])) }
        let thread = TransferThread(connectionsPerHost: 1, connections: 64, bytesHeld: 1_000_000)
        let limits = Self.limits(on: thread)
        let held = Task { await Self.downloadAll([server.url("/held")], limits: limits) }
        // The held transfer has the one connection before the others queue behind it.
        while server.requests.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        let cancellation = CancellationToken()
        let queued = Task {
            await Self.downloadAll(
                (0..<5).map { server.url("/queued/\($0)") }, limits: limits,
                cancellations: Array(repeating: cancellation, count: 5))
        }
        let after = Task { await Self.downloadAll([server.url("/after")], limits: limits) }
        cancellation.cancel()
        let cancelled = try #require(await queued.value)
        #expect(cancelled.allSatisfy { outcome in (try? outcome.get()) == nil })
        for outcome in cancelled { #expect(throws: DownloadError.cancelled) { try outcome.get() } }
        release.signal()
        #expect(try #require(await held.value)[0].get() == 1)
        #expect(try #require(await after.value)[0].get() == 1)
        #expect(server.requests == ["/held", "/after"])
    }

    @Test func bytesHeldStayWithinTheBudgetAndOneDownloadMore() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let rest = DispatchSemaphore(value: 0)
        let first = [UInt8](repeating: 1, count: 300_000)
        let last = [UInt8](repeating: 2, count: 100_000)
        server.answer(
            "/big",
            [
                .send(LoopbackServer.head(200, headers: ["Content-Length: 400000"])), .send(first), .wait(rest),
                .send(last),
            ])
        let thread = TransferThread(connectionsPerHost: 6, connections: 64, bytesHeld: 1_000_000)
        var limits = Self.limits(on: thread)
        limits.maximumBytes = 500_000
        let peak = Mutex<Int64>(0)
        let record: @Sendable () -> Void = { peak.withLock { $0 = max($0, thread.budget.held) } }
        // Six answers of 300 kB each would hold 1.8 MB until the servers send the rest.
        // Bounded: should the server's own ten-second wait end first, the bytes are let go and never come back.
        let releaser = Task {
            let deadline = ContinuousClock.now + .seconds(20)
            while thread.budget.held < 700_000, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            try await Task.sleep(for: .milliseconds(500))
            record()
            for _ in 0..<12 { rest.signal() }
        }
        let outcomes = try #require(
            await Self.downloadAll(Array(repeating: server.url("/big"), count: 12), limits: limits, progress: record))
        try await releaser.value
        #expect(outcomes.allSatisfy { (try? $0.get()) == 400_000 })
        #expect(peak.withLock { $0 } > 0)
        #expect(peak.withLock { $0 } <= 1_500_000)
    }

    @Test func theBudgetIsFreeAgainOnceResponsesAreLetGo() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.answer("/image", LoopbackServer.response(200, body: [UInt8](repeating: 3, count: 10_000)))
        server.answer("/gone", LoopbackServer.response(404))
        let thread = TransferThread(connectionsPerHost: 6, connections: 64, bytesHeld: 1_000_000)
        var outcomes = try #require(
            await Self.downloadAll(
                [server.url("/image"), server.url("/image"), server.url("/gone")], limits: Self.limits(on: thread)
            ) { $0 })
        #expect(thread.budget.held == 20_000)
        outcomes.removeAll()
        #expect(thread.budget.held == 0)
    }
}
