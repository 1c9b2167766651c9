import Foundation

/// One image the browser extension sent ("Send Image to Image Gallery"): its addresses, what the page said
/// of it, the page it was on, and its bytes when the page had them.
public struct BrowserImage: Equatable, Sendable {
    /// The page's address.
    public var page: String
    /// The page's title.
    public var pageTitle: String?
    /// Its http(s) addresses, best first: the largest `srcset` candidate, then the address the page shows.
    public var addresses: [String]
    public var altText: String?
    public var title: String?
    /// The link around the image.
    public var link: String?
    public var bytes: BrowserBytes?

    public init(
        page: String, pageTitle: String? = nil, addresses: [String], altText: String? = nil, title: String? = nil,
        link: String? = nil, bytes: BrowserBytes? = nil
    ) {
        self.page = page
        self.pageTitle = pageTitle
        self.addresses = addresses
        self.altText = altText
        self.title = title
        self.link = link
        self.bytes = bytes
    }

    /// Whether its bytes are announced but still with the native host (only the host reads such a message).
    public var isWaitingForTransfer: Bool {
        if case .transfer = bytes { true } else { false }
    }

    /// The image as a drop holds it: the addresses are fetched first, the page's bytes used when they fail
    /// (or are all there is, for a `blob:` image or a canvas).
    public var dropped: DroppedImage {
        var bytes: Data?
        if case .inline(let data, _) = self.bytes { bytes = data }
        let origin = ImageOrigin(
            arrival: .drop, link: link, page: page, altText: altText, title: title, pageTitle: pageTitle)
        return DroppedImage(
            url: addresses.first, alternateURLs: Array(addresses.dropFirst()), fallbackBytes: bytes,
            mimeType: bytes == nil ? nil : self.bytes?.mimeType, origin: origin)
    }
}
