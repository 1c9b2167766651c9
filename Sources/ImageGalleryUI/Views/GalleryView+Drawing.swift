import Foundation
import GalleryCore
import GtkKit

extension GalleryView {
    static let cornerRadius = 6.0

    func draw(_ context: CairoContext) {
        canvas.renderBackground(context)
        // From here on, content coordinates: cairo sees only the small offsets of what is on screen.
        context.translate(x: 0, y: -scroller.scrollOffset)
        let clip = context.clipExtents
        var area = LayoutRect(x: clip.x, y: clip.y, width: clip.width, height: clip.height)
        if isAnimatingLayout {
            // Cells sliding in from outside the damaged area still need painting.
            area = LayoutRect(x: area.x, y: area.y - rowHeight * 2, width: area.width, height: area.height + rowHeight * 4)
        }
        let palette = Palette(widget: canvas)
        let scale = canvas.scaleFactor
        if let gap, gap.index <= laidOutCells.count, layout.frames.indices.contains(gapSlot(for: gap.index)) {
            drawGap(layout.frames[gapSlot(for: gap.index)], context: context, palette: palette)
        }
        for index in cellIndices(intersecting: area) {
            drawCell(at: index, context: context, palette: palette, scale: scale)
        }
    }

    private func gapSlot(for index: Int) -> Int {
        index < slotOfCell.count ? slotOfCell[index] - 1 : layout.frames.count - 1
    }

    private func drawGap(_ frame: LayoutRect, context: CairoContext, palette: Palette) {
        context.roundedRectangle(x: frame.x + 1, y: frame.y + 1, width: frame.width - 2, height: frame.height - 2,
                                 radius: Self.cornerRadius)
        context.setColor(palette.accent.withAlpha(0.12))
        context.fillPreserve()
        context.setColor(palette.accent.withAlpha(0.7))
        context.setLineWidth(2)
        context.stroke()
    }

    private func drawCell(at index: Int, context: CairoContext, palette: Palette, scale: Int) {
        let cell = laidOutCells[index]
        let frame = displayedFrame(ofCellAt: index)
        let alpha = dimmed.contains(cell.id) ? 0.3 : 1
        switch cell.content {
        case .image(let image):
            let state = loader.state(for: image, pixelWidth: Int((frame.width * Double(scale)).rounded(.up)),
                                     pixelHeight: Int((frame.height * Double(scale)).rounded(.up)), scale: scale)
            switch state {
            case .ready(let surface):
                drawImage(surface, in: frame, context: context, palette: palette, alpha: alpha)
            case .loading:
                drawTile(frame, context: context, palette: palette, alpha: alpha)
                // Pictures on disk arrive within a frame or two: a spinner would only flicker.
                if loader.isSlow(image.id, after: 0.3) {
                    drawSpinner(centerX: frame.midX, centerY: frame.midY, radius: min(frame.width, frame.height, 64) / 4,
                                progress: nil, context: context, palette: palette)
                }
                ensureSpinnerTicking()
            case .failed(let reason):
                drawTile(frame, context: context, palette: palette, alpha: alpha)
                context.drawIcon(named: "image-missing-symbolic", widget: canvas, centerX: frame.midX,
                                 centerY: frame.midY - 12, size: 32, color: palette.foreground.withAlpha(0.55 * alpha))
                // Two lines for the reason where there is room: "image too large (30000×30000)" and its
                // translations are longer than a small cell is wide.
                let roomy = frame.height >= 120
                let reasonHeight = context.drawText(reason, widget: canvas, centerX: frame.midX, top: frame.midY + 12,
                                                    maxWidth: frame.width - 16,
                                                    color: palette.foreground.withAlpha(0.7 * alpha), lines: roomy ? 2 : 1)
                if roomy {
                    context.drawText(tr("Double-click to retry"), widget: canvas, centerX: frame.midX,
                                     top: frame.midY + 14 + reasonHeight, maxWidth: frame.width - 16,
                                     color: palette.foreground.withAlpha(0.45 * alpha), scale: 0.85,
                                     lines: frame.height >= 180 ? 2 : 1)
                }
            }
        case .placeholder(_, let progress):
            drawTile(frame, context: context, palette: palette, alpha: alpha)
            drawSpinner(centerX: frame.midX, centerY: frame.midY - 8, radius: min(frame.width, frame.height, 96) / 5,
                        progress: progress, context: context, palette: palette)
            let caption = progress.map(Localization.percent) ?? tr("Downloading…")
            context.drawText(caption, widget: canvas, centerX: frame.midX,
                             centerY: frame.midY + min(frame.width, frame.height, 96) / 5 + 14,
                             maxWidth: frame.width - 16, color: palette.foreground.withAlpha(0.7))
            if progress == nil { ensureSpinnerTicking() }
        }
        if session.selection.contains(cell.id) {
            context.roundedRectangle(x: frame.x - 1.5, y: frame.y - 1.5, width: frame.width + 3, height: frame.height + 3,
                                     radius: Self.cornerRadius + 1.5)
            context.setColor(palette.accent)
            context.setLineWidth(3)
            context.stroke()
            drawCheckBadge(x: frame.maxX - 14, y: frame.y + 14, context: context, palette: palette)
        }
        if focusedID == cell.id && canvas.hasFocus {
            context.roundedRectangle(x: frame.x - 4.5, y: frame.y - 4.5, width: frame.width + 9, height: frame.height + 9,
                                     radius: Self.cornerRadius + 4)
            context.setColor(palette.accent.withAlpha(0.6))
            context.setLineWidth(1.5)
            context.stroke()
        }
    }

