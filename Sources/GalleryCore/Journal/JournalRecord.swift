/// How the journal's files frame what they hold: each record is one line, `LLLLLLLL CCCCCCCC <payload>\n`, the
/// payload's length and its CRC-32 in eight lowercase hexadecimal digits each. A write cut at any byte leaves a
/// record whose length runs past the end (or a header cut short), and a changed byte fails the check: a reader
/// stops there and loses that record only.
public enum JournalRecord {
    /// The largest entry read or written.
    public static let entryLimit = 8 << 20
    static let headerLength = 18

    /// Why a reading stopped before the end of the bytes.
    public enum Stop: Equatable, Sendable {
        /// The last record is incomplete: a write cut short (a crash, a sync tool that has not finished).
        case cut
        /// A record is not one: a header that is not hexadecimal, a length past the limit, a failed check.
        case damaged
    }

    /// The records found from an offset: where their payloads lie, the offset just past the last whole one (where
    /// this computer's next append goes, and where the next reading of a growing log starts), and why it stopped.
    public struct Found: Equatable, Sendable {
        public var payloads: [Range<Int>] = []
        public var end: Int
        public var stop: Stop?
    }

    /// `payload` framed as one record.
    public static func frame(_ payload: [UInt8]) -> [UInt8] {
        var record = hex(UInt32(payload.count)) + [0x20] + hex(CRC32.checksum(payload)) + [0x20]
        record.reserveCapacity(headerLength + payload.count + 1)
        record += payload
        record.append(0x0A)
        return record
    }

    /// The records of `bytes` from `offset` on, up to the first cut or damaged one, each at most `limit` bytes.
    public static func read(_ bytes: UnsafeBufferPointer<UInt8>, from offset: Int, limit: Int = entryLimit) -> Found {
        var found = Found(end: offset)
        var start = offset
        while start < bytes.count {
            let header = UnsafeBufferPointer(rebasing: bytes[start..<min(bytes.count, start + headerLength)])
            guard header.count == headerLength else {
                found.stop = isHeaderStart(header) ? .cut : .damaged
                return found
            }
            guard let length = number(header[0..<8]), header[8] == 0x20, let check = number(header[9..<17]),
                header[17] == 0x20, length <= limit
            else {
                found.stop = .damaged
                return found
            }
            let payload = start + headerLength..<start + headerLength + Int(length)
            guard payload.upperBound < bytes.count else {
                found.stop = .cut
                return found
            }
            guard bytes[payload.upperBound] == 0x0A,
                CRC32.checksum(UnsafeBufferPointer(rebasing: bytes[payload])) == check
            else {
                found.stop = .damaged
                return found
            }
            found.payloads.append(payload)
            start = payload.upperBound + 1
            found.end = start
        }
        return found
    }

    /// The length of the record a header starts (header, payload and newline); nil when `header` is no header of
    /// a record of at most `limit` bytes.
    static func recordLength(header: [UInt8], limit: Int) -> Int? {
        guard header.count == headerLength, header[8] == 0x20, header[17] == 0x20,
            let length = header.withUnsafeBufferPointer({ number($0[0..<8]) }),
            header.withUnsafeBufferPointer({ number($0[9..<17]) }) != nil, length <= limit
        else { return nil }
        return headerLength + Int(length) + 1
    }

    private static func hex(_ value: UInt32) -> [UInt8] {
        let digits = Array("0123456789abcdef".utf8)
        return (0..<8).reversed().map { digits[Int((value >> (4 * UInt32($0))) & 15)] }
    }

    private static func digit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30...0x39: UInt32(byte - 0x30)
        case 0x61...0x66: UInt32(byte - 0x61 + 10)
        default: nil
        }
    }

    private static func number(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> UInt32? {
        var value: UInt32 = 0
        for byte in digits {
            guard let digit = digit(byte) else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    /// Whether `bytes` can be the start of a header that was cut.
    private static func isHeaderStart(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.enumerated().allSatisfy { index, byte in index == 8 || index == 17 ? byte == 0x20 : digit(byte) != nil }
    }
}
