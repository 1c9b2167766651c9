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
        for scalar in text.unicodeScalars {
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
