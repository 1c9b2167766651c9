/// A kept original's name (64 lowercase hexadecimal digits, its SHA-256) as its 32 bytes: what a set of every
/// original a library keeps holds without a string for each.
public struct OriginalDigest: Hashable, Sendable {
    let first: UInt64
    let second: UInt64
    let third: UInt64
    let fourth: UInt64

    init(words: (UInt64, UInt64, UInt64, UInt64)) {
        (first, second, third, fourth) = words
    }

    /// Nil when `name` is not an original's name (`KeptOriginal.isValidName`).
    public init?(name: String) {
        guard KeptOriginal.isValidName(name) else { return nil }
        var words: [UInt64] = [0, 0, 0, 0]
        for (index, byte) in name.utf8.enumerated() {
            let nibble = UInt64(byte <= 0x39 ? byte - 0x30 : byte - 0x61 + 10)
            words[index / 16] = words[index / 16] << 4 | nibble
        }
        self.init(words: (words[0], words[1], words[2], words[3]))
    }

    var words: (UInt64, UInt64, UInt64, UInt64) { (first, second, third, fourth) }
}
