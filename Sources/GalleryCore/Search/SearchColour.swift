/// The colour a search looks for: one of the named colours, or any colour picked (sRGB 0xRRGGBB).
public enum SearchColour: Hashable, Sendable {
    case named(NamedColour)
    case picked(UInt32)

    /// The colour as the state file and the filter menu write it: the name, or `#rrggbb`.
    public var text: String {
        switch self {
        case .named(let name): return name.rawValue
        case .picked(let rgb):
            let digits = String(rgb & 0xFF_FFFF, radix: 16)
            return "#" + String(repeating: "0", count: 6 - digits.count) + digits
        }
    }

    /// The colour `text` wrote; nil for any other text.
    public init?(text: String) {
        if let name = NamedColour(rawValue: text) {
            self = .named(name)
        } else if text.utf8.count == 7, text.hasPrefix("#"), text.dropFirst().allSatisfy(\.isHexDigit),
            let rgb = UInt32(text.dropFirst(), radix: 16)
        {
            self = .picked(rgb)
        } else {
            return nil
        }
    }

    /// The colour a swatch of it shows, as 0xRRGGBB.
    public var shown: UInt32 {
        switch self {
        case .named(let name): name.shown
        case .picked(let rgb): rgb & 0xFF_FFFF
        }
    }
}
