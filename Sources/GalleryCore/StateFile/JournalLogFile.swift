import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// This computer's log in the library folder, `journal/<computer>.log` (<doc:LibraryJournal>): opened beneath the
/// library folder's descriptor, never through a link, and appended to by this computer alone, each append flushed to
/// the disk before it returns. Blocking: use it off the main loop, one caller at a time.
public final class JournalLogFile: Sendable {
    /// The folder of the logs and snapshots, in the library folder.
    public static let folderName = "journal"
    /// The largest log read at once: the state file's bound. This computer's own log moves to a new one long before
    /// (`JournalSaver.SnapshotPolicy.newLogBeyond`).
    public static let limit = StateFileBytes.limit

    /// Why a log cannot take this computer's appends.
    public enum Failure: Error, Equatable {
        /// A record in it is damaged: what follows it would be hidden from every reader. This computer starts a log
        /// under a new id, and leaves this one as it is for its readers.
        case damaged
        /// It is larger than `limit` (an older version's, or one written by hand): it cannot be checked whole. This
        /// computer starts a log under a new id, as for a damaged one, and its readers read it as another computer's.
        case tooLarge
        case failed(FileError)
    }

    private let descriptor: Int32
    public let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    /// Opens (or makes, 0600, in a `journal` folder made 0700) `computer`'s log in `library`, with the entries it
    /// holds from `covered` on (what a snapshot does not hold already; every record is checked); a record cut by a
    /// crash at its end is cut off, so the next append follows the last whole entry. A log of more than `limit` bytes
    /// is not read.
    public static func open(
        in library: LibraryFolder, computer: String, covered: Int = 0, limit: Int = limit
    ) throws(Failure) -> (file: JournalLogFile, read: JournalLog.Read) {
        guard JournalStamp.isValidComputer(computer) else { throw .failed(FileError(code: EINVAL)) }
        let name = "\(computer).log"
        let folder: LibraryFolder
        let descriptor: Int32
        do throws(FileError) {
            folder = try library.folder(folderName, creating: true)
            descriptor = try folder.openFile(name, flags: O_RDWR | O_CREAT)
        } catch {
            throw .failed(error)
        }
        let file = JournalLogFile(descriptor: descriptor, path: folder.path(of: name))
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .failed(FileError(code: errno, path: file.path)) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .failed(FileError(code: EINVAL, path: file.path)) }
        guard Int(status.st_size) <= limit else { throw .tooLarge }
        let size = Int(status.st_size)
        guard let read = Self.read(descriptor, from: 0, to: size, covered: covered) else {
            throw .failed(FileError(code: errno, path: file.path))
        }
        switch read.stop {
        case .damaged?: throw .damaged
        case .cut?:
            guard ftruncate(descriptor, off_t(read.end)) == 0, fsync(descriptor) == 0 else {
                throw .failed(FileError(code: errno, step: .write, path: file.path))
            }
        case nil: break
        }
        if size == 0 { folder.sync() }
        return (file, read)
    }

    /// `JournalLog.read(from:to:covered:fill:)` of the log `descriptor` opens, a slice at a time: this computer's
    /// own or another's. Nil when it cannot be read (`errno` says why).
    static func read(_ descriptor: Int32, from offset: Int, to end: Int, covered: Int) -> JournalLog.Read? {
        JournalLog.read(from: offset, to: end, covered: covered) { buffer, at in
            var done = 0
            while done < buffer.count {
                let got = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(at + done))
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else {
                    if got == 0 { break }
                    return nil
                }
                done += got
            }
            return done
        }
    }

    /// Appends `entries` at the end, one record each, and flushes them to the disk. A write that fails (a full disk)
    /// is cut off again, so that the records appended after it are read. Returns the log's size after it: the offset
    /// a snapshot covers.
    @discardableResult
    public func append(_ entries: [JournalEntry]) throws(FileError) -> Int {
        let bytes = entries.flatMap(JournalLog.record)
        let start = lseek(descriptor, 0, SEEK_END)
        guard start >= 0 else { throw FileError(code: errno, step: .write, path: path) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let code = count == 0 ? EIO : errno
                _ = ftruncate(descriptor, start)
                throw FileError(code: code, step: .write, path: path)
            }
            written += count
        }
        guard fsync(descriptor) == 0 else { throw FileError(code: errno, step: .sync, path: path) }
        return Int(start) + written
    }
}
