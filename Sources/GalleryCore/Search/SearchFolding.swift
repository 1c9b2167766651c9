import Foundation

/// Turns text into what search compares: lowercase, without diacritics, in any script (`Élan` and
/// `elan`, `Ёлка` and `елка` fold alike), as UTF-8 bytes. Foundation folds one character in tens of
/// microseconds, so each distinct non-ASCII scalar is folded once and remembered; one folder serves one
/// batch (a gallery's images, a query) on one thread.
public struct SearchFolding {
    private var folded: [UInt32: [UInt8]] = [:]

    public init() {}

    /// `text` folded, appended to `bytes`.
    public mutating func append(_ text: some StringProtocol, to bytes: inout [UInt8]) {
        // The ASCII head, most texts whole, byte by byte in place: a Substring's scalars, and its UTF-8 view's
        // subscript, are slow to walk.
        let asciiCount =
            text.utf8.withContiguousStorageIfAvailable { buffer in
                var count = 0
                for byte in buffer {
                    guard byte < 0x80 else { break }
                    bytes.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
                    count += 1
                }
                return count
            } ?? 0
        let utf8 = text.utf8
        let index = utf8.index(utf8.startIndex, offsetBy: asciiCount)
        guard index < utf8.endIndex else { return }
        for scalar in text.unicodeScalars[index...] {
            let value = scalar.value
            if value < 0x80 {
                bytes.append(value >= 0x41 && value <= 0x5A ? UInt8(value + 0x20) : UInt8(value))
            } else if let known = folded[value] {
                bytes.append(contentsOf: known)
            } else {
                let result = Array(
                    String(Character(scalar)).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
                        .utf8)
                folded[value] = result
                bytes.append(contentsOf: result)
            }
        }
    }

    public mutating func bytes(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        append(text, to: &bytes)
        return bytes
    }

    public mutating func string(_ text: String) -> String { String(decoding: bytes(text), as: UTF8.self) }
}
