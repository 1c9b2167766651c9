import Foundation

/// A colour in Oklab: lightness `l` from 0 (black) to 1 (white), `a` from green to red, `b` from blue to yellow;
/// distances between colours in it follow what the eye sees.
public struct OklabColour: Hashable, Sendable {
    public var l: Float
    public var a: Float
    public var b: Float

    public init(l: Float, a: Float, b: Float) {
        self.l = l
        self.a = a
        self.b = b
    }

    /// The colour of sRGB `red`, `green` and `blue`, each 0…1 as encoded.
    public init(red: Float, green: Float, blue: Float) {
        func linear(_ value: Float) -> Float {
            value <= 0.04045 ? value / 12.92 : Float(pow(Double((value + 0.055) / 1.055), 2.4))
        }
        let (r, g, bl) = (linear(red), linear(green), linear(blue))
        let long = Float(cbrt(Double(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * bl)))
        let medium = Float(cbrt(Double(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * bl)))
        let short = Float(cbrt(Double(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * bl)))
        l = 0.2104542553 * long + 0.7936177850 * medium - 0.0040720468 * short
        a = 1.9779984951 * long - 2.4285922050 * medium + 0.4505937099 * short
        b = 0.0259040371 * long + 0.7827717662 * medium - 0.8086757660 * short
    }

    /// The colour as sRGB, each channel 0…1, clipped to the gamut.
    public var srgb: (red: Float, green: Float, blue: Float) {
        let long = pow(l + 0.3963377774 * a + 0.2158037573 * b, 3)
        let medium = pow(l - 0.1055613458 * a - 0.0638541728 * b, 3)
        let short = pow(l - 0.0894841775 * a - 1.2914855480 * b, 3)
        func encoded(_ value: Float) -> Float {
            let clipped = min(max(value, 0), 1)
            return clipped <= 0.0031308 ? clipped * 12.92 : 1.055 * Float(pow(Double(clipped), 1 / 2.4)) - 0.055
        }
        return (
            encoded(4.0767416621 * long - 3.3077115913 * medium + 0.2309699292 * short),
            encoded(-1.2684380046 * long + 2.6097574011 * medium - 0.3413193965 * short),
            encoded(-0.0041960863 * long - 0.7034186147 * medium + 1.7076147010 * short)
        )
    }

    /// Euclidean distance: about 0.02 is the least difference seen.
    public func distance(to other: OklabColour) -> Float {
        let (dl, da, db) = (l - other.l, a - other.a, b - other.b)
        return (dl * dl + da * da + db * db).squareRoot()
    }
}
