/// A computer's log, `journal/<computer>.log` in the library folder: its entries, one record each
/// (`JournalRecord`), appended by that computer alone.
public enum JournalLog {
    /// What a reading of a log found.
    public struct Read: Sendable {
        public var entries: [JournalEntry] = []
        /// The offset just past the last whole record: where the next reading starts, and where its own computer
        /// cuts the log before appending (a record cut by a crash is dropped, not written after).
        public var end: Int
        public var stop: JournalRecord.Stop?
        /// Changes left out: of a kind or shape this version does not know, or whole records that are not entries.
        public var skipped = 0
    }

    /// The entries of `bytes` (a log's) from `offset` on, up to a cut or damaged record. Every record from `offset`
    /// is checked, but only those from `covered` on are decoded: a snapshot holds those before it already. A `covered`
    /// that is no record's start (a log put back from elsewhere) covers nothing.
    public static func read(_ bytes: [UInt8], from offset: Int = 0, covered: Int = 0) -> Read {
        bytes.withUnsafeBufferPointer { buffer in
            let found = JournalRecord.read(buffer, from: offset)
            var read = Read(end: found.end, stop: found.stop)
            let first =
                covered == found.end
                ? found.payloads.count
                : found.payloads.firstIndex { $0.lowerBound - JournalRecord.headerLength == covered } ?? 0
            for payload in found.payloads[first...] {
                if let (entry, skipped) = JournalEntry.decode(UnsafeBufferPointer(rebasing: buffer[payload])) {
                    read.entries.append(entry)
                    read.skipped += skipped
                } else {
                    read.skipped += 1
                }
            }
            return read
        }
    }

    /// `entry` as the bytes appended to a log.
    public static func record(_ entry: JournalEntry) -> [UInt8] { JournalRecord.frame(entry.encoded) }
}
