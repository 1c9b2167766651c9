import CGtk
import CShim
import Foundation
import Synchronization

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

/// Why a file operation failed, in the words the C library uses for `errno` in the user's
/// language ("No space left on device"), as GLib's g_strerror gives them.
public struct FileError: Error, Sendable, CustomStringConvertible {
    public let code: Int32
    public let description: String

    init(code: Int32) {
        self.code = code
        description = String(cString: g_strerror(code))
    }
}

/// Writing files: those whose every byte must reach the disk before they count (an export), and
/// caches, which a crash may only cost fetching again.
public enum LocalFile {
    /// Creates `path` (it must not exist) with `data`, flushed to the disk.
    public static func create(_ path: String, contents data: Data) throws(FileError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileError(code: errno) }
        var failure = writeAll(data, to: descriptor)
        if failure == 0 && fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0 && failure == 0 { failure = errno }
        if failure != 0 { throw FileError(code: failure) }
    }

    /// Replaces `path` with `data` in one step for its readers (a file beside it, renamed over it),
    /// private to the user (0600), without waiting for the disk: a hundred downloads ending
    /// together each waiting on its own flush kept the block layer's workers taking the core from
    /// the window's thread.
    public static func replaceCache(_ path: String, contents data: Data) throws(FileError) {
        let temporary = path + ".\(UInt64.random(in: 0...UInt64.max))~"
        let failure = creating.withLock { _ in
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { return errno }
            var failure = writeAll(data, to: descriptor)
            if close(descriptor) != 0 && failure == 0 { failure = errno }
            if failure == 0 && rename(temporary, path) != 0 { failure = errno }
            if failure != 0 { unlink(temporary) }
            return failure
        }
        if failure != 0 { throw FileError(code: failure) }
    }

    /// Held while creating and renaming a file, so one thread of the app at a time does: the
    /// kernel can spend milliseconds in one such call (ext4 looking for a free inode among those
    /// deleted lately, threads spinning on the folder's lock), where the window's thread cannot
    /// take the core back. With a drop's downloads written on four threads at once, both cores
    /// were in there and the window's thread waited 12 ms for one (drop part, stall log). Threads
    /// that wait for it sleep.
    private static let creating = Mutex(())

    /// Writes every byte of `data`; the error code, or 0.
    private static func writeAll(_ data: Data, to descriptor: Int32) -> Int32 {
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return 0
        }
    }

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

    /// Flushes a folder's entries (a file renamed into it) to the disk.
    public static func syncDirectory(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }
}
