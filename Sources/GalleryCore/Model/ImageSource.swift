import Foundation

/// One place an image can be obtained from.
public enum ImageSource: Hashable, Sendable {
    /// An absolute http or https URL (search-engine wrappers already unwrapped).
    case remote(URL)
    /// A local `file://` URL (empty host or `localhost`).
    case file(URL)
    /// A `data:` URI whose media type is an image and whose payload decodes.
    case dataURI(String)
    /// The image bytes themselves, with the media type recognised from the content.
    case bytes(Data, mimeType: String)

    /// The URL as text (`remote`, `file`, `dataURI`); nil for `bytes`.
    public var urlString: String? {
        switch self {
        case .remote(let url), .file(let url): return url.absoluteString
        case .dataURI(let uri): return uri
        case .bytes: return nil
        }
    }
}
