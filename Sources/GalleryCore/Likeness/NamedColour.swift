/// The colours a search offers by name. Each is a few sRGB references (its bright, dark and light kinds); a colour
/// takes the name of the reference nearest to it in Oklab, so that the names share the colours out between them.
public enum NamedColour: String, CaseIterable, Hashable, Sendable {
    case red, orange, yellow, green, blue, purple, pink, brown, black, grey, white

    /// The colour a swatch of the name shows, as 0xRRGGBB.
    public var shown: UInt32 {
        switch self {
        case .red: 0xE01B24
        case .orange: 0xFF7800
        case .yellow: 0xF6D32D
        case .green: 0x33A02C
        case .blue: 0x1C71D8
        case .purple: 0x813D9C
        case .pink: 0xF08CBA
        case .brown: 0x865E3C
        case .black: 0x000000
        case .grey: 0x808080
        case .white: 0xFFFFFF
        }
    }

    /// The references of the name, as 0xRRGGBB.
    var references: [UInt32] {
        switch self {
        case .red: [0xE01B24, 0xFF0000, 0xA51D2D, 0x800000, 0xD04040]
        case .orange: [0xFF7800, 0xE66100, 0xFFA348, 0xC64600]
        case .yellow: [0xF6D32D, 0xFFFF00, 0xF9F06B, 0xE5C500]
        case .green: [0x33A02C, 0x00C000, 0x26A269, 0x1A5C1A, 0x8FD14F, 0x6B8E23, 0x2EC27E]
        case .blue: [0x1C71D8, 0x0000FF, 0x1A237E, 0x62A0EA, 0x00A0C0, 0x99C1F1, 0x0D47A1, 0x008080]
        case .purple: [0x813D9C, 0x800080, 0x4A1A6B, 0xB07FD0, 0x613583]
        case .pink: [0xF08CBA, 0xFF1493, 0xFFC0CB, 0xD6336C, 0xFF69B4]
        case .brown: [0x865E3C, 0x5C3A1E, 0x8B4513, 0xA0522D, 0x3D2B1F, 0xB08860]
        case .black: [0x000000, 0x1A1A1A]
        case .grey: [0x808080, 0x5E5C64, 0xA0A0A0, 0x404040, 0xC0BFBC]
        case .white: [0xFFFFFF, 0xF0F0F0, 0xFAF5EB]
        }
    }

    /// Every reference and its name.
    static let allReferences: [(colour: OklabColour, name: NamedColour)] = allCases.flatMap { name in
        name.references.map { (OklabColour(rgb: $0), name) }
    }

    /// The name nearest to `colour`.
    public init(nearest colour: OklabColour) {
        var best = Float.infinity
        var nearest = NamedColour.grey
        for reference in Self.allReferences {
            let distance = reference.colour.distance(to: colour)
            if distance < best { (best, nearest) = (distance, reference.name) }
        }
        self = nearest
    }
}

extension OklabColour {
    /// The colour of sRGB 0xRRGGBB.
    public init(rgb: UInt32) {
        self.init(
            red: Float(rgb >> 16 & 0xFF) / 255, green: Float(rgb >> 8 & 0xFF) / 255, blue: Float(rgb & 0xFF) / 255)
    }

    /// The colour as sRGB 0xRRGGBB, clipped to the gamut.
    public var rgb: UInt32 {
        let (red, green, blue) = srgb
        func byte(_ value: Float) -> UInt32 { UInt32((value * 255).rounded()) }
        return byte(red) << 16 | byte(green) << 8 | byte(blue)
    }
}
