/// How much of an image the app takes on: hostile input (a "pixel bomb", an endless download) is
/// refused at these sizes, and no decode holds more memory or time than they allow. Every decoder, the
/// viewer's zoom and the downloads read them here.
public enum ImageLimits {
    /// Images above this many pixels are refused from their header: gdk-pixbuf itself has no cap.
    public static let maximumPixels = 150_000_000
    /// Images wider or taller than this many pixels are refused from their header.
    public static let maximumSide = 40_000
    /// The memory one decode may hold, its paintable surface included (`ImageHeader.decodeBytes`); the
    /// decoder process is held to it as well.
    public static let decodeBudgetBytes = 64 << 20
    /// An image decoded whole (the viewer zoomed in, a copy) holds at most this many pixels: 4 bytes each
    /// and as much again for its surface stay within `decodeBudgetBytes`. The viewer enlarges beyond.
    public static let maximumWholePixels = 8_000_000
    /// The memory an animation holds while it plays, above what the app held before: its decoded frames and what
    /// its decoder keeps (`FrameBudget`).
    public static let animationBudgetBytes = 64 << 20
    /// An animation whose next frame takes more than this many milliseconds of processor time to decode ends with its last good frame;
    /// one whose file takes longer than `decodeSeconds` to read plays the frames read by then.
    public static let frameDecodeMilliseconds = 1_000
    /// The processor time one decode in the decoder process may take, in seconds.
    public static let decodeSeconds = 2
    /// A decode in the decoder process that has not answered after this many seconds is stopped: its
    /// processor time is capped already, this catches one that waits (a loaded machine gets slack).
    public static let decodeWallSeconds = 6
    /// A download stops after this many bytes.
    public static let maximumDownloadBytes: Int64 = 50_000_000
    /// Connections open at once to one server (host and port), as browsers allow: the transfers of a
    /// drop of thousands of addresses wait their turn.
    public static let maximumConnectionsPerHost = 6
    /// Connections open at once in all, far below the file descriptors a process may open.
    public static let maximumConnections = 64
    /// Bytes downloads hold in memory at once, received and not yet decoded: past it, running transfers
    /// pause and new ones wait; while no answer waits to be decoded, the one holding the most may take a whole
    /// download more.
    public static let maximumTransferBytesHeld: Int64 = 128_000_000
    /// An address longer than this is left out of a drop unread: a `data:` URI holding the largest download in
    /// base64 still fits.
    public static var maximumAddressLength: Int { Int(maximumDownloadBytes) / 3 * 4 + 4096 }
    /// Addresses tried for one dropped image at most, each in turn when the ones before it fail: a page's srcset of
    /// thousands of candidates costs this many requests, and no more of its candidates are kept.
    public static let maximumAddressesPerImage = 3
    /// A drop or paste of more images than this asks before adding them.
    public static let imagesAddedWithoutAsking = 500
}
