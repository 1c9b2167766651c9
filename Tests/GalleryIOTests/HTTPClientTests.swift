import Dispatch
import Foundation
import Synchronization
import Testing

@testable import GalleryIO

/// Downloads from a server on 127.0.0.1, each in a few seconds at most.
@Suite struct HTTPClientTests {
    let server: LoopbackServer

    init() throws {
        HTTPClientSetUp.once()
        server = try LoopbackServer()
    }

    private func download(
        _ path: String, limits: HTTPClient.Limits = HTTPClient.Limits(), cancellation: CancellationToken? = nil,
        progress: @escaping @Sendable (Int64, Int64?) -> Bool = { _, _ in true }
    ) async -> HTTPClient.Outcome? {
        let url = path.contains(":") ? path : server.url(path)
        return await callback { done in
            HTTPClient.start(url, limits: limits, cancellation: cancellation, progress: progress, completion: done)
        }
    }

    @Test func bodyOfA200() async throws {
        defer { server.stop() }
        server.answer("/cat.png", LoopbackServer.response(200, headers: ["Content-Type: image/png"], body: [1, 2, 3]))
        let response = try #require(await download("/cat.png")).get()
        #expect(response.body == Data([1, 2, 3]))
        #expect(response.contentType == "image/png")
        #expect(response.finalURL == server.url("/cat.png"))
    }

    @Test func notFoundIsItsStatus() async throws {
        defer { server.stop() }
        let outcome = try #require(await download("/gone.png"))
        #expect(throws: DownloadError.status(404)) { try outcome.get() }
    }

    @Test func tooManyRequestsWithRetryAfterIsTriedAgain() async throws {
        defer { server.stop() }
        server.answer(
            "/busy", LoopbackServer.response(429, headers: ["Retry-After: 1"]),
            LoopbackServer.response(200, body: [7]))
        let response = try #require(await download("/busy")).get()
        #expect(response.body == Data([7]))
        #expect(server.requestCount("/busy") == 2)
    }

    @Test func unavailableWithoutRetryAfterIsNotTriedAgain() async throws {
        defer { server.stop() }
        server.answer("/down", LoopbackServer.response(503))
        let outcome = try #require(await download("/down"))
        #expect(throws: DownloadError.status(503)) { try outcome.get() }
        // The completion comes after every retry, so no request can follow it.
        #expect(server.requestCount("/down") == 1)
    }

    @Test(arguments: [true, false])
    func bodyOverTheLimitIsTooLarge(announcedLength: Bool) async throws {
        defer { server.stop() }
        let body = [UInt8](repeating: 9, count: 5_000)
        let unannounced: [LoopbackServer.Step] = [.send(LoopbackServer.head(200, headers: [])), .send(body)]
        server.answer("/big", announcedLength ? LoopbackServer.response(200, body: body) : unannounced)
        var limits = HTTPClient.Limits()
        limits.maximumBytes = 1_000
        let outcome = try #require(await download("/big", limits: limits))
        #expect(throws: DownloadError.tooLarge(limit: 1_000)) { try outcome.get() }
    }

    /// A page is stopped at its limit whether it says it is HTML or only begins as HTML; what came is the answer.
    @Test(arguments: [
        (["Content-Type: text/html; charset=utf-8"], "plain words "), ([], "<!DOCTYPE html><p>"),
    ])
    func aPageIsStoppedAtThePageLimit(headers: [String], start: String) async throws {
        defer { server.stop() }
        let body = Array(start.utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 200_000)
        server.answer("/page", LoopbackServer.response(200, headers: headers, body: body))
        var limits = HTTPClient.Limits()
        limits.maximumPageBytes = 50_000
        let response = try #require(await download("/page", limits: limits)).get()
        #expect(response.body.count > 0 && response.body.count <= 50_000)
        #expect(response.body == Data(body.prefix(response.body.count)))
    }

    @Test func anAnswerThatIsNoPageIsNotStoppedAtThePageLimit() async throws {
        defer { server.stop() }
        let body = [UInt8](repeating: 7, count: 200_000)
        server.answer("/cat.png", LoopbackServer.response(200, headers: ["Content-Type: image/png"], body: body))
        var limits = HTTPClient.Limits()
        limits.maximumPageBytes = 50_000
        let response = try #require(await download("/cat.png", limits: limits)).get()
        #expect(response.body == Data(body))
    }

