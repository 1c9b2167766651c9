/// Why bytes gave no picture; the app words it for the user.
public enum DecodeError: Error, Equatable {
    /// No decoder here knows these bytes (not an image, or a format without a loader installed).
    case notAnImage
    case tooLarge(width: Int, height: Int)
    /// The data ends before the picture does (a download cut short).
    case incomplete
    case damaged
    /// The decoder process ran out of its processor time, or did not answer in time.
    case tookTooLong
    /// The decoder process ended without an answer: its memory limit stopped it.
    case tooMuchMemory
    /// The decoder failed; gdk-pixbuf's own message (in the user's language) when it gave one.
    case undecodable(String?)
}
