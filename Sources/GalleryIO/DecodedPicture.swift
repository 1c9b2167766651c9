import GtkKit

/// Decoded pixels not yet made paintable (they may be scaled or saved first), upright, and the
/// size the file itself has.
public struct DecodedPicture: Sendable {
    public let pixbuf: Pixbuf
    public let originalWidth: Int
    public let originalHeight: Int

    public init(pixbuf: Pixbuf, originalWidth: Int, originalHeight: Int) {
        self.pixbuf = pixbuf
        self.originalWidth = originalWidth
        self.originalHeight = originalHeight
    }

    /// Scaled down to `width`×`height` pixels if larger, painted at the device `scale`; with
    /// `cornerRadius` points cut round when not 0.
    public func image(width: Int, height: Int, scale: Int, cornerRadius: Double = 0) -> DecodedImage {
        let smaller = width < pixbuf.width || height < pixbuf.height
        let surface = pixbuf.surface(
            width: smaller ? width : pixbuf.width, height: smaller ? height : pixbuf.height, scale: scale,
            cornerRadius: cornerRadius)
        return DecodedImage(surface: surface, originalWidth: originalWidth, originalHeight: originalHeight)
    }
}
