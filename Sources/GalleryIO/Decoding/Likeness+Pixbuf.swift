import Foundation
import GLibKit
import GalleryCore

extension Likeness {
    /// The likeness of a decoded picture.
    public init(_ pixbuf: Pixbuf) {
        let grid = pixbuf.withPixelBytes { bytes, rowstride, hasAlpha in
            ColourGrid(
                pixels: bytes, width: pixbuf.width, height: pixbuf.height, rowBytes: rowstride,
                layout: hasAlpha ? .rgba : .rgb)
        }
        self.init(grid)
    }

    /// The side of the box a picture is decoded into to measure its likeness: a drop's own decode, which the
    /// benchmark's measure of files repeats.
    public static let decodedSide = ThumbnailSize.xLarge.pixels

    /// The likeness of an image file's bytes, decoded as a drop decodes them; nil when they are no picture.
    public init?(imageBytes: Data) {
        let fit = (Self.decodedSide, Self.decodedSide)
        guard case .success(let picture) = ImageDecoder.decodePicture(StillImage.firstFrame(of: imageBytes), fit: fit)
        else { return nil }
        self.init(picture.bitmap)
    }
}
