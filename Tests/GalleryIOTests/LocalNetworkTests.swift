import Foundation
import GLibKit
import GalleryCore
import Testing

@testable import GalleryIO

/// In a library in a folder the user chose: an address on the user's network or machine that nobody here added is
/// not asked for, and what the user approves is kept in this computer's own record.
@Suite struct LocalNetworkTests {
    @Test(arguments: [
        ("127.0.0.1", AddressScope.loopback), ("127.1", .loopback), ("2130706433", .loopback),
        ("0x7f000001", .loopback), ("0177.0.0.1", .loopback), ("[::1]", .loopback), ("::1", .loopback),
        ("localhost", .loopback), ("LocalHost.", .loopback), ("app.localhost", .loopback), ("", .loopback),
        ("127.0.0.1.", .loopback), ("%31%32%37.0.0.1", .loopback), ("[::ffff:127.0.0.1]", .loopback),
        ("0.0.0.0", .unspecified), ("[::]", .unspecified),
        ("192.168.1.50", .privateNetwork), ("10.1", .privateNetwork), ("[fd00::1]", .privateNetwork),
        ("nas", .privateNetwork), ("printer.local", .privateNetwork), ("fritz.box", .privateNetwork),
        ("router.home.arpa", .privateNetwork), ("wiki.corp", .privateNetwork),
        ("169.254.169.254", .linkLocal), ("[fe80::1]", .linkLocal),
        ("example.com", .publicInternet), ("93.184.215.14", .publicInternet), ("[2606:4700::1111]", .publicInternet),
        ("images.example.org.", .publicInternet), ("local.example.com", .publicInternet),
    ])
    func hostAsWritten(host: String, scope: AddressScope) {
        #expect(AddressScope(host: host) == scope)
    }

    @Test func onlyWebAddressesHaveAScope() {
        #expect(AddressScope.ofWebAddress("http://192.168.1.50/snapshot.jpg") == .privateNetwork)
        #expect(AddressScope.ofWebAddress("HTTPS://user@localhost:8443/a.png") == .loopback)
        #expect(AddressScope.ofWebAddress("http://[::1]:8080/a.png") == .loopback)
        #expect(AddressScope.ofWebAddress("https://example.com/a.png") == .publicInternet)
        // Unreadable: counted as the most private.
        #expect(AddressScope.ofWebAddress("http://exa mple.com/a b") == .loopback)
        #expect(AddressScope.ofWebAddress("file:///home/user/.ssh/id_rsa") == nil)
        #expect(AddressScope.ofWebAddress("data:image/png;base64,AAAA") == nil)
    }

    @Test func approvalsAreKeptInTheRecordAndReadBack() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let scheduler = JobScheduler(ioThreads: 1, cpuThreads: 1)
        let record = folder.url.appendingPathComponent("state/image-gallery/local-addresses.json")
        let approvals = LocalAddressApprovals(record: record, scheduler: scheduler)
        let router = "http://192.168.1.1/logo.png"
        let web = "https://example.com/a.png"
        #expect(approvals.needsApproval(router))
        #expect(!approvals.needsApproval(web))
        #expect(!approvals.needsApproval("file:///etc/passwd"))
        approvals.approve([router, web, "data:image/png;base64,AAAA"])
        #expect(!approvals.needsApproval(router))
        #expect(approvals.isApproved(web))
        // Written on the I/O lane: a job after it finds it.
        _ = await callback { done in scheduler.submit(.io, .background) { done(()) } }
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: record)) as? [String: [String]]
        // Only the local one: a public name's approval lasts this session.
        #expect(written == ["approved": [router]])
        let again = LocalAddressApprovals(record: record, scheduler: scheduler)
        #expect(!again.needsApproval(router))
        #expect(!again.isApproved(web))
        #expect(again.needsApproval("http://192.168.1.1/admin"))
    }

    @Test func aRecordThePreviousVersionWroteIsRead() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        // Foundation's `JSONSerialization` wrote it: on one line, slashes escaped.
        let record = try folder.write(
            Array(#"{"approved":["http:\/\/192.168.1.2\/a.png","http:\/\/[::1]\/b"]}"#.utf8), to: "local-addresses.json"
        )
        let approvals = LocalAddressApprovals(
            record: URL(fileURLWithPath: record), scheduler: JobScheduler(ioThreads: 1, cpuThreads: 1))
        #expect(approvals.isApproved("http://192.168.1.2/a.png") && approvals.isApproved("http://[::1]/b"))
        #expect(approvals.needsApproval("http://192.168.1.2/c.png"))
    }

    @Test func anUnreadableRecordApprovesNothing() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let record = try folder.write(Array("{\"approved\": 7}".utf8), to: "local-addresses.json")
        let approvals = LocalAddressApprovals(
            record: URL(fileURLWithPath: record), scheduler: JobScheduler(ioThreads: 1, cpuThreads: 1))
        #expect(approvals.needsApproval("http://localhost/a.png"))
    }

    @Test func aLocalAddressNobodyApprovedIsNotAskedForUntilApproved() async throws {
        let fixture = try OriginalsFixture()
        defer { fixture.tearDown() }
        let scheduler = JobScheduler(ioThreads: 1, cpuThreads: 1)
        let approvals = LocalAddressApprovals(
            record: fixture.folder.url.appendingPathComponent("local-addresses.json"), scheduler: scheduler)
        let source = ImageBytesSource(
            cacheDirectory: fixture.folder.url.appendingPathComponent("downloads"),
            thumbnails: ThumbnailCache(cacheHome: fixture.folder.url), scheduler: scheduler,
            originals: OriginalsStore(directory: fixture.folder.url.appendingPathComponent("originals")),
            localAddresses: approvals)
        let png = TestImages.png(width: 2, height: 2)
        fixture.server.answer(
            "/x.png", LoopbackServer.response(200, body: png), LoopbackServer.response(200, body: png))
        let url = fixture.server.url("/x.png")
        let refused = try #require(await callback { done in source.fetch(url, priority: .visible, then: done) })
        #expect(throws: LoadFailure.onLocalNetwork) { try refused.get() }
        #expect(fixture.server.requestCount("/x.png") == 0)

        approvals.approve([url])
        let fetched = try #require(await callback { done in source.fetch(url, priority: .visible, then: done) })
        #expect(try fetched.get() == Data(png))
        #expect(fixture.server.requestCount("/x.png") == 1)
    }

    @Test func theDataFolderAsksForLocalAddressesAsBefore() async throws {
        let fixture = try OriginalsFixture()
        defer { fixture.tearDown() }
        let png = TestImages.png(width: 2, height: 2)
        fixture.server.answer("/x.png", LoopbackServer.response(200, body: png))
        let url = fixture.server.url("/x.png")
        let fetched = try #require(await callback { done in fixture.source.fetch(url, priority: .visible, then: done) })
        #expect(try fetched.get() == Data(png))
    }
}
