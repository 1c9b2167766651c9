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
    /// Connections open at once to one server (host and port), as browsers allow: the transfers of a
    /// drop of thousands of addresses wait their turn.
    public static let maximumConnectionsPerHost = 6
    /// Connections open at once in all, far below the file descriptors a process may open.
    public static let maximumConnections = 64
    /// Bytes downloads hold in memory at once, received and not yet decoded: past it, running transfers
    /// pause and new ones wait, except the oldest, which may take a whole download more.
    public static let maximumTransferBytesHeld: Int64 = 128_000_000
}
