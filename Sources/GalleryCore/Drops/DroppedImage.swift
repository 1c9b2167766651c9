import Foundation

/// One image of a drop, with everything the drag offered for it.
public struct DroppedImage: Hashable, Sendable {
    /// The URL to fetch and to record: http(s) or file, or a `data:` URI when the image has no other address;
    /// nil when the drag carried only bytes.
    public var url: String?
    /// Other URLs of the same image, to try in order when `url` fails (e.g. the `src` when `url` is the
    /// largest `srcset` candidate, or a search result's thumbnail when `url` is the unwrapped original).
    public var alternateURLs: [String]
    /// Image bytes the drag itself carried (an `image/*` or `application/octet-stream` target), to use when
    /// fetching fails.
    public var fallbackBytes: Data?
    /// Media type of `fallbackBytes`, recognised from the content where possible; nil without bytes.
    public var mimeType: String?
    /// What the drag told of the image (its link, alt text, the browser's description…) and, once the
    /// app knows, how and when it came; nil when nothing is known.
    public var origin: ImageOrigin?

    /// Every address of the image, best first: `url`, then `alternateURLs`.
    public var addresses: [String] { [url].compactMap { $0 } + alternateURLs }

    /// The addresses fetched in turn until one gives a picture: the first `ImageLimits.maximumAddressesPerImage`.
    public var addressesToTry: [String] { Array(addresses.prefix(ImageLimits.maximumAddressesPerImage)) }

    public init(
        url: String?, alternateURLs: [String] = [], fallbackBytes: Data? = nil, mimeType: String? = nil,
        origin: ImageOrigin? = nil
    ) {
        self.url = url
        self.alternateURLs = alternateURLs
        self.fallbackBytes = fallbackBytes
        self.mimeType = mimeType
        self.origin = origin
    }
}
