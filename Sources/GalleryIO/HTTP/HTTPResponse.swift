import Foundation

public struct HTTPResponse: Sendable {
    public let body: Data
    public let contentType: String?
    /// The URL after redirects.
    public let finalURL: String
    /// The body counted against the transfer budget while this response (or a copy) lives: hold it
    /// until the body has been used.
    public let held: HeldBytes
}
