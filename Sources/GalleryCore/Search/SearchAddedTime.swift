/// When an image was added, as a search entry's record keeps it in 8 bytes: the time the app writes
/// (`2026-11-26T22:40:00Z`, ISO 8601 in UTC to the second) as the number its fourteen digits make, which sorts as the
/// text does, where a view into the image's text would take four times as much. A text of another shape (a hand-edited
/// file) is kept aside by its entries (`isOtherText`).
struct SearchAddedTime: Hashable, Sendable {
    private let rawValue: UInt64

    private init(rawValue: UInt64) { self.rawValue = rawValue }

    /// No time: the image has no `added`.
    static let none = SearchAddedTime(rawValue: 0)
    /// A text the app does not write, kept aside.
    static let otherText = SearchAddedTime(rawValue: 1)

    var isOtherText: Bool { rawValue == 1 }

    /// The time `text` writes, `otherText` when it is not of the app's shape, `none` for no text.
    init(_ text: Substring?) {
        guard let text else {
            self = .none
            return
        }
        self = Self.number(of: text).map { SearchAddedTime(rawValue: $0 << 1) } ?? .otherText
    }

    /// The digits' number, when `text` is `YYYY-MM-DDTHH:MM:SSZ`.
    private static func number(of text: Substring) -> UInt64? {
        var text = text
        // Its bytes in place: a Substring's UTF-8 view is walked an index at a time, far more slowly.
        return text.withUTF8 { bytes -> UInt64? in
            guard bytes.count == 20 else { return nil }
            var number: UInt64 = 0
            for (offset, byte) in bytes.enumerated() {
                switch offset {
                case 4, 7: guard byte == UInt8(ascii: "-") else { return nil }
                case 10: guard byte == UInt8(ascii: "T") else { return nil }
                case 13, 16: guard byte == UInt8(ascii: ":") else { return nil }
                case 19: guard byte == UInt8(ascii: "Z") else { return nil }
                default:
                    guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                    number = number * 10 + UInt64(byte - UInt8(ascii: "0"))
                }
            }
            return number
        }
    }

    /// Whether this time is of the app's shape (nor none nor another text).
    private var isTime: Bool { rawValue > 1 }

    /// The text it was made from, when it is a time.
    var text: String? {
        guard isTime else { return nil }
        var digits = Array(String(rawValue >> 1).utf8)
        digits.insert(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(0, 14 - digits.count)), at: 0)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        for (index, digit) in digits.enumerated() {
            bytes.append(digit)
            switch index {
            case 3, 5: bytes.append(UInt8(ascii: "-"))
            case 7: bytes.append(UInt8(ascii: "T"))
            case 9, 11: bytes.append(UInt8(ascii: ":"))
            default: break
            }
        }
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// How this time compares with `bound`'s when both are times; nil when either is not (their texts then compare).
    func isBefore(_ bound: SearchAddedTime) -> Bool? {
        guard isTime, bound.isTime else { return nil }
        return rawValue < bound.rawValue
    }
}
