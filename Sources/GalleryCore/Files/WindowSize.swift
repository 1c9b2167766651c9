import Foundation

/// The size a window had when it was last closed, so the next one opens the same, as GNOME apps
/// do (and a launch at the right size lays the gallery out and decodes it once).
public struct WindowSize: Hashable, Sendable {
    public var width: Int
    public var height: Int
    public var maximized: Bool
    /// How wide the gallery was in that window: the next launch lays out and starts decoding its
    /// first screen while GTK is still building the window.
    public var galleryWidth: Int?

    public static let standard = WindowSize(width: 1024, height: 760)

    public init(width: Int, height: Int, maximized: Bool = false, galleryWidth: Int? = nil) {
        self.width = width
        self.height = height
        self.maximized = maximized
        self.galleryWidth = galleryWidth
    }

    /// A size a window can really open at (the file may have been edited by hand).
    public var isUsable: Bool { (320...16384).contains(width) && (240...16384).contains(height) }
}

/// Keeps the window size in the app's state folder (`LibraryPaths.windowSizeFile`), apart from the galleries:
/// resizing a window is no change to the document, which stays as it was.
public struct WindowSizeStore: Sendable {
    public let fileURL: URL

    public init(fileURL: URL) {
        self.fileURL = fileURL
    }

    /// The remembered size; the standard one when there is none or it is unusable.
    public func load() -> WindowSize {
        guard let json = JSONFile.read(fileURL.path), let width = json["width"]?.integer,
            let height = json["height"]?.integer, let maximized = json["maximized"]?.bool
        else { return .standard }
        let size = WindowSize(
            width: width, height: height, maximized: maximized,
            galleryWidth: json["galleryWidth"]?.integer)
        return size.isUsable ? size : .standard
    }

    /// Writes `size` when it differs from what is kept; an unusable size is not kept. A failure
    /// costs only the size at the next launch.
    public func save(_ size: WindowSize) {
        guard size.isUsable, size != load() || !FileManager.default.fileExists(atPath: fileURL.path) else { return }
        var fields: [String: JSONValue] = [
            "width": .number(size.width), "height": .number(size.height), "maximized": .bool(size.maximized),
        ]
        fields["galleryWidth"] = size.galleryWidth.map { .number($0) }
        try? FileManager.default.createDirectory(
            at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileWriter(durability: .cache, temporaryName: .hiddenTmp).write(
            JSONFile.text(.object(fields)), to: fileURL.path, policy: .replace)
    }
}
