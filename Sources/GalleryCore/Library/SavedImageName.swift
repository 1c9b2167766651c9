import Foundation

/// The name an image gets as a file of its own (Save As…, Save to Folder…): the name the gallery
/// shows for it, with the extension its bytes really have, safe in any folder.
public enum SavedImageName {
    /// "cat.png" whose bytes are a JPEG becomes "cat.jpg"; "photo" (no extension) "photo.jpg"; a
    /// label with a slash or a leading dot is made a plain, visible file name. Bytes of an unknown
    /// type keep the label's own name.
    public static func fileName(label: String, mimeType: String?) -> String {
        var name = label.replacingOccurrences(of: "/", with: "_")
            .filter { !($0.unicodeScalars.first?.properties.generalCategory == .control) }
            .trimmingCharacters(in: .whitespacesAndNewlines)
        while name.hasPrefix(".") { name.removeFirst() }
        if name.isEmpty { name = tr("image") }
        guard let format = mimeType.flatMap(ImageFormat.forMIMEType) else { return shortened(name) }
        var stem = name
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            let current = String(name[name.index(after: dot)...])
            // "photo.jpeg" that is a JPEG keeps its name; another image extension is replaced.
            if format.fileExtensions.contains(current.lowercased()) { return shortened(name) }
            if ImageFormat.forFileExtension(current) != nil { stem = String(name[..<dot]) }
        }
        return shortened(stem, extension: format.fileExtension)
    }

    /// The `number`th name for a file that must not replace another: "cat.jpg", "cat (2).jpg", …
    public static func numbered(_ name: String, _ number: Int) -> String {
        guard number > 1 else { return name }
        let (stem, ext) = split(name)
        return shortened(stem + " (\(number))", extension: ext)
    }

    /// Where a file that must not replace another may go in `folder`: "cat.jpg", "cat (2).jpg", …
    /// up to "cat (10000).jpg".
    public static func numberedPaths(_ name: String, in folder: String) -> some Sequence<String> {
        let folder = URL(fileURLWithPath: folder, isDirectory: true)
        return (1...10_000).lazy.map { folder.appendingPathComponent(numbered(name, $0)).path }
    }

    private static func split(_ name: String) -> (stem: String, extension: String?) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, nil) }
        return (String(name[..<dot]), String(name[name.index(after: dot)...]))
    }

    /// File systems take 255 bytes for a name: a long stem is cut, the extension kept.
    private static func shortened(_ name: String) -> String {
        let (stem, ext) = split(name)
        return shortened(stem, extension: ext)
    }

    private static func shortened(_ stem: String, extension ext: String?) -> String {
        let suffix = ext.map { ".\($0)" } ?? ""
        var stem = stem
        while stem.utf8.count + suffix.utf8.count > 255 && !stem.isEmpty { stem.removeLast() }
        return stem + suffix
    }
}
