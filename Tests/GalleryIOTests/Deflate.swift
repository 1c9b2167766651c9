/// The zlib and gzip framing the test images and the gzip bomb need, written by hand: Foundation on
/// Linux has no compressor, and stored blocks or one repeated match are all these tests need.
enum Deflate {
    /// `bytes` in a zlib stream of stored (uncompressed) blocks, as a PNG's IDAT carries them.
    static func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(start + 65_535, bytes.count)
            let length = UInt16(end - start)
            out.append(end == bytes.count ? 1 : 0)
            out += littleEndian(length) + littleEndian(~length)
            out += bytes[start..<end]
            start = end
        } while start < bytes.count
        return out + bigEndian(adler32(bytes))
    }

    /// A gzip member that inflates to `1 + 258 × matches` zero bytes from about `matches × 13 / 8`
    /// bytes: one literal zero, then matches of 258 bytes at distance 1, in fixed Huffman codes.
    static func gzipOfZeros(matches: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.append(1, count: 1)  // BFINAL
        bits.append(1, count: 2)  // BTYPE 01: fixed Huffman codes
        bits.appendCode(0x30, length: 8)  // the literal 0
        for _ in 0..<matches {
            bits.appendCode(0xC5, length: 8)  // length symbol 285: 258 bytes
            bits.appendCode(0, length: 5)  // distance code 0: 1 byte back
        }
        bits.appendCode(0, length: 7)  // end of block
        let size = 1 + 258 * matches
        let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3]
        return header + bits.bytes + littleEndian(crc32(zeros: size)) + littleEndian(UInt32(size))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        ~bytes.reduce(UInt32.max) { crc, byte in crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    }

    private static func crc32(zeros count: Int) -> UInt32 {
        var crc = UInt32.max
        for _ in 0..<count { crc = crcTable[Int(crc & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }

    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    static func littleEndian<Value: FixedWidthInteger>(_ value: Value) -> [UInt8] {
        (0..<Value.bitWidth / 8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    static func bigEndian<Value: FixedWidthInteger>(_ value: Value) -> [UInt8] {
        littleEndian(value).reversed()
    }

    /// Deflate's bit order: values from their lowest bit, Huffman codes from their highest.
    private struct BitWriter {
        var bytes: [UInt8] = []
        private var used = 8

        mutating func append(_ value: Int, count: Int) {
            for bit in 0..<count { appendBit((value >> bit) & 1) }
        }

        mutating func appendCode(_ code: Int, length: Int) {
            for bit in (0..<length).reversed() { appendBit((code >> bit) & 1) }
        }

        private mutating func appendBit(_ bit: Int) {
            if used == 8 {
                bytes.append(0)
                used = 0
            }
            bytes[bytes.count - 1] |= UInt8(bit << used)
            used += 1
        }
    }
}