    private func drawImage(_ surface: CairoSurface, in frame: LayoutRect, context: CairoContext, palette: Palette, alpha: Double) {
        context.save()
        context.roundedRectangle(x: frame.x, y: frame.y, width: frame.width, height: frame.height, radius: Self.cornerRadius)
        context.clip()
        // The cell has the recorded ratio; if the file's differs, fit inside without stretching.
        let ratio = surface.logicalWidth / max(surface.logicalHeight, 0.001)
        var width = frame.width
        var height = width / ratio
        if height > frame.height {
            height = frame.height
            width = height * ratio
        }
        if abs(width - frame.width) > 1 || abs(height - frame.height) > 1 {
            context.setColor(palette.tile.withAlpha(palette.tile.alpha * alpha))
            context.paint()
        }
        context.draw(surface, x: frame.midX - width / 2, y: frame.midY - height / 2, width: width, height: height, alpha: alpha)
        context.restore()
    }

    private func drawTile(_ frame: LayoutRect, context: CairoContext, palette: Palette, alpha: Double) {
        context.roundedRectangle(x: frame.x, y: frame.y, width: frame.width, height: frame.height, radius: Self.cornerRadius)
        context.setColor(palette.tile.withAlpha(palette.tile.alpha * alpha))
        context.fill()
    }

    /// A progress ring when the fraction is known, a turning arc otherwise.
    func drawSpinner(centerX: Double, centerY: Double, radius: Double, progress: Double?, context: CairoContext, palette: Palette) {
        let r = max(radius, 8)
        context.setLineWidth(max(r / 5, 2.5))
        context.setRoundCaps()
        context.arc(x: centerX, y: centerY, radius: r, from: 0, to: 2 * Double.pi)
        context.setColor(palette.foreground.withAlpha(0.15))
        context.stroke()
        let start: Double
        let end: Double
        if let progress {
            start = -Double.pi / 2
            end = start + 2 * Double.pi * min(max(progress, 0.02), 1)
        } else {
            let turn = Double(MainContext.monotonicMicroseconds % 1_000_000) / 1_000_000
            start = turn * 2 * Double.pi
            end = start + Double.pi * 0.6
        }
        context.arc(x: centerX, y: centerY, radius: r, from: start, to: end)
        context.setColor(palette.accent)
        context.stroke()
    }

    private func drawCheckBadge(x: Double, y: Double, context: CairoContext, palette: Palette) {
        context.arc(x: x, y: y, radius: 9, from: 0, to: 2 * Double.pi)
        context.setColor(palette.accent)
        context.fill()
        context.moveTo(x: x - 4, y: y)
        context.lineTo(x: x - 1, y: y + 3)
        context.lineTo(x: x + 4.5, y: y - 3.5)
        context.setColor(RGBA(red: 1, green: 1, blue: 1))
        context.setLineWidth(2)
        context.setRoundCaps()
        context.stroke()
    }
}

/// Colours taken from the theme each paint, so the dark variant looks right.
struct Palette {
    let foreground: RGBA
    let accent: RGBA
    let tile: RGBA
    let background: RGBA

    @MainActor
    init(widget: Widget) {
        foreground = widget.themeForeground
        background = widget.themeColor("theme_bg_color") ?? (foreground.isLight ? RGBA(red: 0.18, green: 0.18, blue: 0.18)
                                                                                  : RGBA(red: 0.96, green: 0.96, blue: 0.96))
        accent = widget.themeColor("theme_selected_bg_color") ?? RGBA(red: 0.21, green: 0.52, blue: 0.89)
        tile = foreground.withAlpha(0.08)
    }
}

extension GalleryView {
    /// What a cell looks like, for an image flying into the trash: its pixels, or a plain tile.
    func snapshot(of id: ImageID, width: Double, height: Double) -> CairoSurface {
        if case .ready(let surface) = loader.peekState(of: id) { return surface }
        return CairoSurface.render(width: max(width, 1), height: max(height, 1), scale: canvas.scaleFactor) { cr in
            cr.setColor(Palette(widget: canvas).tile.withAlpha(0.5))
            cr.paint()
        }
    }
}
