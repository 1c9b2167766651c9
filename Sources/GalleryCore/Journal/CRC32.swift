/// The CRC-32 of zlib and PNG (ISO 3309): a journal record's check, which any cut or changed byte fails.
enum CRC32 {
    /// Eight tables, so that eight bytes are taken a step (slicing-by-8): a launch checks the whole snapshot.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for index in 0..<256 {
            tables[index] = (0..<8).reduce(UInt32(index)) { value, _ in
                value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1
            }
        }
        for slice in 1..<8 {
            for index in 0..<256 {
                let previous = tables[(slice - 1) * 256 + index]
                tables[slice * 256 + index] = tables[Int(previous & 0xFF)] ^ (previous >> 8)
            }
        }
        return tables
    }()

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { checksum($0) }
    }

    static func checksum(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        guard let base = bytes.baseAddress else { return 0 }
        return tables.withUnsafeBufferPointer { table in
            var value = UInt32.max
            var offset = 0
            while offset + 8 <= bytes.count {
                let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self).littleEndian
                let low = UInt32(truncatingIfNeeded: word) ^ value
                let high = UInt32(truncatingIfNeeded: word >> 32)
                value =
                    table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ table[5 * 256 + Int((low >> 16) & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ table[256 + Int((high >> 16) & 0xFF)] ^ table[Int(high >> 24)]
                offset += 8
            }
            while offset < bytes.count {
                value = table[Int((value ^ UInt32(bytes[offset])) & 0xFF)] ^ (value >> 8)
                offset += 1
            }
            return ~value
        }
    }
}
