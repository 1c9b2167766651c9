import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An open folder whose contents another computer may write (the library's, which a sync tool may share):
/// everything beneath it is reached relative to its descriptor, one name at a time, never through a link,
/// so a link a peer put there (to any folder, to any file) leads no read, write, listing or delete out of it.
/// Only the folder itself is followed when it is a link: the user named it. Blocking: call it off the main loop.
public final class LibraryFolder: Sendable {
    /// What a name in the folder is, looked at without following it.
    public enum Kind: Sendable, Equatable {
        case regularFile, folder, link
        /// A FIFO, a socket or a device: never opened.
        case special
    }

    /// Where the folder was when it was opened, for messages and for callers that hand a path on.
    public let url: URL
    private let descriptor: Int32

    private init(url: URL, descriptor: Int32) {
        self.url = url
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Opens the folder at `url`, links followed (the user chose it); made (0700, with its parents) when missing and
    /// `creating`.
    public static func open(_ url: URL, creating: Bool = false) throws(FileError) -> LibraryFolder {
        let path = url.path
        guard !path.utf8.contains(0) else { throw FileError(code: EINVAL, path: path) }
        if creating { try FileWriter.makeFolders(path) }
        let descriptor = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError(code: errno, step: .create, path: path) }
        return LibraryFolder(url: url, descriptor: descriptor)
    }

    /// The folder `name` in this one, never through a link (`ELOOP` when it is one, `ENOTDIR` when it is something
    /// else); made (0700) when missing and `creating`.
    public func folder(_ name: String, creating: Bool = false) throws(FileError) -> LibraryFolder {
        try Self.check(name, in: self)
        let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
        var child = openat(descriptor, name, flags)
        if child < 0 && errno == ENOENT && creating {
            if mkdirat(descriptor, name, 0o700) != 0 && errno != EEXIST {
                throw FileError(code: errno, step: .create, path: path(of: name))
            }
            child = openat(descriptor, name, flags)
        }
        guard child >= 0 else {
            // O_DIRECTORY says ENOTDIR for a link to a folder, which is refused for being a link.
            let code = errno == ENOTDIR && kind(of: name) == .link ? ELOOP : errno
            throw FileError(code: code, step: .create, path: path(of: name))
        }
        return LibraryFolder(url: url.appendingPathComponent(name, isDirectory: true), descriptor: child)
    }

    /// The folder at `names` beneath this one, each step taken as `folder(_:creating:)` takes it.
    public func folder(at names: [String], creating: Bool = false) throws(FileError) -> LibraryFolder {
        var current = self
        for name in names { current = try current.folder(name, creating: creating) }
        return current
    }

    /// The path of `name` in this folder, for messages and for readers that take a path.
    public func path(of name: String) -> String { url.appendingPathComponent(name).path }

    /// The names in the folder (not `.` and `..`); none when it cannot be listed.
    public func names() -> [String] {
        // A second descriptor of the same folder: closedir closes the one it is given.
        let listed = openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard listed >= 0 else { return [] }
        guard let stream = fdopendir(listed) else {
            close(listed)
            return []
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The status of `name` itself (a link's own, not its target's); nil when there is none.
    /// The folder's own status, through its descriptor: the folder opened, wherever it was moved since.
    public func ownStatus() -> stat? {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? status : nil
    }

    public func status(of name: String) -> stat? {
        guard (try? Self.check(name, in: self)) != nil else { return nil }
        var status = stat()
        guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return status
    }

    /// What `name` is, not followed; nil when there is nothing by that name.
    public func kind(of name: String) -> Kind? {
        guard let status = status(of: name) else { return nil }
        return switch status.st_mode & S_IFMT {
        case S_IFREG: .regularFile
        case S_IFDIR: .folder
        case S_IFLNK: .link
        default: .special
        }
    }

    /// Opens the file `name` with `flags` (and `mode` when it is created), never through a link.
    public func openFile(_ name: String, flags: Int32, mode: mode_t = 0o600) throws(FileError) -> Int32 {
        try Self.check(name, in: self)
        let opened = openat(descriptor, name, flags | O_NOFOLLOW | O_CLOEXEC, mode)
        guard opened >= 0 else { throw FileError(code: errno, step: .create, path: path(of: name)) }
        return opened
    }

    /// Deletes the file (or link) `name`, never what a link points to. Whether it went.
    @discardableResult
    public func remove(_ name: String) -> Bool {
        guard (try? Self.check(name, in: self)) != nil else { return false }
        return unlinkat(descriptor, name, 0) == 0
    }

    /// Deletes the folder `name` when it is empty (a link by that name is left alone). Whether it went.
    @discardableResult
    public func removeEmptyFolder(_ name: String) -> Bool {
        guard (try? Self.check(name, in: self)) != nil else { return false }
        return unlinkat(descriptor, name, AT_REMOVEDIR) == 0
    }

    /// Renames `name` to `newName` in this folder; a link is renamed itself. `errno` when it fails.
    public func rename(_ name: String, to newName: String) throws(FileError) {
        try Self.check(name, in: self)
        try Self.check(newName, in: self)
        guard renameat(descriptor, name, descriptor, newName) == 0 else {
            throw FileError(code: errno, step: .replace, path: path(of: newName))
        }
    }

    /// Flushes the folder's entries (a file renamed into it, a folder made) to the disk.
    public func sync() { _ = fsync(descriptor) }

    /// A name is one entry of the folder: a path or `..` would lead elsewhere.
    private static func check(_ name: String, in folder: LibraryFolder) throws(FileError) {
        guard !name.isEmpty, name != ".", name != "..", !name.utf8.contains(0x2F), !name.utf8.contains(0) else {
            throw FileError(code: EINVAL, path: folder.path(of: name))
        }
    }
}
