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
        // One slice of all of them, which the bytes fill without fail.
        read(from: offset, to: bytes.count, covered: covered, slice: bytes.count) { buffer, at in
            bytes.withUnsafeBytes {
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[at..<at + buffer.count]))
            }
            return buffer.count
        }!
    }

    /// How much of a log is held at a time when it is read from a file: a record longer than that is held whole.
    public static let slice = 1 << 20

    /// What `read(_:from:covered:)` finds in a log's bytes `offset..<end`, which `fill` reads a slice at a time (into
    /// the buffer it is given, from the log's offset it is given; it returns the bytes it read, fewer at the log's
    /// end, or nil when it cannot): a log in the library folder may be written by another computer, and a long-lived
    /// one is many times the size of what is decoded, so it is never held whole. Nil when `fill` fails.
    public static func read(
        from offset: Int, to end: Int, covered: Int, slice: Int = slice,
        fill: (UnsafeMutableRawBufferPointer, Int) -> Int?
    ) -> Read? {
        var read = Read(end: offset)
        var buffer = [UInt8](repeating: 0, count: max(1, min(slice, end - offset)))
        // The log's offset of the buffer's first byte, and how many of its bytes are read.
        var start = offset
        var held = 0
        var isCoveredARecordStart = covered <= offset
        while true {
            let wanted = min(buffer.count - held, end - start - held)
            var isAtEnd = start + held + wanted >= end
            if wanted > 0 {
                let got = buffer.withUnsafeMutableBytes { bytes in
                    fill(UnsafeMutableRawBufferPointer(rebasing: bytes[held..<held + wanted]), start + held)
                }
                guard let got else { return nil }
                held += got
                isAtEnd = isAtEnd || got < wanted
            }
            let found = buffer.withUnsafeBufferPointer { bytes in
                let found = JournalRecord.read(UnsafeBufferPointer(rebasing: bytes[..<held]), from: 0)
                for payload in found.payloads {
                    let recordStart = start + payload.lowerBound - JournalRecord.headerLength
                    isCoveredARecordStart = isCoveredARecordStart || recordStart == covered
                    guard recordStart >= covered else { continue }
                    if let (entry, skipped) = JournalEntry.decode(UnsafeBufferPointer(rebasing: bytes[payload])) {
                        read.entries.append(entry)
                        read.skipped += skipped
                    } else {
                        read.skipped += 1
                    }
                }
                return found
            }
            read.end = start + found.end
            read.stop = found.stop
            guard found.stop != .damaged, !isAtEnd else { break }
            // What is left (a record cut at the slice's end) is read again at the start of the next slice.
            buffer.withUnsafeMutableBufferPointer { bytes in
                bytes.baseAddress!.update(from: bytes.baseAddress! + found.end, count: held - found.end)
            }
            start += found.end
            held -= found.end
            if held == buffer.count {
                // A record longer than the buffer: a buffer of its length, once its header is read (a header says
                // whether it fits the limit).
                var length = JournalRecord.headerLength
                if held >= length {
                    let header = Array(buffer[..<length])
                    guard let recordLength = JournalRecord.recordLength(header: header, limit: JournalRecord.entryLimit)
                    else { break }
                    length = recordLength
                }
                guard length > buffer.count else { break }
                buffer += [UInt8](repeating: 0, count: length - buffer.count)
            }
        }
        // An offset that is no record's start (a log put back from elsewhere) covers nothing.
        guard isCoveredARecordStart || covered == read.end else {
            return Self.read(from: offset, to: end, covered: offset, slice: slice, fill: fill)
        }
        return read
    }

    /// `entry` as the bytes appended to a log.
    public static func record(_ entry: JournalEntry) -> [UInt8] { JournalRecord.frame(entry.encoded) }
}
