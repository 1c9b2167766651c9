import Testing

@testable import GalleryIO

@Suite struct AddressScopeTests {
    @Test(arguments: [
        ("8.8.8.8", AddressScope.publicInternet), ("93.184.215.14", .publicInternet),
        ("1.1.1.1", .publicInternet), ("100.63.255.255", .publicInternet), ("100.128.0.0", .publicInternet),
        ("172.15.255.255", .publicInternet), ("172.32.0.0", .publicInternet), ("192.167.255.255", .publicInternet),
        ("169.253.255.255", .publicInternet), ("126.255.255.255", .publicInternet),
        ("10.0.0.1", .privateNetwork), ("10.255.255.255", .privateNetwork), ("172.16.0.0", .privateNetwork),
        ("172.31.255.255", .privateNetwork), ("192.168.1.1", .privateNetwork), ("100.64.0.0", .privateNetwork),
        ("100.127.255.255", .privateNetwork),
        ("169.254.169.254", .linkLocal), ("169.254.0.1", .linkLocal),
        ("127.0.0.1", .loopback), ("127.255.255.254", .loopback),
        ("0.0.0.0", .unspecified), ("0.1.2.3", .unspecified),
    ])
    func ipv4(address: String, scope: AddressScope) {
        #expect(AddressScope(address) == scope)
    }

    @Test(arguments: [
        ("2606:4700:4700::1111", AddressScope.publicInternet), ("2001:db8::1", .publicInternet),
        ("fbff:ffff::1", .publicInternet), ("fe7f::1", .publicInternet), ("ff02::1", .publicInternet),
        ("fc00::1", .privateNetwork), ("fd12:3456:789a::1", .privateNetwork), ("fec0::1", .privateNetwork),
        ("fe80::1", .linkLocal), ("fe80::1234:5678:9abc:def0", .linkLocal), ("febf:ffff::1", .linkLocal),
        ("::1", .loopback), ("0:0:0:0:0:0:0:1", .loopback),
        ("::", .unspecified),
    ])
    func ipv6(address: String, scope: AddressScope) {
        #expect(AddressScope(address) == scope)
    }

    @Test(arguments: [
        ("::ffff:127.0.0.1", AddressScope.loopback), ("::ffff:7f00:1", .loopback),
        ("::ffff:10.1.2.3", .privateNetwork), ("::ffff:169.254.169.254", .linkLocal),
        ("::ffff:192.168.0.1", .privateNetwork), ("::ffff:0.0.0.0", .unspecified), ("::ffff:8.8.8.8", .publicInternet),
        ("::127.0.0.1", .loopback), ("::10.0.0.1", .privateNetwork), ("::8.8.8.8", .publicInternet),
    ])
    func ipv4InIPv6(address: String, scope: AddressScope) {
        #expect(AddressScope(address) == scope)
    }

    @Test(arguments: ["", "localhost", "127.0.0.1.", "256.1.1.1", "1.2.3", "fe80::1%eth0", "::ffff:1.2.3.4.5", "x::1"])
    func textThatIsNoAddressCountsAsLoopback(text: String) {
        #expect(AddressScope(text) == .loopback)
    }

    @Test func aTransferNeverGoesCloserToTheUsersMachine() {
        let outward: [AddressScope] = [.unspecified, .loopback, .linkLocal, .privateNetwork, .publicInternet]
        #expect(outward.allSatisfy { AddressScope.publicInternet.mayLead(to: $0) == ($0 == .publicInternet) })
        #expect(AddressScope.privateNetwork.mayLead(to: .privateNetwork))
        #expect(AddressScope.privateNetwork.mayLead(to: .publicInternet))
        #expect(!AddressScope.privateNetwork.mayLead(to: .linkLocal))
        #expect(!AddressScope.privateNetwork.mayLead(to: .loopback))
        #expect(AddressScope.linkLocal.mayLead(to: .privateNetwork))
        #expect(!AddressScope.linkLocal.mayLead(to: .loopback))
        #expect(outward.allSatisfy { AddressScope.loopback.mayLead(to: $0) })
        #expect(outward.allSatisfy { AddressScope.unspecified.mayLead(to: $0) })
    }
}
