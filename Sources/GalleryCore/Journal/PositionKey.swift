/// Places in an order that never need renumbering: a key is a fraction's digits in base 62 (`0-9A-Za-z`, compared
/// byte by byte), never ending in `0`, so that there is always a key between two others and a move writes one key,
/// the moved item's, between its new neighbours'.
enum PositionKey {
    /// The longest key this version makes: past it, a gallery's keys are made again, evenly spaced.
    static let maximumLength = 128
    /// The longest key read from another computer.
    static let readLimit = 256

    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    private static let base = 62

    /// Whether `key` is one this version can place others around: digits of the alphabet, not ending in `0`.
    static func isValid(_ key: String) -> Bool {
        guard (1...readLimit).contains(key.utf8.count), key.utf8.last != alphabet[0] else { return false }
        return key.utf8.allSatisfy { digit($0) != nil }
    }

    /// A key strictly between `low` and `high` (nil: the start, the end); `low` must sort before `high`.
    static func between(_ low: String?, _ high: String?) -> String {
        let digits = midpoint(
            Array((low ?? "").utf8.map { digit($0)! })[...], high.map { Array($0.utf8.map { digit($0)! })[...] })
        return String(decoding: digits.map { alphabet[Int($0)] }, as: UTF8.self)
    }

    /// `count` increasing keys strictly between `low` and `high`, halving the gap each time, so that their length
    /// grows with the logarithm of `count`.
    static func keys(_ count: Int, between low: String?, _ high: String?) -> [String] {
        guard count > 0 else { return [] }
        let middle = between(low, high)
        let before = (count - 1) / 2
        return keys(before, between: low, middle) + [middle] + keys(count - 1 - before, between: middle, high)
    }

    /// `count` increasing keys spread evenly, all of one short length: a gallery carried over or made again.
    static func evenlySpaced(_ count: Int) -> [String] {
        var width = 1
        var span: UInt64 = UInt64(base)
        while span < 2 * UInt64(count + 1) {
            width += 1
            span *= UInt64(base)
        }
        return (0..<count).map { index in
            let (high, low) = UInt64(index + 1).multipliedFullWidth(by: span)
            var value = UInt64(count + 1).dividingFullWidth((high, low)).quotient
            var digits = [UInt8](repeating: alphabet[0], count: width)
            for place in (0..<width).reversed() {
                digits[place] = alphabet[Int(value % UInt64(base))]
                value /= UInt64(base)
            }
            while digits.last == alphabet[0] { digits.removeLast() }
            return String(decoding: digits, as: UTF8.self)
        }
    }

    private static func digit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x5A: byte - 0x41 + 10
        case 0x61...0x7A: byte - 0x61 + 36
        default: nil
        }
    }

    /// Digits strictly between `low` and `high` (nil: one past the last digit), as fractions.
    private static func midpoint(_ low: ArraySlice<UInt8>, _ high: ArraySlice<UInt8>?) -> [UInt8] {
        if let high {
            var shared = 0
            while shared < high.count,
                (shared < low.count ? low[low.startIndex + shared] : 0) == high[high.startIndex + shared]
            {
                shared += 1
            }
            if shared > 0 {
                return Array(high.prefix(shared)) + midpoint(low.dropFirst(shared), high.dropFirst(shared))
            }
        }
        let lowDigit = Int(low.first ?? 0)
        let highDigit = Int(high?.first ?? UInt8(base))
        if highDigit - lowDigit > 1 { return [UInt8((lowDigit + highDigit) / 2)] }
        if let high, high.count > 1 { return [high.first!] }
        return [UInt8(lowDigit)] + midpoint(low.dropFirst(), nil)
    }
}
