import Foundation

/// An answer's bytes and the address they came from: after redirects for a download, else the address asked for.
public struct FetchedBytes: Sendable {
    public let data: Data
    /// Where the bytes were found: a page's relative addresses resolve against it.
    public let address: String

    public init(data: Data, address: String) {
        self.data = data
        self.address = address
    }
}
