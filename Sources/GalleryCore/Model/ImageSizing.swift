/// The sizes of the freedesktop.org thumbnail specification: a thumbnail of a size class fits in a
/// square of that many pixels. Files, gThumb and every GNOME app read and write the same ones.
public enum ThumbnailSize: Int, CaseIterable, Sendable {
    case normal = 128
    case large = 256
    case xLarge = 512
    case xxLarge = 1024

    /// The folder under `$XDG_CACHE_HOME/thumbnails`.
    public var folderName: String {
        switch self {
        case .normal: "normal"
        case .large: "large"
        case .xLarge: "x-large"
        case .xxLarge: "xx-large"
        }
    }

    public var pixels: Int { rawValue }

    /// The smallest size whose thumbnails are at least `width`×`height` pixels for an image of that
    /// shape (a thumbnail's longer side is the size), so the cell never shows an enlarged thumbnail;
    /// nil when even the largest is too small (the original is decoded instead).
    public static func covering(width: Int, height: Int) -> ThumbnailSize? {
        allCases.first { $0.pixels >= max(width, height) }
    }
}

/// Where a picture of `originalWidth`×`originalHeight` lands when shown in a cell of
/// `cellWidth`×`cellHeight` device pixels: fitted inside, never enlarged past the file's own pixels.
public struct PixelFit: Equatable, Sendable {
    public let width: Int
    public let height: Int

    public init(originalWidth: Int, originalHeight: Int, cellWidth: Int, cellHeight: Int) {
        guard originalWidth > 0, originalHeight > 0, cellWidth > 0, cellHeight > 0 else {
            width = max(cellWidth, 1)
            height = max(cellHeight, 1)
            return
        }
        let factor = min(Double(cellWidth) / Double(originalWidth), Double(cellHeight) / Double(originalHeight), 1)
        width = max(1, Int((Double(originalWidth) * factor).rounded()))
        height = max(1, Int((Double(originalHeight) * factor).rounded()))
    }

    /// Whether a decoded picture of `pixelWidth`×`pixelHeight` should be decoded again for this
    /// fit: it is more than a rounding off, smaller (it would be enlarged, soft) or larger (it
    /// would be resampled on every paint, and holds memory for nothing).
    public func wantsRedecode(ofPixelWidth pixelWidth: Int, pixelHeight: Int) -> Bool {
        abs(pixelWidth - width) > 1 || abs(pixelHeight - height) > 1
    }
}
