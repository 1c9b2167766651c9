/// A copy of an image that was merged into it (Keep Better, Find Duplicates): the address the copy came from
/// and its origin, so that what the copy knew stays with the image kept.
public struct MergedCopy: Hashable, Sendable {
    public var url: String
    public var origin: ImageOrigin?

    /// The most copies one image keeps: a picture saved again this often is rare, and a longer list in a file another
    /// computer wrote is kept as read (`StateFile`), within the bound of what the app keeps so.
    public static let maximumPerImage = 100

    public init(url: String, origin: ImageOrigin? = nil) {
        self.url = url
        self.origin = origin
    }
}
