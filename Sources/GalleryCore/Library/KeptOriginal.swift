/// The bytes an image was first added with, as the library keeps them: named by their SHA-256, so the
/// same bytes are stored once however many galleries refer to them, and checked against that name.
public struct KeptOriginal: Hashable, Sendable {
    /// The SHA-256 of the bytes, 64 lowercase hexadecimal digits: the original's name in the library.
    public var sha256: String
    public var byteCount: Int
    /// The size in pixels, upright (EXIF rotation applied); 0 when it could not be told.
    public var pixelWidth: Int
    public var pixelHeight: Int
    /// The format's name in `ImageFormat.all` (`png`, `jpeg`…); nil when the bytes are no known format.
    public var format: String?
    /// Fields this version does not know: written back as read.
    public var unknownFields: [String: RawJSON] = [:]

    public init(sha256: String, byteCount: Int, pixelWidth: Int, pixelHeight: Int, format: String?) {
        self.sha256 = sha256
        self.byteCount = byteCount
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.format = format
    }

    /// Whether `name` can be an original's name: the library's files are found by it, so nothing else
    /// (a path, `..`) may come from a state file into a file name.
    public static func isValidName(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
