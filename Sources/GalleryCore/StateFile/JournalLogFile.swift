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
        let read: JournalLog.Read
        if covered > 0, covered <= size, try file.checkRecords(upTo: covered) {
            var tail = JournalLog.read(try file.bytes(from: covered, count: size - covered))
            tail.end += covered
            read = tail
        } else {
            read = JournalLog.read(try file.bytes(from: 0, count: size), covered: covered)
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

    /// Whether the records before `offset` are whole and pass their checks, `offset` the end of one; read a slice at
    /// a time, since a snapshot holds what they say (a long-lived log is many times the size of what is decoded).
    private func checkRecords(upTo offset: Int) throws(Failure) -> Bool {
        var buffer = [UInt8](repeating: 0, count: min(offset, Self.checkSlice))
        var start = 0
        var held = 0
        while start + held < offset {
            let wanted = min(buffer.count - held, offset - start - held)
            let got = try read(into: &buffer, at: held, count: wanted, from: start + held)
            guard got == wanted else { return false }
            held += got
            let found = buffer.withUnsafeBufferPointer {
                JournalRecord.read(UnsafeBufferPointer(rebasing: $0[..<held]), from: 0)
            }
            switch found.stop {
            case .damaged?: throw .damaged
            case .cut? where start + held == offset: return false
            case .cut?, nil: break
            }
            // The record cut at the slice's end is read again at the start of the next; one longer than a slice
            // gets a buffer of its length.
            buffer.withUnsafeMutableBufferPointer {
                $0.baseAddress!.update(from: $0.baseAddress! + found.end, count: held - found.end)
            }
            start += found.end
            held -= found.end
            if held >= JournalRecord.headerLength, found.end == 0 {
                let header = Array(buffer[..<JournalRecord.headerLength])
                guard let length = JournalRecord.recordLength(header: header, limit: JournalRecord.entryLimit) else {
                    throw .damaged
                }
                if length > buffer.count { buffer += [UInt8](repeating: 0, count: length - buffer.count) }
            }
        }
        return start == offset
    }

    /// The bytes of the log in `start..<start + count`, fewer when it is shorter.
    private func bytes(from start: Int, count: Int) throws(Failure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = try read(into: &bytes, at: 0, count: count, from: start)
        bytes.removeLast(count - got)
        return bytes
    }

    /// Reads `count` bytes at `offset` of the log into `buffer` from `index`; fewer at its end.
    private func read(into buffer: inout [UInt8], at index: Int, count: Int, from offset: Int) throws(Failure) -> Int {
        var done = 0
        while done < count {
            let got = buffer.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + index + done, count - done, off_t(offset + done))
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else {
                if got == 0 { break }
                throw .failed(FileError(code: errno, path: path))
            }
            done += got
        }
        return done
    }

    /// How much of a log is checked at a time before the offset a snapshot covers.
    static let checkSlice = 1 << 20

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
