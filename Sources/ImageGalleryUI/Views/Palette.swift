import GLibKit
import GtkKit

/// Colours taken from the theme each paint, so the dark variant looks right.
struct Palette: Equatable {
    let foreground: RGBA
    let accent: RGBA
    let tile: RGBA
    let background: RGBA

    @MainActor
    init(widget: Widget) {
        foreground = widget.themeForeground
        background =
            widget.themeColor("theme_bg_color")
            ?? (foreground.isLight
                ? RGBA(red: 0.18, green: 0.18, blue: 0.18)
                : RGBA(red: 0.96, green: 0.96, blue: 0.96))
        accent = widget.themeColor("theme_selected_bg_color") ?? RGBA(red: 0.21, green: 0.52, blue: 0.89)
        tile = foreground.withAlpha(0.08)
    }
}
