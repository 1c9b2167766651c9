/// A page and the images it offers: what the page picker lists, whether the app fetched the page
/// itself or a browser sent what it had loaded.
public struct PageCapture: Hashable, Sendable {
    /// The page's address, as the origin of every image added from it records it.
    public var pageAddress: String
    /// The page's `<title>`, when it has one.
    public var pageTitle: String?
    /// The page's images in page order, without repeats.
    public var images: [PageImage]

    public init(pageAddress: String, pageTitle: String? = nil, images: [PageImage]) {
        self.pageAddress = pageAddress
        self.pageTitle = pageTitle
        self.images = images
    }
}

extension PageCapture {
    /// `image` as a drop of it would bring it in: its origin names this page, its title, and what the
    /// page said of the image.
    public func dropped(_ image: PageImage) -> DroppedImage {
        DroppedImage(
            url: image.address,
            origin: ImageOrigin(
                link: image.link, page: pageAddress, altText: image.altText, title: image.title, pageTitle: pageTitle))
    }
}
