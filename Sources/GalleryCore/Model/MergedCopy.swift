/// A copy of an image that was merged into it (Keep Better, Find Duplicates): the address the copy came from
/// and its origin, so that what the copy knew stays with the image kept.
public struct MergedCopy: Hashable, Sendable {
    public var url: String
    public var origin: ImageOrigin?

    public init(url: String, origin: ImageOrigin? = nil) {
        self.url = url
        self.origin = origin
    }
}
