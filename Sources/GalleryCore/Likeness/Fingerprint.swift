import Foundation

/// What an image looks like in 64 bits: the signs, against their median, of the lowest frequencies of its
/// luminance's cosine transform (a perceptual hash). Resizing, recompression, another format, small crops and
/// borders and changes of brightness or contrast change few bits; another picture changes about half.
public struct Fingerprint: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64

    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Bits that differ: 0 for the same look, about 32 for unrelated pictures.
    public func distance(to other: Fingerprint) -> Int { (rawValue ^ other.rawValue).nonzeroBitCount }

    /// Sixteen hexadecimal digits, as the state file writes it.
    public var description: String {
        let digits = String(rawValue, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The fingerprint written as `description` writes it; nil for anything else.
    public init?(_ text: String) {
        guard text.utf8.count == 16, let value = UInt64(text, radix: 16) else { return nil }
        rawValue = value
    }

    /// Frequencies measured along each side: the 64 bits are the lowest of the 9 × 9, the constant one left out.
    static let frequencies = 9

    /// The frequency pairs (across, down) whose signs make the bits, lowest first.
    static let bitFrequencies: [(Int, Int)] = {
        var pairs: [(Int, Int)] = []
        for pair in (0..<frequencies).flatMap({ u in (0..<frequencies).map { v in (u, v) } }) where pair != (0, 0) {
            pairs.append(pair)
        }
        pairs.sort { ($0.0 + $0.1, $0.0) < ($1.0 + $1.1, $1.0) }
        return Array(pairs.prefix(64))
    }()

    /// cos((2x + 1)uπ / 2N) for the grid's N, by frequency then position.
    static let cosines: [Float] = {
        let side = ColourGrid.side
        return (0..<frequencies).flatMap { u in
            (0..<side).map { x in Float(cos(Double((2 * x + 1) * u) * Double.pi / Double(2 * side))) }
        }
    }()

    /// The fingerprint of `grid`.
    public init(_ grid: ColourGrid) {
        let side = ColourGrid.side
        let count = Self.frequencies
        let luminance = grid.luminance
        // Rows first: each row's low frequencies, then those of each column of the result.
        var rows = [Float](repeating: 0, count: side * count)
        for y in 0..<side {
            for u in 0..<count {
                var sum: Float = 0
                for x in 0..<side { sum += luminance[y * side + x] * Self.cosines[u * side + x] }
                rows[y * count + u] = sum
            }
        }
        var coefficients = [Float](repeating: 0, count: count * count)
        for v in 0..<count {
            for u in 0..<count {
                var sum: Float = 0
                for y in 0..<side { sum += rows[y * count + u] * Self.cosines[v * side + y] }
                coefficients[v * count + u] = sum
            }
        }
        let chosen = Self.bitFrequencies.map { coefficients[$0.1 * count + $0.0] }
        let sorted = chosen.sorted()
        let median = (sorted[31] + sorted[32]) / 2
        var bits: UInt64 = 0
        for (index, value) in chosen.enumerated() where value > median { bits |= 1 << UInt64(index) }
        rawValue = bits
    }
}
