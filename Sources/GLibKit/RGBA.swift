/// A colour with alpha, in 0...1.
public struct RGBA: Sendable, Equatable {
    public var red, green, blue, alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public func withAlpha(_ alpha: Double) -> RGBA { RGBA(red: red, green: green, blue: blue, alpha: alpha) }

    /// Whether text in this colour is light, i.e. the theme is dark.
    public var isLight: Bool { 0.299 * red + 0.587 * green + 0.114 * blue > 0.5 }
}
