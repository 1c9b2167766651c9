#if canImport(Glibc)
    import Glibc
#endif

/// A snapshot in the journal's folder (<doc:LibraryJournal>) opened for reading in parts: its table of contents at
/// once, its sections when asked, all through the descriptor opened first, so that a snapshot replaced meanwhile
/// (another computer's, as the sync tool writes it) is never read half from one and half from the other.
final class JournalSnapshotFile: Sendable {
    let name: String
    let size: Int
    /// The first record: settings, galleries, covers, and the sections that follow it.
    let contents: JournalSnapshot.Contents
    /// Where each section's record starts.
    let offsets: [Int]
    private let descriptor: Int32

    /// Opens `name` and reads its table of contents; nil when it is no regular file, is over the snapshot's bound,
    /// or its first record is cut, damaged or no snapshot's, or its sections would run past its end.
    init?(named name: String, in folder: LibraryFolder) {
        guard let descriptor = try? folder.openFile(name, flags: O_RDONLY | O_NONBLOCK) else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
            Int(status.st_size) <= JournalSnapshot.limit,
            let header = Self.read(descriptor, at: 0, count: JournalRecord.headerLength),
            let length = JournalRecord.recordLength(header: header, limit: JournalSnapshot.limit),
            let record = Self.read(descriptor, at: 0, count: length),
            let payload = Self.payload(of: record),
            let contents = record.withUnsafeBufferPointer({
                JournalSnapshot.readContents(UnsafeBufferPointer(rebasing: $0[payload]))
            })
        else {
            close(descriptor)
            return nil
        }
        var offsets: [Int] = []
        var end = length
        for section in contents.sections {
            offsets.append(end)
            end += section.length
        }
        guard end == Int(status.st_size) else {
            close(descriptor)
            return nil
        }
        self.name = name
        self.size = end
        self.contents = contents
        self.offsets = offsets
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Takes the sections at `indices` into `contents.snapshot`; false when one is cut, damaged or not what the table
    /// says (those before it are taken in).
    func read(sections indices: some Collection<Int>, into contents: inout JournalSnapshot.Contents) -> Bool {
        contents.reserveImages(ofSections: indices)
        for index in indices {
            let section = contents.sections[index]
            guard let record = Self.read(descriptor, at: offsets[index], count: section.length),
                let payload = Self.payload(of: record),
                record.withUnsafeBufferPointer({
                    JournalSnapshot.readSection(UnsafeBufferPointer(rebasing: $0[payload]), section, of: &contents)
                })
            else { return false }
        }
        return true
    }

    /// The payload of `record` when it is exactly one whole record.
    private static func payload(of record: [UInt8]) -> Range<Int>? {
        record.withUnsafeBufferPointer { buffer in
            let found = JournalRecord.read(buffer, from: 0, limit: JournalSnapshot.limit)
            guard found.payloads.count == 1, found.end == buffer.count else { return nil }
            return found.payloads[0]
        }
    }

    /// `count` bytes at `offset`; nil when the file holds fewer.
    private static func read(_ descriptor: Int32, at offset: Int, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset + done))
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return nil }
            done += got
        }
        return bytes
    }
}
