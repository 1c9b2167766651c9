import Foundation
import Synchronization
import Testing

@testable import GalleryIO

/// An HTTP/2 server's transfers share its connections, while the per-server limit still counts connections.
@Suite struct HTTP2MultiplexingTests {
    init() {
        HTTPClientSetUp.once()
    }

    @Test func aHundredTransfersToAnHTTP2ServerShareOneConnectionAndAllArrive() async throws {
        let files = (0..<100).map { index in
            (name: "\(index).bin", bytes: [UInt8](repeating: UInt8(index), count: 1_000 + index))
        }
        let server = try HTTP2Server(files: files)
        defer { server.stop() }
        var limits = HTTPClient.Limits()
        limits.transfers = TransferThread(connectionsPerHost: 6, connections: 64, bytesHeld: 1_000_000)
        limits.certificateAuthorities = server.certificateAuthority
        let outcomes = Mutex([Int: Result<[UInt8], DownloadError>]())
        let all = try #require(
            await callback(within: 120) { (done: @escaping @Sendable ([Result<[UInt8], DownloadError>]) -> Void) in
                for (index, file) in files.enumerated() {
                    HTTPClient.start(server.url(file.name), limits: limits) { _, _ in
                        true
                    } completion: { outcome in
                        let finished: [Result<[UInt8], DownloadError>]? = outcomes.withLock { outcomes in
                            outcomes[index] = outcome.map { [UInt8]($0.body) }
                            return outcomes.count == files.count ? files.indices.map { outcomes[$0]! } : nil
                        }
                        if let finished { done(finished) }
                    }
                }
            })
        for (index, outcome) in all.enumerated() {
            #expect(try outcome.get() == files[index].bytes, "transfer \(index)")
        }
        #expect(server.connections == 1)
    }

    @Test func anHTTP1ServerHoldsAConnectionATransfer() {
        var connections = ServerConnections(perServer: 6, total: 8)
        for _ in 0..<6 { connections.start(on: "a:80") }
        #expect(!connections.admits("a:80"))
        #expect(connections.admits("b:80"))
        connections.start(on: "b:80")
        connections.start(on: "b:80")
        #expect(connections.isFull)
        #expect(!connections.admits("b:80"))
        connections.end(on: "a:80")
        #expect(connections.admits("b:80"))
    }

    @Test func anHTTP2ServersTransfersCountAsTheConnectionsTheyShare() {
        let streams = ServerConnections.streamsPerConnection
        var connections = ServerConnections(perServer: 6, total: 8)
        connections.start(on: "a:443")
        connections.heard("a:443", multiplexing: true)
        for _ in 1..<streams { connections.start(on: "a:443") }
        #expect(connections.inUse == 1)
        connections.start(on: "a:443")
        #expect(connections.inUse == 2)
        for _ in 0..<(6 * streams - streams - 1) { connections.start(on: "a:443") }
        #expect(connections.inUse == 6)
        #expect(!connections.admits("a:443"), "six connections' worth of streams at most")
        #expect(connections.admits("b:80"))
        connections.heard("a:443", multiplexing: false)
        #expect(connections.inUse == 6 * streams, "a server that stopped multiplexing holds a connection a transfer")
        #expect(!connections.admits("b:80"))
    }

    @Test func aTLSServerNotHeardFromTakesOneTransferUntilItsHandshakeSays() {
        let start = ContinuousClock.now
        var connections = ServerConnections(perServer: 6, total: 8)
        connections.start(on: "https://a:443", at: start)
        #expect(!connections.admits("https://a:443"), "the others wait for the first's handshake")
        #expect(connections.inUse == 1)
        connections.heard("https://a:443", multiplexing: true)
        for _ in 1..<10 { connections.start(on: "https://a:443") }
        #expect(connections.inUse == 1)
        connections.start(on: "https://b:443", at: start)
        connections.heard("https://b:443", multiplexing: false)
        for _ in 1..<6 { connections.start(on: "https://b:443") }
        #expect(!connections.admits("https://b:443"), "an HTTP/1.1 server over TLS holds six connections")
        #expect(connections.inUse == 7)
        #expect(connections.admits("http://c:80"), "a cleartext server waits on no handshake")
    }

    @Test func aHandshakeKeepsTheOthersWaitingOnlyBriefly() {
        let start = ContinuousClock.now
        var connections = ServerConnections(perServer: 6, total: 8)
        connections.start(on: "https://a:443", at: start)
        let endedEarly = connections.endLongHandshakeWaits(at: start + ServerConnections.handshakeWait / 2)
        #expect(!endedEarly)
        #expect(!connections.admits("https://a:443"))
        let ended = connections.endLongHandshakeWaits(at: start + ServerConnections.handshakeWait)
        #expect(ended)
        #expect(connections.admits("https://a:443"), "counted the HTTP/1.1 way once waited on long enough")
        connections.start(on: "https://b:443", at: start)
        connections.end(on: "https://b:443")
        #expect(connections.awaitsHandshake("https://b:443"), "a transfer that ended unheard leaves it to the next")
        let endedUnheard = connections.endLongHandshakeWaits(at: start + ServerConnections.handshakeWait)
        #expect(!endedUnheard)
    }
}
