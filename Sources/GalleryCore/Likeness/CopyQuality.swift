/// How good one copy of a picture is, to keep the better of two: more pixels first, then a lossless format over
/// a lossy one, then the larger file (less compressed).
public struct CopyQuality: Comparable, Sendable {
    public var pixelCount: Int
    public var isLossless: Bool
    public var byteCount: Int

    public init(pixelCount: Int, isLossless: Bool, byteCount: Int) {
        self.pixelCount = pixelCount
        self.isLossless = isLossless
        self.byteCount = byteCount
    }

    /// The quality of the bytes the library keeps of `image`; an image without them (a file read where it is)
    /// counts as the least.
    public init(_ image: GalleryImage) {
        guard let original = image.original else {
            self.init(pixelCount: 0, isLossless: false, byteCount: 0)
            return
        }
        self.init(
            pixelCount: max(original.pixelWidth, 0) * max(original.pixelHeight, 0),
            isLossless: original.format.map(Self.isLossless) ?? false, byteCount: original.byteCount)
    }

    /// Formats whose every file keeps each pixel as it was: WebP and JPEG XL may be either, so count as lossy.
    public static func isLossless(_ format: String) -> Bool {
        ["png", "gif", "bmp", "tiff", "ico", "svg", "svgz"].contains(format.lowercased())
    }

    public static func < (left: CopyQuality, right: CopyQuality) -> Bool {
        (left.pixelCount, left.isLossless ? 1 : 0, left.byteCount)
            < (right.pixelCount, right.isLossless ? 1 : 0, right.byteCount)
    }
}
