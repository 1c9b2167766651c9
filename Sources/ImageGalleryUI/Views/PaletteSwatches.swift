import GLibKit
import GalleryCore
import GtkKit

/// An image's palette in its properties: a button for each dominant colour, painted in it, with the share of the
/// picture it covers under it; choosing one searches for images of that colour.
@MainActor
final class PaletteSwatches {
    let root = Box(.vertical, spacing: 2)
    private let row = Box(.horizontal, spacing: 6)
    private var buttons: [Widget] = []
    private var shown: GalleryCore.Palette?

    /// A swatch was chosen: the named colour it is.
    var onChosen: (SearchColour) -> Void = { _ in }

    init() {
        let heading = Label(tr("Colours"))
        heading.setXAlign(0)
        heading.addStyleClass("dim-label")
        root.append(heading)
        root.append(row)
    }

    /// Shows `palette`, or hides the row for an image not measured yet.
    func show(_ palette: GalleryCore.Palette?) {
        root.isVisible = palette != nil
        guard palette != shown else { return }
        shown = palette
        for button in buttons { row.remove(button) }
        buttons = (palette?.swatches ?? []).map(swatchButton)
        for button in buttons { row.append(button) }
        row.showAll()
    }

    private func swatchButton(_ swatch: GalleryCore.Palette.Swatch) -> Widget {
        let rgb = swatch.colour.rgb
        let colour = RGBA(
            red: Double(rgb >> 16 & 0xFF) / 255, green: Double(rgb >> 8 & 0xFF) / 255, blue: Double(rgb & 0xFF) / 255)
        let name = NamedColour(nearest: swatch.colour)
        // Translators: a colour's share of a picture, as in “40%”.
        let share = tr("{percent}%", ["percent": String(Int((swatch.share * 100).rounded()))])
        let paint = DrawingArea()
        let (width, height) = (44, 28)
        paint.setSizeRequest(width: Int32(width), height: Int32(height))
        paint.setAlign(horizontal: .center, vertical: .center)
        // The area's wrapper is not kept: its size is the one asked, and the theme's colours are the row's.
        paint.onDraw { [weak self] context in
            guard let self else { return }
            context.roundedRectangle(x: 0.5, y: 0.5, width: Double(width) - 1, height: Double(height) - 1, radius: 4)
            context.setColor(colour)
            context.fillPreserve()
            // An outline in the text's colour keeps a swatch like the window's own colour visible on it.
            let outline = row.themeColor("theme_fg_color") ?? RGBA(red: 0, green: 0, blue: 0)
            context.setColor(outline.withAlpha(0.35))
            context.setLineWidth(1)
            context.stroke()
        }
        let caption = Label(share)
        caption.addStyleClass("dim-label")
        let content = Box(.vertical, spacing: 2)
        content.append(paint)
        content.append(caption)
        let button = Button(child: content)
        button.addStyleClass("flat")
        // Translators: a swatch of an image's palette, read by screen readers: a colour's name and its share.
        button.accessibleName = tr(
            "{colour}, {share}", ["colour": SearchFilter.name(of: .named(name)), "share": share])
        button.tooltip = tr("Find Images of This Colour")
        button.onClicked { [weak self] in self?.onChosen(.named(name)) }
        return button
    }
}
