import Foundation

public struct HTTPResponse: Sendable {
    public let body: Data
    public let contentType: String?
    /// The URL after redirects.
    public let finalURL: String
}
