/// The one rule for what leaves the app as a file (the clipboard's file list, a drag out, an export, Save As):
/// bytes that begin as an image format the app knows, the same bytes the library would keep. A key, a text file or
/// anything else that another computer's `file://` address names never passes; an image on disk always does.
public enum OutgoingImageFile {
    /// Whether bytes beginning with `head` (the first 4 KB are enough) may leave as a file.
    public static func mayLeave(_ head: some Collection<UInt8>) -> Bool {
        ImageFormat.sniff(head) != nil
    }

    /// Why bytes did not leave as a file, for a toast or an export's summary.
    public static var refusal: String { tr("not an image") }
}
