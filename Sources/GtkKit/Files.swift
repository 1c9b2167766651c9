import CGtk
import CShim
import Foundation
import GalleryCore

/// An image format gdk-pixbuf reads on this system (its built-in ones and the loaders installed).
public struct PixbufFormat: Sendable {
    public let mimeTypes: [String]
    /// Without the dot: "png", "jpeg".
    public let extensions: [String]

    /// Every format a loader can read now, in gdk-pixbuf's order.
    public static func readable() -> [PixbufFormat] {
        var formats: [PixbufFormat] = []
        let list = gdk_pixbuf_get_formats()
        var node = list
        while let current = node {
            if let data = current.pointee.data, case let format = OpaquePointer(data), gdk_pixbuf_format_is_disabled(format) == 0 {
                formats.append(PixbufFormat(mimeTypes: strings(gdk_pixbuf_format_get_mime_types(format)),
                                            extensions: strings(gdk_pixbuf_format_get_extensions(format))))
            }
            node = current.pointee.next
        }
        g_slist_free(list)
        return formats
    }

    /// Reads and frees a NULL-terminated string vector.
    private static func strings(_ vector: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?) -> [String] {
        guard let vector else { return [] }
        defer { g_strfreev(vector) }
        var result: [String] = []
        var index = 0
        while let string = vector[index] {
            result.append(String(cString: string))
            index += 1
        }
        return result
    }
}

/// File names compared the way GNOME Files sorts them: locale-aware, digits by their value
/// ("img2" before "img10"). Safe on any thread.
public enum FileNameOrder {
    /// A key whose byte order is the names' order (`g_utf8_collate_key_for_filename`).
    public static func key(_ name: String) -> [UInt8] {
        guard let key = g_utf8_collate_key_for_filename(name, -1) else { return Array(name.utf8) }
        defer { g_free(key) }
        return Array(String(cString: key).utf8)
    }

    public static func sorted<T>(_ items: [T], by name: (T) -> String) -> [T] {
        items.map { (key(name($0)), $0) }.sorted { $0.0.lexicographicallyPrecedes($1.0) }.map(\.1)
    }
}

/// File operations an export needs besides writing files (`FileWriter`).
public enum LocalFile {
    public static func makeDirectory(_ path: String) throws(FileError) {
        guard mkdir(path, 0o755) == 0 else { throw FileError(code: errno) }
    }

    /// Renames `source` to `destination`, which must not exist (a folder someone made meanwhile is
    /// never replaced).
    public static func renameNoReplace(_ source: String, to destination: String) throws(FileError) {
        if cshim_rename_noreplace(source, destination) == 0 { return }
        let code = errno
        // A file system without RENAME_NOREPLACE: look first, then rename.
        guard code == EINVAL || code == ENOSYS else { throw FileError(code: code) }
        guard access(destination, F_OK) != 0 else { throw FileError(code: EEXIST) }
        guard rename(source, destination) == 0 else { throw FileError(code: errno) }
    }
}
