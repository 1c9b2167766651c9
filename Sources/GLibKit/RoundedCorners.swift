/// Opaque discs, one per radius, that `fillRoundedRectangle` masks corners with: drawn once on
/// the display (an alpha-only pixmap on X11), then only referred to.
@MainActor
public final class RoundedCorners {
    private struct Key: Hashable {
        let pixels: Int
        let pixelsPerUnit: Double
    }

    private var discs: [Key: CairoSurface] = [:]

    public init() {}

    func disc(pixels: Int, pixelsPerUnit: Double, like context: CairoContext) -> CairoSurface {
        let key = Key(pixels: pixels, pixelsPerUnit: pixelsPerUnit)
        if let disc = discs[key] { return disc }
        let size = Double(2 * pixels) / pixelsPerUnit
        let disc = context.renderSimilar(width: size, height: size, alphaOnly: true) { disc in
            disc.arc(x: size / 2, y: size / 2, radius: size / 2, from: 0, to: 2 * Double.pi)
            disc.fill()
        }
        discs[key] = disc
        return disc
    }
}
