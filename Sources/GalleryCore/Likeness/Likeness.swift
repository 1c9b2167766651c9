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

    /// The likeness `savedText` wrote; nil for any other text. Read byte by byte: a large library reads one an image
    /// at launch.
    public init?(savedText text: String) {
        var text = text
        guard
            let likeness = text.withUTF8({ bytes -> Likeness? in
                guard bytes.count == 33, bytes[16] == UInt8(ascii: "."), let fingerprint = Self.hex(bytes[0..<16]),
                    let value = Self.hex(bytes[17..<33]), let palette = Palette(rawValue: value)
                else { return nil }
                return Likeness(fingerprint: Fingerprint(rawValue: fingerprint), palette: palette)
            })
        else { return nil }
        self = likeness
    }

    /// The number sixteen hexadecimal digits write, either case.
    private static func hex(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> UInt64? {
        var value: UInt64 = 0
        for byte in digits {
            guard let digit = HexDigit.value(of: byte) else { return nil }
            value = value << 4 | UInt64(digit)
        }
        return value
    }
}
