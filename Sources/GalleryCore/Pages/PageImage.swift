/// One image a page offers, as its HTML or the browser that showed it described it.
public struct PageImage: Hashable, Sendable {
    /// The image's absolute `http`/`https` address: the largest candidate the page names for it.
    public var address: String
    /// The image's alternative text (`alt`).
    public var altText: String?
    /// The image's `title`, or its link's.
    public var title: String?
    /// The absolute address of the link around the image (`<a href>`).
    public var link: String?
    /// The width the page declares for it (`width`, or the `w` of its `srcset` candidate), in pixels.
    public var width: Int?
    /// The height the page declares for it (`height`), in pixels.
    public var height: Int?

    public init(
        address: String, altText: String? = nil, title: String? = nil, link: String? = nil,
        width: Int? = nil, height: Int? = nil
    ) {
        self.address = address
        self.altText = altText
        self.title = title
        self.link = link
        self.width = width
        self.height = height
    }
}

extension PageImage {
    /// The same image named again on the page: what its first mention left out, this one may say.
    mutating func fillGaps(from other: PageImage) {
        altText = altText ?? other.altText
        title = title ?? other.title
        link = link ?? other.link
        if width == nil && height == nil { (width, height) = (other.width, other.height) }
    }
}
