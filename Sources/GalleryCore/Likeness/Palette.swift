/// An image's few dominant colours, each with the share of the picture it covers, in 64 bits: four swatches of
/// 16 bits (share, lightness, green–red, blue–yellow, 4 bits each), the largest share first.
public struct Palette: Hashable, Sendable {
    /// One dominant colour and the share of the picture near it.
    public struct Swatch: Hashable, Sendable {
        public var colour: OklabColour
        /// 0…1.
        public var share: Float

        public init(colour: OklabColour, share: Float) {
            self.colour = colour
            self.share = share
        }
    }

    public let rawValue: UInt64

    public static let swatchCount = 4
    /// The Oklab ranges the 16 steps of each axis cover: sRGB's gamut.
    static let lightnessRange: ClosedRange<Float> = 0...1
    static let greenRedRange: ClosedRange<Float> = -0.24...0.28
    static let blueYellowRange: ClosedRange<Float> = -0.32...0.20

    /// The palette as saved; nil for a value no palette has (no swatch, or a share of nothing before a share).
    public init?(rawValue: UInt64) {
        let palette = Palette(measured: rawValue)
        guard rawValue >> 60 != 0 else { return nil }
        var previous = Float.infinity
        for index in 0..<Self.swatchCount {
            let share = Float((rawValue >> UInt64(60 - 16 * index)) & 15)
            guard share <= previous else { return nil }
            previous = share
        }
        self = palette
    }

    /// A palette read back from where it was kept after being checked.
    init(measured rawValue: UInt64) { self.rawValue = rawValue }

    /// The palette of these swatches (four at most, in the order given; a share too small to count is left out).
    public init(swatches: [Swatch]) {
        var value: UInt64 = 0
        for (index, swatch) in swatches.prefix(Self.swatchCount).enumerated() {
            let share = UInt64(Self.step(swatch.share, in: 0...1))
            guard share > 0 else { break }
            let code =
                share << 12 | UInt64(Self.step(swatch.colour.l, in: Self.lightnessRange)) << 8
                | UInt64(Self.step(swatch.colour.a, in: Self.greenRedRange)) << 4
                | UInt64(Self.step(swatch.colour.b, in: Self.blueYellowRange))
            value |= code << UInt64(48 - 16 * index)
        }
        rawValue = value
    }

    /// The swatches, largest share first.
    public var swatches: [Swatch] {
        (0..<Self.swatchCount).compactMap { index in
            let code = rawValue >> UInt64(48 - 16 * index) & 0xFFFF
            guard code >> 12 != 0 else { return nil }
            return Swatch(colour: Self.colour(code: code & 0xFFF), share: Float(code >> 12) / 15)
        }
    }

    /// How many colours a swatch can hold: 16 steps on each of the three axes.
    static let colourCount = 1 << 12

    /// The colour of a swatch's 12 bits (lightness, green–red, blue–yellow, 4 bits each).
    static func colour(code: UInt64) -> OklabColour {
        OklabColour(
            l: value(code >> 8 & 15, in: lightnessRange), a: value(code >> 4 & 15, in: greenRedRange),
            b: value(code & 15, in: blueYellowRange))
    }

    private static func step(_ value: Float, in range: ClosedRange<Float>) -> Int {
        let fraction = (value - range.lowerBound) / (range.upperBound - range.lowerBound)
        return Int((min(max(fraction, 0), 1) * 15).rounded())
    }

    private static func value(_ step: UInt64, in range: ClosedRange<Float>) -> Float {
        range.lowerBound + Float(step) / 15 * (range.upperBound - range.lowerBound)
    }

    /// Rounds of the grouping of cells around their colours: enough for four groups of a thousand cells to settle.
    static let rounds = 8

    /// The dominant colours of `grid`: its cells grouped by colour (k-means in Oklab, started from the most common
    /// colours far enough apart), each group's mean colour and its share of the cells.
    public init(_ grid: ColourGrid) {
        let cells = grid.red.indices.map { OklabColour(red: grid.red[$0], green: grid.green[$0], blue: grid.blue[$0]) }
        // The most common colours, a step of the saved palette apart, start the groups.
        var bins: [Int: (count: Int, first: OklabColour)] = [:]
        for colour in cells { bins[Self.bin(colour), default: (0, colour)].count += 1 }
        var centres: [OklabColour] = []
        for (_, (_, colour)) in bins.sorted(by: { ($0.value.count, $1.key) > ($1.value.count, $0.key) }) {
            if centres.allSatisfy({ $0.distance(to: colour) > 0.08 }) { centres.append(colour) }
            if centres.count == Self.swatchCount { break }
        }
        var members = [Int](repeating: 0, count: cells.count)
        for _ in 0..<Self.rounds {
            var sums = [(l: Float, a: Float, b: Float, count: Int)](
                repeating: (0, 0, 0, 0), count: centres.count)
            for (index, colour) in cells.enumerated() {
                var nearest = 0
                var best = Float.infinity
                for (number, centre) in centres.enumerated() {
                    let distance = centre.distance(to: colour)
                    if distance < best { (nearest, best) = (number, distance) }
                }
                members[index] = nearest
                sums[nearest].l += colour.l
                sums[nearest].a += colour.a
                sums[nearest].b += colour.b
                sums[nearest].count += 1
            }
            for (number, sum) in sums.enumerated() where sum.count > 0 {
                let count = Float(sum.count)
                centres[number] = OklabColour(l: sum.l / count, a: sum.a / count, b: sum.b / count)
            }
        }
        var shares = [Int](repeating: 0, count: centres.count)
        for member in members { shares[member] += 1 }
        let swatches = centres.indices.map {
            Swatch(colour: centres[$0], share: Float(shares[$0]) / Float(cells.count))
        }
        self.init(swatches: swatches.sorted { $0.share > $1.share })
    }

    /// The step of the saved palette a colour falls in, as one number.
    private static func bin(_ colour: OklabColour) -> Int {
        step(colour.l, in: lightnessRange) << 8 | step(colour.a, in: greenRedRange) << 4
            | step(colour.b, in: blueYellowRange)
    }
}
