import GLibKit
import GtkKit

/// Spinners and progress rings drawn once and painted wherever they turn, for the theme's colours
/// of the moment.
@MainActor
final class SpinnerSprites {
    struct Key: Hashable {
        let radius: Double
        /// Whole percents (0...100) of a progress ring; -1 - step for a turning spinner.
        let phase: Int
        let scale: Int
    }

    private var sprites: [Key: CairoSurface] = [:]
    private var palette: Palette?

    func sprite(for key: Key, palette: Palette, render: () -> CairoSurface) -> CairoSurface {
        if self.palette != palette || sprites.count >= 512 {
            sprites = [:]
            self.palette = palette
        }
        if let sprite = sprites[key] { return sprite }
        let sprite = render()
        sprites[key] = sprite
        return sprite
    }
}
