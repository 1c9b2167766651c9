/// How much of an image the app takes on: hostile input (a "pixel bomb", an endless download) is
/// refused at these sizes, and no decode holds more pixels than they allow. Every decoder, the
/// viewer's zoom and the downloads read them here.
public enum ImageLimits {
    /// Images above this many pixels are refused from their header: gdk-pixbuf itself has no cap.
    public static let maximumPixels = 150_000_000
    /// Images wider or taller than this many pixels are refused from their header.
    public static let maximumSide = 40_000
    /// An image decoded whole (a format that can't be decoded scaled, or the viewer zoomed in) holds
    /// at most this many pixels, about 100 MB; 25 MP, so a 24-megapixel photo still shows pixel for pixel.
    public static let maximumWholePixels = 25_000_000
    /// A download stops after this many bytes.
    public static let maximumDownloadBytes: Int64 = 50_000_000
    /// An address longer than this is left out of a drop unread: a `data:` URI holding the largest download in
    /// base64 still fits.
    public static var maximumAddressLength: Int { Int(maximumDownloadBytes) / 3 * 4 + 4096 }
    /// Of an `<img srcset>`, only the largest few candidates are kept: each is fetched in turn when the
    /// ones before it fail.
    public static let maximumSrcsetCandidates = 3
    /// A drop or paste of more images than this asks before adding them.
    public static let imagesAddedWithoutAsking = 500
}
