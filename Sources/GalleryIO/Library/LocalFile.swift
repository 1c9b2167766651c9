import CShim
import Foundation
import GalleryCore

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
