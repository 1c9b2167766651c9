import Foundation

/// An image's bytes as the browser extension sends them: in the message itself, or announced there and sent
/// before it in chunks (`BrowserMessage.chunk`) that the native host keeps in a file of its own.
public enum BrowserBytes: Equatable, Sendable {
    case inline(Data, mimeType: String)
    /// `length` bytes the chunks of transfer `id` carried.
    case transfer(id: String, length: Int, mimeType: String)

    public var mimeType: String {
        switch self {
        case .inline(_, let mimeType), .transfer(_, _, let mimeType): mimeType
        }
    }
}
