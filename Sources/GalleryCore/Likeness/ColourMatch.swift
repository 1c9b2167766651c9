/// Which of the colours a saved palette can hold a search's colour takes, worked out once a search for each of
/// them, so that matching a palette is four look-ups; and the bins (`PaletteBlocks`) of the blocks of palettes that
/// may hold it, so that a search reads only those blocks.
public struct ColourMatch: Sendable {
    /// For each colour a swatch may hold (its 12 bits of lightness, green–red and blue–yellow), whether it matches.
    private let matches: [Bool]
    /// The bins (`PaletteBlocks`) of a block of palettes that may hold an image of the colour.
    let bins: [UInt64]

    /// The least share of the picture, in fifteenths, a swatch must cover for the image to count as of its colour:
    /// a speck is not what the image looks like.
    public static let meaningfulShare = 2
    /// How far a swatch may be from a picked colour (in Oklab, lightness counting half, as a photo's light varies
    /// more than its hues): a shade of it, not a neighbouring hue nor a grey.
    public static let pickedDistance: Float = 0.08

    /// The most a palette's coverage can be: every swatch's share at its largest.
    public static let largestCoverage = Palette.swatchCount * 15

    /// The name of each colour a swatch may hold, worked out once.
    static let names = (0..<Palette.colourCount).map { NamedColour(nearest: Palette.colour(code: UInt64($0))) }

    public init(_ colour: SearchColour) {
        switch colour {
        case .named(let name):
            matches = Self.names.map { $0 == name }
            bins = PaletteBlocks.bins(of: name)
        case .picked(let rgb):
            let picked = OklabColour(rgb: rgb)
            matches = (0..<Palette.colourCount).map { code in
                let swatch = Palette.colour(code: UInt64(code))
                let (l, a, b) = ((swatch.l - picked.l) / 2, swatch.a - picked.a, swatch.b - picked.b)
                return (l * l + a * a + b * b).squareRoot() <= Self.pickedDistance
            }
            bins = PaletteBlocks.bins(ofAny: matches)
        }
    }

    /// The share of the picture, in fifteenths, that the palette's swatches of the colour cover; 0 when none of its
    /// swatches of a meaningful share is of the colour.
    public func coverage(of palette: Palette) -> Int {
        var covered = 0
        var swatches = palette.rawValue
        for _ in 0..<Palette.swatchCount {
            let code = swatches >> 48
            let share = Int(code >> 12)
            if share >= Self.meaningfulShare && matches[Int(code & 0xFFF)] { covered += share }
            swatches <<= 16
        }
        return covered
    }
}
