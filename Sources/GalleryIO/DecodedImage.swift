import GtkKit

/// A decoded image ready to paint, and the size the file itself has.
public struct DecodedImage: Sendable {
    public let surface: CairoSurface
    public let originalWidth: Int
    public let originalHeight: Int

    public init(surface: CairoSurface, originalWidth: Int, originalHeight: Int) {
        self.surface = surface
        self.originalWidth = originalWidth
        self.originalHeight = originalHeight
    }
}
