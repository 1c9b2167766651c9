/// What an image looks like, as the library keeps it: its fingerprint, to find copies, and its palette, to find
/// colours. Sixteen bytes, measured from the pixels once when the image arrives.
public struct Likeness: Hashable, Sendable {
    public var fingerprint: Fingerprint
    public var palette: Palette

    public init(fingerprint: Fingerprint, palette: Palette) {
        self.fingerprint = fingerprint
        self.palette = palette
    }

    /// The likeness of the picture `grid` reduces.
    public init(_ grid: ColourGrid) {
        self.init(fingerprint: Fingerprint(grid), palette: Palette(grid))
    }

    /// Fingerprints at most this far apart are the same picture: resized, recompressed, cropped a little, brighter.
    public static let nearDuplicateDistance = 10

    /// Whether `other` looks like a copy of this image.
    public func isNearDuplicate(of other: Likeness) -> Bool {
        fingerprint.distance(to: other.fingerprint) <= Self.nearDuplicateDistance
    }

    /// The likeness as the state file writes it: the fingerprint and the palette in hexadecimal, a dot between.
    public var savedText: String {
        let palette = String(palette.rawValue, radix: 16)
        return "\(fingerprint).\(String(repeating: "0", count: 16 - palette.count) + palette)"
    }

    /// The likeness `savedText` wrote; nil for any other text.
    public init?(savedText text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].utf8.count == 16, let fingerprint = Fingerprint(String(parts[0])),
            let value = UInt64(parts[1], radix: 16), let palette = Palette(rawValue: value)
        else { return nil }
        self.init(fingerprint: fingerprint, palette: palette)
    }
}
