#if canImport(Glibc)
    import Glibc
#endif

/// How far from the open internet an IP address reaches: a page on a public server must not make the
/// app send requests into the user's own machine or network (a router's admin page, a cloud's metadata
/// service at 169.254.169.254) by redirecting there.
public enum AddressScope: Sendable, Equatable {
    case publicInternet
    /// RFC 1918 (10/8, 172.16/12, 192.168/16), carrier-grade NAT (100.64/10), IPv6 unique-local (fc00::/7)
    /// and site-local (fec0::/10).
    case privateNetwork
    /// 169.254/16 (the cloud metadata services among them) and fe80::/10.
    case linkLocal
    /// 127/8 and ::1.
    case loopback
    /// 0.0.0.0/8 and ::, which Linux connects to this machine.
    case unspecified

    /// The scope of `address` as libcurl writes it (dotted IPv4 or textual IPv6, an IPv4-mapped or
    /// -compatible IPv6 address as its IPv4); text that is no IP address counts as loopback, the most private.
    public init(_ address: String) {
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, address, &v4) == 1 {
            self = Self(ipv4: withUnsafeBytes(of: v4) { Array($0) })
        } else if inet_pton(AF_INET6, address, &v6) == 1 {
            self = Self(ipv6: withUnsafeBytes(of: v6) { Array($0) })
        } else {
            self = .loopback
        }
    }

    /// `bytes`: the four bytes in network order.
    init(ipv4 bytes: [UInt8]) {
        switch (bytes[0], bytes[1]) {
        case (0, _): self = .unspecified
        case (127, _): self = .loopback
        case (10, _), (172, 16...31), (192, 168), (100, 64...127): self = .privateNetwork
        case (169, 254): self = .linkLocal
        default: self = .publicInternet
        }
    }

    /// `bytes`: the sixteen bytes in network order.
    init(ipv6 bytes: [UInt8]) {
        let leadingZeros = bytes.prefix(10).allSatisfy { $0 == 0 }
        if leadingZeros && bytes[10] == 0xff && bytes[11] == 0xff {
            self = Self(ipv4: Array(bytes[12...]))  // ::ffff:a.b.c.d reaches a.b.c.d
        } else if leadingZeros && bytes[10] == 0 && bytes[11] == 0 {
            switch bytes[12...] {
            case [0, 0, 0, 0]: self = .unspecified
            case [0, 0, 0, 1]: self = .loopback
            default: self = Self(ipv4: Array(bytes[12...]))  // the deprecated ::a.b.c.d
            }
        } else if bytes[0] & 0xfe == 0xfc {
            self = .privateNetwork
        } else if bytes[0] == 0xfe && bytes[1] & 0xc0 == 0x80 {
            self = .linkLocal
        } else if bytes[0] == 0xfe && bytes[1] & 0xc0 == 0xc0 {
            self = .privateNetwork
        } else {
            self = .publicInternet
        }
    }

    /// Closer to the user's machine is higher: public, then the local network, then the link, then the machine.
    private var closeness: Int {
        switch self {
        case .publicInternet: 0
        case .privateNetwork: 1
        case .linkLocal: 2
        case .loopback, .unspecified: 3
        }
    }

    /// Whether a transfer that began at an address of this scope may go on (a redirect, a reused connection)
    /// to one of `later`: never closer to the user's machine than where it began.
    public func mayLead(to later: AddressScope) -> Bool {
        later.closeness <= closeness
    }
}
