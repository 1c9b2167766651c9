import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The one way the app reads a file someone named (a drop, the file chooser, the state file, its own
/// caches): only a regular file is read, opened without blocking, with `read(2)` up to a cap
/// whatever size the file reports. A FIFO, a socket, a device or a folder is refused before a byte
/// is read, and a read error is a failure, never a trap. Blocking on a slow disk: call it off the main loop.
public enum FileReader {
    public enum Failure: Error, Equatable, Sendable {
        case missing
        /// A folder, a FIFO, a socket or a device (or a link to one).
        case notRegularFile
        /// Holds more than `limit` bytes.
        case tooLarge(limit: Int)
        /// `errno` of the step that failed.
        case unreadable(code: Int32)
    }

    /// What a path names, links followed.
    public enum Kind: Sendable {
        case regularFile, folder, missing
        /// A FIFO, a socket or a device: never opened.
        case special
    }

    /// The cap of a local image: the same as a download's.
    public static let imageLimit = Int(ImageLimits.maximumDownloadBytes)

    /// The whole file; refused when it holds more than `limit` bytes.
    public static func read(_ path: String, limit: Int = imageLimit) throws(Failure) -> Data {
        try read(path, upTo: limit, refusingMore: true)
    }

    /// The file's first `count` bytes, or all of a shorter file (a signature to sniff).
    public static func head(_ path: String, count: Int) throws(Failure) -> Data {
        try read(path, upTo: count, refusingMore: false)
    }

    /// The whole file `name` in `folder`, reached through no link (a link is `unreadable`, `ELOOP`); refused when it
    /// holds more than `limit` bytes.
    public static func read(_ name: String, in folder: LibraryFolder, limit: Int = imageLimit) throws(Failure) -> Data {
        // Looked at before opening too: opening a device runs its driver's code.
        guard let status = folder.status(of: name) else { throw .missing }
        if status.st_mode & S_IFMT == S_IFLNK { throw .unreadable(code: ELOOP) }
        guard isRegular(status) else { throw .notRegularFile }
        let descriptor: Int32
        do throws(FileError) {
            descriptor = try folder.openFile(name, flags: O_RDONLY | O_NONBLOCK)
        } catch {
            throw failure(error.code)
        }
        defer { close(descriptor) }
        return try read(descriptor, upTo: limit, refusingMore: true)
    }

    private static func read(_ path: String, upTo limit: Int, refusingMore: Bool) throws(Failure) -> Data {
        // C would read the path only up to a NUL: another file than the one named.
        guard !path.utf8.contains(0) else { throw .missing }
        var status = stat()
        // Looked at before opening too: opening a device runs its driver's code.
        guard stat(path, &status) == 0 else { throw failure(errno) }
        guard isRegular(status) else { throw .notRegularFile }
        // O_NONBLOCK: a FIFO put in the file's place meanwhile opens at once instead of waiting for a writer.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(errno) }
        defer { close(descriptor) }
        return try read(descriptor, upTo: limit, refusingMore: refusingMore)
    }

    /// The bytes of the open file `descriptor`, once it proves a regular file.
    private static func read(_ descriptor: Int32, upTo limit: Int, refusingMore: Bool) throws(Failure) -> Data {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable(code: errno) }
        guard isRegular(status) else { throw .notRegularFile }
        if refusingMore && Int(status.st_size) > limit { throw .tooLarge(limit: limit) }
        let wanted = refusingMore ? limit + 1 : limit
        // The reported size is only a first guess: /proc files report 0, and a file may grow while read.
        let reported = Int(status.st_size)
        var chunk = min(max(reported + 1, 64 * 1024), wanted)
        // Room asked for up front: growing a Data to the file's size would leave a quarter more held with its bytes.
        var data = Data(capacity: chunk)
        while data.count < wanted {
            let start = data.count
            if reported > 0 && start >= reported {
                // A small read says whether the file grew: room for as much again would double the memory a large
                // file's bytes take while they are read.
                let more = try probe(descriptor, upTo: min(4096, wanted - start))
                if more.isEmpty { break }
                data.append(contentsOf: more)
                continue
            }
            let count = min(chunk, wanted - start)
            data.count = start + count
            let got = data.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress! + start, count)
            }
            if got < 0 {
                let code = errno
                data.count = start
                if code == EINTR { continue }
                throw .unreadable(code: code)
            }
            data.count = start + got
            if got == 0 { break }
            chunk = min(chunk * 2, 4 * 1024 * 1024)
        }
        if refusingMore && data.count > limit { throw .tooLarge(limit: limit) }
        return data
    }

    /// At most `count` more bytes of `descriptor`, none at its end.
    private static func probe(_ descriptor: Int32, upTo count: Int) throws(Failure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        while true {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, count) }
            if got >= 0 { return Array(bytes.prefix(got)) }
            let code = errno
            if code != EINTR { throw .unreadable(code: code) }
        }
    }

    /// What `path` names, looked at without opening it.
    public static func kind(of path: String) -> Kind {
        var status = stat()
        guard !path.utf8.contains(0), stat(path, &status) == 0 else { return .missing }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .folder
        default: return .special
        }
    }

    /// When the regular file `path` was last modified, in whole seconds since the epoch; nil for anything else.
    /// A `stat` alone: Foundation's file attributes also look up the owner's and group's names.
    public static func modificationSeconds(ofFile path: String) -> Int? {
        var status = stat()
        guard !path.utf8.contains(0), stat(path, &status) == 0, isRegular(status) else { return nil }
        return Int(status.st_mtim.tv_sec)
    }

    private static func isRegular(_ status: stat) -> Bool {
        status.st_mode & S_IFMT == S_IFREG
    }

    private static func failure(_ code: Int32) -> Failure {
        code == ENOENT || code == ENOTDIR ? .missing : .unreadable(code: code)
    }
}
