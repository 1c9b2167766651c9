import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension AddressScope {
    /// Endings of names that only the user's own network answers: mDNS, what routers and RFC 8375 give the home
    /// network, and names companies keep inside.
    private static let localNameSuffixes = [
        ".local", ".lan", ".home", ".home.arpa", ".internal", ".intranet", ".corp", ".private", ".localdomain", ".box",
    ]

    /// The scope of a host as an address writes it, before any lookup: an IP address in any form the resolver takes
    /// (`127.1`, `0x7f000001`, `[::1]`); `localhost` and its subdomains as the machine; a name of one label (`nas`)
    /// or with a local ending (`printer.local`, `fritz.box`) as the local network; any other name as the internet.
    public init(host: String) {
        var name = (host.removingPercentEncoding ?? host).lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name.hasSuffix(".") { name.removeLast() }
        var v4 = in_addr()
        var v6 = in6_addr()
        if !name.isEmpty, inet_aton(name, &v4) != 0 {
            self = Self(ipv4: withUnsafeBytes(of: v4) { Array($0) })
        } else if inet_pton(AF_INET6, name.split(separator: "%").first.map(String.init) ?? name, &v6) == 1 {
            self = Self(ipv6: withUnsafeBytes(of: v6) { Array($0) })
        } else if name.isEmpty || name == "localhost" || name.hasSuffix(".localhost") {
            self = .loopback
        } else if !name.contains(".") || Self.localNameSuffixes.contains(where: name.hasSuffix) {
            self = .privateNetwork
        } else {
            self = .publicInternet
        }
    }

    /// The scope of an http or https address's host as written; nil for any other address (a file, a `data:` URI).
    public static func ofWebAddress(_ address: String) -> AddressScope? {
        // A `data:` URI may be tens of megabytes: only the scheme is looked at before parsing.
        let scheme = address.prefix(8).lowercased()
        guard scheme.hasPrefix("http:") || scheme.hasPrefix("https:") else { return nil }
        // An address this parser cannot read counts as the most private: nothing says where libcurl would go.
        return AddressScope(host: URL(string: address)?.host ?? "")
    }
}