    @Test func gzipBombArrivesAsSent() async throws {
        defer { server.stop() }
        let bomb = Deflate.gzipOfZeros(matches: 4_000)
        #expect(bomb.count < 10_000)
        server.answer("/bomb", LoopbackServer.response(200, headers: ["Content-Encoding: gzip"], body: bomb))
        var limits = HTTPClient.Limits()
        limits.maximumBytes = 100_000
        // Not inflated to its million bytes: the bytes held are the bytes that came, and the decoder refuses them.
        let response = try #require(await download("/bomb", limits: limits)).get()
        #expect(response.body == Data(bomb))
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://127.0.0.1/cat.png"])
    func redirectOffHTTPIsRefused(target: String) async throws {
        defer { server.stop() }
        server.answer("/moved", LoopbackServer.response(302, headers: ["Location: \(target)"]))
        let outcome = try #require(await download("/moved"))
        #expect(throws: DownloadError.refusedProtocol) { try outcome.get() }
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://127.0.0.1/cat.png"])
    func otherProtocolsAreRefused(url: String) async throws {
        defer { server.stop() }
        let outcome = try #require(await download(url))
        #expect(throws: DownloadError.refusedProtocol) { try outcome.get() }
    }

    /// An address another computer wrote that nobody here approved: whatever its name looks like, no request goes
    /// into the user's network or machine, not even the first, nor one a public server redirects to.
    @Test func aTransferForThePublicInternetOnlyNeverReachesALocalAddress() async throws {
        let inner = try LoopbackServer()
        defer {
            server.stop()
            inner.stop()
        }
        server.answer("/cat.png", LoopbackServer.response(200, body: [1]))
        inner.answer("/admin", LoopbackServer.response(200, body: [2]))
        server.answer("/moved", LoopbackServer.response(302, headers: ["Location: \(inner.url("/admin"))"]))
        var limits = HTTPClient.Limits()
        limits.publicAddressesOnly = true
        let outcome = try #require(await download("/cat.png", limits: limits))
        #expect(throws: DownloadError.localNetwork) { try outcome.get() }
        #expect(LoadFailure(DownloadError.localNetwork) == .onLocalNetwork)
        #expect(server.requests.isEmpty)
        let publicPort = server.port
        limits.addressScope = { _, port in port == publicPort ? .publicInternet : .loopback }
        let outward = try #require(await download("/cat.png", limits: limits))
        #expect(try outward.get().body == Data([1]))
        let moved = try #require(await download("/moved", limits: limits))
        #expect(throws: DownloadError.refusedAddress) { try moved.get() }
        #expect(inner.requests.isEmpty)
    }

    /// Both servers listen on 127.0.0.1, so the test's scopes tell them apart by port: `server` stands for a
    /// public one, the other for `target`.
    @Test(arguments: [AddressScope.privateNetwork, .linkLocal, .loopback, .unspecified])
    func redirectFromAPublicAddressInwardIsRefused(target: AddressScope) async throws {
        let inner = try LoopbackServer()
        defer {
            server.stop()
            inner.stop()
        }
        inner.answer("/admin", LoopbackServer.response(200, body: [1]))
        server.answer("/moved", LoopbackServer.response(302, headers: ["Location: \(inner.url("/admin"))"]))
        var limits = HTTPClient.Limits()
        let publicPort = server.port
        limits.addressScope = { _, port in port == publicPort ? .publicInternet : target }
        let outcome = try #require(await download("/moved", limits: limits))
        #expect(throws: DownloadError.refusedAddress) { try outcome.get() }
        #expect(LoadFailure(DownloadError.refusedAddress).description == "refused a redirect to a local address")
        // Refused before the request was sent.
        #expect(inner.requests.isEmpty)
        #expect(server.requests == ["/moved"])
    }

    @Test func redirectBetweenPublicAddressesOrOutwardIsFollowed() async throws {
        let other = try LoopbackServer()
        defer {
            server.stop()
            other.stop()
        }
        other.answer("/there", LoopbackServer.response(200, body: [4, 2]))
        server.answer("/moved", LoopbackServer.response(302, headers: ["Location: \(other.url("/there"))"]))
        for otherScope in [AddressScope.publicInternet, .privateNetwork] {
            var limits = HTTPClient.Limits()
            let firstPort = server.port
            // From public to public, and from the local network out to the internet.
            let firstScope: AddressScope = otherScope == .publicInternet ? .publicInternet : .loopback
            limits.addressScope = { _, port in port == firstPort ? firstScope : otherScope }
            let response = try #require(await download("/moved", limits: limits)).get()
            #expect(response.body == Data([4, 2]))
        }
        #expect(other.requestCount("/there") == 2)
    }

    @Test func redirectBetweenLoopbackAddressesIsFollowed() async throws {
        let other = try LoopbackServer()
        defer {
            server.stop()
            other.stop()
        }
        other.answer("/there", LoopbackServer.response(200, body: [5]))
        server.answer("/moved", LoopbackServer.response(302, headers: ["Location: \(other.url("/there"))"]))
        let response = try #require(await download("/moved")).get()
        #expect(response.body == Data([5]))
    }

    @Test func serverThatStopsAfterTheHeadersTimesOut() async throws {
        defer { server.stop() }
        server.answer("/stalls", [.send(LoopbackServer.head(200, headers: ["Content-Length: 1000"])), .stall])
        var limits = HTTPClient.Limits()
        limits.slowSeconds = 1
        let outcome = try #require(await download("/stalls", limits: limits))
        #expect(throws: DownloadError.timedOut) { try outcome.get() }
    }

    @Test func cancellingDuringASlowBodyStopsPromptly() async throws {
        defer { server.stop() }
        server.answer(
            "/slow", [.send(LoopbackServer.head(200, headers: ["Content-Length: 100000"])), .send([1, 2, 3]), .stall])
        let cancellation = CancellationToken()
        let cancelledAt = Mutex<ContinuousClock.Instant?>(nil)
        // Timed where the completion comes: this test may resume later, behind other tests.
        let finished: (HTTPClient.Outcome, ContinuousClock.Instant)? = await callback { done in
            HTTPClient.start(server.url("/slow"), cancellation: cancellation) { received, _ in
                // Cancelled from another thread once the body has begun, as the GTK thread would.
                if received > 0, cancelledAt.withLock({ $0 == nil }) {
                    cancelledAt.withLock { $0 = .now }
                    Thread { cancellation.cancel() }.start()
                }
                return true
            } completion: {
                done(($0, .now))
            }
        }
        let (outcome, finishedAt) = try #require(finished)
        let took = finishedAt - (try #require(cancelledAt.withLock { $0 }))
        #expect(throws: DownloadError.cancelled) { try outcome.get() }
        // libcurl asks for progress at least once a second while nothing arrives.
        #expect(took < .seconds(3))
    }

    @Test func progressReportsIncreasingByteCounts() async throws {
        defer { server.stop() }
        let firstPart = [UInt8](repeating: 1, count: 1_000)
        let secondPart = [UInt8](repeating: 2, count: 50_000)
        let firstPartArrived = DispatchSemaphore(value: 0)
        server.answer(
            "/parts",
            [
                .send(LoopbackServer.head(200, headers: ["Content-Length: \(firstPart.count + secondPart.count)"])),
                .send(firstPart), .wait(firstPartArrived), .send(secondPart),
            ])
        let reports = Mutex<[(received: Int64, expected: Int64?)]>([])
        let response = try #require(
            await download("/parts") { received, expected in
                let isFirst = reports.withLock { reports in
                    reports.append((received, expected))
                    return received >= firstPart.count
                        && !reports.dropLast().contains { $0.received >= firstPart.count }
                }
                if isFirst { firstPartArrived.signal() }
                return true
            }
        ).get()
        #expect(response.body.count == firstPart.count + secondPart.count)
        let counts = reports.withLock { $0 }
        let received = counts.map(\.received)
        #expect(received == received.sorted())
        #expect(received.contains { $0 > 0 && $0 < Int64(response.body.count) })
        #expect(received.last == Int64(response.body.count))
        #expect(counts.last?.expected == Int64(response.body.count))
    }
}

/// The user agent every test that downloads sends, set once.
enum HTTPClientSetUp {
    private static let done: Void = HTTPClient.setUserAgent("GalleryIOTests")

    static func once() { done }
}
