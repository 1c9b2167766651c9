/// The CRC-32 of zlib and PNG (ISO 3309): a journal record's check, which any cut or changed byte fails.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { value, _ in value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
    }

    static func checksum(_ bytes: some Collection<UInt8>) -> UInt32 {
        ~bytes.reduce(UInt32.max) { value, byte in table[Int((value ^ UInt32(byte)) & 0xFF)] ^ (value >> 8) }
    }
}
