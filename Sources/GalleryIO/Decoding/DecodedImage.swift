import GLibKit
import GalleryCore

/// A decoded image, upright, and the size the file itself has: a `Pixbuf` as the decoder leaves it (it may be
/// scaled or saved first), or a `CairoSurface` ready to paint.
public struct DecodedImage<Bitmap: Sendable>: Sendable {
    public let bitmap: Bitmap
    public let originalWidth: Int
    public let originalHeight: Int
    /// What it looks like, when the request asked (`PictureRequest.measuresLikeness`).
    public var likeness: Likeness?

    public init(bitmap: Bitmap, originalWidth: Int, originalHeight: Int) {
        self.bitmap = bitmap
        self.originalWidth = originalWidth
        self.originalHeight = originalHeight
    }
}

extension DecodedImage where Bitmap == Pixbuf {
    /// Ready to paint: scaled down to `width`×`height` pixels if larger, painted at the device `scale`; with
    /// `cornerRadius` points cut round when not 0.
    public func paintable(width: Int, height: Int, scale: Int, cornerRadius: Double = 0) -> DecodedImage<CairoSurface> {
        let smaller = width < bitmap.width || height < bitmap.height
        let surface = bitmap.surface(
            width: smaller ? width : bitmap.width, height: smaller ? height : bitmap.height, scale: scale,
            cornerRadius: cornerRadius)
        return DecodedImage<CairoSurface>(
            bitmap: surface, originalWidth: originalWidth, originalHeight: originalHeight)
    }
}
