/// An image format told from its first bytes, with the Debian package whose gdk-pixbuf loader
/// decodes it when gdk-pixbuf does not by itself: an image that fails to decode can then say
/// what would show it ("AVIF images need libavif-gdk-pixbuf") rather than "not an image".
public struct ImageFormat: Equatable, Sendable {
    /// As people write it: "AVIF", "JPEG XL".
    public let name: String
    /// nil for the formats gdk-pixbuf always decodes (PNG, JPEG, GIF, BMP, TIFF, ICO).
    public let loaderPackage: String?

    /// The format of `bytes`, from their magic numbers (only the first few KB are read).
    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        guard let type = DropPayload.sniffImageType(bytes) else { return nil }
        return byMIMEType[type]
    }

    private static let byMIMEType: [String: ImageFormat] = [
        "image/png": ImageFormat(name: "PNG", loaderPackage: nil),
        "image/jpeg": ImageFormat(name: "JPEG", loaderPackage: nil),
        "image/gif": ImageFormat(name: "GIF", loaderPackage: nil),
        "image/bmp": ImageFormat(name: "BMP", loaderPackage: nil),
        "image/tiff": ImageFormat(name: "TIFF", loaderPackage: nil),
        "image/x-icon": ImageFormat(name: "ICO", loaderPackage: nil),
        "image/webp": ImageFormat(name: "WebP", loaderPackage: "webp-pixbuf-loader"),
        "image/avif": ImageFormat(name: "AVIF", loaderPackage: "libavif-gdk-pixbuf"),
        "image/heif": ImageFormat(name: "HEIF", loaderPackage: "heif-gdk-pixbuf"),
        "image/jxl": ImageFormat(name: "JPEG XL", loaderPackage: "libjxl-gdk-pixbuf"),
        "image/svg+xml": ImageFormat(name: "SVG", loaderPackage: "librsvg2-common"),
    ]
}
