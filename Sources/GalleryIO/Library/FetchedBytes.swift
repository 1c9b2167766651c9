import Foundation

/// An answer's bytes and the address they came from: after redirects for a download, else the address asked for.
public struct FetchedBytes: Sendable {
    public let data: Data
    /// Where the bytes were found: a page's relative addresses resolve against it.
    public let address: String
    /// A server answered with a page (`PageHTML.isPage`, by what it said the bytes are, too).
    public let isPage: Bool

    public init(data: Data, address: String, isPage: Bool = false) {
        self.data = data
        self.address = address
        self.isPage = isPage
    }
}
