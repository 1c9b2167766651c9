import Foundation
import GLibKit
import GalleryCore
import GtkKit

extension GalleryView {
    nonisolated static let cornerRadius = 6.0

    func draw(_ context: CairoContext) {
        if let firstFrame = onFirstFrame {
            onFirstFrame = nil
            MainContext.post { firstFrame() }
        }
        if !hasDrawn {
            hasDrawn = true
            MainContext.post { [weak self] in self?.checkFirstScreenLoaded() }
        }
        canvas.renderBackground(context)
        // From here on, content coordinates: cairo sees only the small offsets of what is on screen.
        context.translate(x: 0, y: -scroller.scrollOffset)
        let clip = context.clipExtents
        var area = LayoutRect(x: clip.x, y: clip.y, width: clip.width, height: clip.height)
        if isAnimatingLayout {
            // Cells sliding in from outside the damaged area still need painting.
            area = LayoutRect(
                x: area.x, y: area.y - rowHeight * 2, width: area.width, height: area.height + rowHeight * 4)
        }
        let palette = Palette(widget: canvas)
        let scale = canvas.scaleFactor
        if gap != nil, let slot = laidOutGapSlot, layout.frames.indices.contains(slot) {
            drawGap(layout.frames[slot], context: context, palette: palette)
        }
        // Spinners turning damage their own squares: the cells between them are not painted again.
        let damage =
            isAnimatingLayout
            ? nil
            : context.clipRectangles.map { rectangles in
                rectangles.map { LayoutRect(x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
            }
        drawHeadings(in: area, context: context, palette: palette)
        for index in cellIndices(intersecting: area) {
            // The selection and focus rings reach a few pixels past the cell.
            let frame = displayedFrame(ofCellAt: index)
            guard
                Self.needsPainting(
                    LayoutRect(x: frame.x - 6, y: frame.y - 6, width: frame.width + 12, height: frame.height + 12),
                    damage: damage)
            else { continue }
            drawCell(at: index, context: context, palette: palette, scale: scale, damage: damage)
        }
        #if StallLog
            // For the search benchmark: when each query's results were first painted.
            if let results = session.searchResults, results.query.text != lastPaintedQuery {
                lastPaintedQuery = results.query.text
                StallLog.note("results-painted \(session.cells.count) \(results.query.text)")
            }
            // For the likeness benchmark: every new set of results, which More Like This and a colour give no words.
            if let results = session.searchResults, results != lastPaintedResults {
                lastPaintedResults = results
                let kind =
                    results.query.colour.map { "colour:" + $0.text }
                    ?? (results.query.isEmpty ? "look-alikes" : "words")
                StallLog.note("results-drawn \(results.count) \(kind)")
            }
        #endif
    }

    /// Among search results, each gallery's name above its images.
    private func drawHeadings(in area: LayoutRect, context: CairoContext, palette: Palette) {
        let sections = session.resultSections
        for (section, top) in zip(sections, layout.headingTops)
        where top < area.maxY && top + Self.headingHeight > area.y {
            context.drawText(
                section.name, widget: canvas, left: Self.spacing + 4, centerY: top + Self.headingHeight / 2,
                maxWidth: layout.width - 2 * Self.spacing - 8, color: palette.foreground)
        }
    }

    private static func needsPainting(_ rect: LayoutRect, damage: [LayoutRect]?) -> Bool {
        damage?.contains { $0.intersects(rect) } ?? true
    }

    /// Where a cell's spinner turns, if it shows one: the only part of the cell a turn repaints.
    func spinnerBox(of cell: GalleryCell, in frame: LayoutRect) -> (
        centerX: Double, centerY: Double, radius: Double, box: LayoutRect
    )? {
        let centerY: Double
        let radius: Double
        switch cell.content {
        case .image(let image):
            guard case .loading = loader.peekState(of: image.id), loader.isSlow(image.id, after: 0.3) else {
                return nil
            }
            centerY = frame.midY
            radius = max(min(frame.width, frame.height, 64) / 4, 8)
        case .placeholder:
            centerY = frame.midY - 8
            radius = max(min(frame.width, frame.height, 96) / 5, 8)
        }
        let reach = radius + Self.spinnerLineWidth(radius: radius) / 2 + 1
        return (
            frame.midX, centerY, radius,
            LayoutRect(x: frame.midX - reach, y: centerY - reach, width: reach * 2, height: reach * 2)
        )
    }

    private static func spinnerLineWidth(radius: Double) -> Double { max(radius / 5, 2.5) }

    private func drawGap(_ frame: LayoutRect, context: CairoContext, palette: Palette) {
        context.roundedRectangle(
            x: frame.x + 1, y: frame.y + 1, width: frame.width - 2, height: frame.height - 2,
            radius: Self.cornerRadius)
        context.setColor(palette.accent.withAlpha(0.12))
        context.fillPreserve()
        context.setColor(palette.accent.withAlpha(0.7))
        context.setLineWidth(2)
        context.stroke()
    }

    private func drawCell(at index: Int, context: CairoContext, palette: Palette, scale: Int, damage: [LayoutRect]?) {
        let cell = shownCells[index]
        let frame = displayedFrame(ofCellAt: index)
        let alpha = dimmed.contains(cell.id) ? 0.3 : 1
        switch cell.content {
        case .image(let image):
            // Decoded for where the cell is going, not for each size it passes through while sliding.
            let state = loader.state(for: image, cell: targetFrame(ofCellAt: index), scale: scale)
            if let moving = cellAnimations.surface(of: image.id), case .ready = state {
                drawImage(moving, in: frame, context: context, palette: palette, alpha: alpha)
            } else {
                drawImageCell(cell, state: state, in: frame, context: context, palette: palette, alpha: alpha)
            }
            if image.animation?.isAnimated == true, case .ready = state {
                drawAnimationBadge(in: frame, context: context, alpha: alpha)
            }
        case .placeholder(_, let progress):
            drawPlaceholder(
                cell, progress: progress, in: frame, context: context, palette: palette, alpha: alpha, damage: damage)
        }
        if session.selection.contains(cell.id) { drawSelectionRing(frame, context: context, palette: palette) }
        if focusedID == cell.id && canvas.hasFocus { drawFocusRing(frame, context: context, palette: palette) }
    }

    /// An image's cell as its loading stands: its picture, a spinner, or what keeps it from showing.
    private func drawImageCell(
        _ cell: GalleryCell, state: ImageLoader.State, in frame: LayoutRect, context: CairoContext, palette: Palette,
        alpha: Double
    ) {
        switch state {
        case .ready(let surface):
            drawImage(surface, in: frame, context: context, palette: palette, alpha: alpha)
        case .loading:
            drawTile(frame, context: context, palette: palette, alpha: alpha)
            // Pictures on disk arrive within a frame or two: a spinner would only flicker.
            if let spinner = spinnerBox(of: cell, in: frame) {
                drawSpinner(
                    centerX: spinner.centerX, centerY: spinner.centerY, radius: spinner.radius,
                    progress: nil, context: context, palette: palette)
            }
            ensureSpinnerTicking()
        case .waitingForSync:
            drawNotice(
                icon: "emblem-synchronizing-symbolic", iconOpacity: 0.4, text: tr("Waiting for sync"), textOpacity: 0.6,
                in: frame, context: context, palette: palette, alpha: alpha)
        case .onLocalNetwork:
            drawNotice(
                icon: "network-server-symbolic", iconOpacity: 0.4, text: tr("On your local network"), textOpacity: 0.6,
                hint: frame.height >= 120 ? tr("Double-click to load") : nil,
                in: frame, context: context, palette: palette, alpha: alpha)
        case .failed(let reason):
            // Two lines for the reason where there is room: "image too large (30000×30000)" and its
            // translations are longer than a small cell is wide.
            let roomy = frame.height >= 120
            drawNotice(
                icon: "image-missing-symbolic", iconOpacity: 0.55, text: reason, textOpacity: 0.7,
                textLines: roomy ? 2 : 1, hint: roomy ? tr("Double-click to retry") : nil,
                hintLines: frame.height >= 180 ? 2 : 1, in: frame, context: context, palette: palette, alpha: alpha)
        }
    }

    /// A cell with no picture to show: its tile, an icon, what keeps the picture away, and below it what a
    /// double-click does, where there is room.
    private func drawNotice(
        icon: String, iconOpacity: Double, text: String, textOpacity: Double, textLines: Int = 1, hint: String? = nil,
        hintLines: Int = 1, in frame: LayoutRect, context: CairoContext, palette: Palette, alpha: Double
    ) {
        drawTile(frame, context: context, palette: palette, alpha: alpha)
        context.drawIcon(
            named: icon, widget: canvas, centerX: frame.midX, centerY: frame.midY - 12, size: 32,
            color: palette.foreground.withAlpha(iconOpacity * alpha))
        let textHeight = context.drawText(
            text, widget: canvas, centerX: frame.midX, top: frame.midY + 12, maxWidth: frame.width - 16,
            color: palette.foreground.withAlpha(textOpacity * alpha), lines: textLines)
        guard let hint else { return }
        context.drawText(
            hint, widget: canvas, centerX: frame.midX, top: frame.midY + 14 + textHeight, maxWidth: frame.width - 16,
            color: palette.foreground.withAlpha(0.45 * alpha), scale: 0.85, lines: hintLines)
    }

    /// An image on its way: its tile, and a spinner with what it has come of it.
    private func drawPlaceholder(
        _ cell: GalleryCell, progress: Double?, in frame: LayoutRect, context: CairoContext, palette: Palette,
        alpha: Double, damage: [LayoutRect]?
    ) {
        drawTile(frame, context: context, palette: palette, alpha: alpha)
        if let spinner = spinnerBox(of: cell, in: frame) {
            drawSpinner(
                centerX: spinner.centerX, centerY: spinner.centerY, radius: spinner.radius,
                progress: progress, context: context, palette: palette)
            let captionY = spinner.box.maxY + 8
            if Self.needsPainting(
                LayoutRect(x: frame.x, y: captionY - 4, width: frame.width, height: 32), damage: damage)
            {
                let caption = progress.map(Localization.percent) ?? tr("Downloading…")
                context.drawText(
                    caption, widget: canvas, centerX: frame.midX, centerY: captionY + 10,
                    maxWidth: frame.width - 16, color: palette.foreground.withAlpha(0.7))
            }
        }
        if progress == nil { ensureSpinnerTicking() }
    }

    private func drawSelectionRing(_ frame: LayoutRect, context: CairoContext, palette: Palette) {
        context.roundedRectangle(
            x: frame.x - 1.5, y: frame.y - 1.5, width: frame.width + 3, height: frame.height + 3,
            radius: Self.cornerRadius + 1.5)
        context.setColor(palette.accent)
        context.setLineWidth(3)
        context.stroke()
        drawCheckBadge(x: frame.maxX - 14, y: frame.y + 14, context: context, palette: palette)
    }

    private func drawFocusRing(_ frame: LayoutRect, context: CairoContext, palette: Palette) {
        context.roundedRectangle(
            x: frame.x - 4.5, y: frame.y - 4.5, width: frame.width + 9, height: frame.height + 9,
            radius: Self.cornerRadius + 4)
        context.setColor(palette.accent.withAlpha(0.6))
        context.setLineWidth(1.5)
        context.stroke()
    }

    private func drawImage(
        _ surface: CairoSurface, in frame: LayoutRect, context: CairoContext, palette: Palette, alpha: Double
    ) {
        // Decoded for this very cell, its own corners are round: no clip path for the X server to fill.
        let scale = Double(canvas.scaleFactor)
        if surface.cornerRadius == Self.cornerRadius, abs(Double(surface.pixelWidth) - frame.width * scale) <= 1.5,
            abs(Double(surface.pixelHeight) - frame.height * scale) <= 1.5
        {
            context.draw(surface, x: frame.x, y: frame.y, width: frame.width, height: frame.height, alpha: alpha)
            return
        }
        // The cell has the recorded ratio; if the file's differs, fit inside without stretching.
        let ratio = surface.logicalWidth / max(surface.logicalHeight, 0.001)
        var width = frame.width
        var height = width / ratio
        if height > frame.height {
            height = frame.height
            width = height * ratio
        }
        let fitted = LayoutRect(x: frame.midX - width / 2, y: frame.midY - height / 2, width: width, height: height)
        if abs(width - frame.width) > 1 || abs(height - frame.height) > 1 {
            drawTile(frame, context: context, palette: palette, alpha: alpha)
        }
        // Not at its cell's size: sliding, or its decode for this size is on the way.
        if alpha >= 1 {
            context.setSource(
                surface, x: fitted.x, y: fitted.y, width: fitted.width, height: fitted.height, resampling: .fast)
            context.fillRoundedRectangle(
                x: fitted.x, y: fitted.y, width: fitted.width, height: fitted.height,
                radius: Self.cornerRadius, corners: roundedCorners)
        } else {
            context.save()
            context.roundedRectangle(
                x: fitted.x, y: fitted.y, width: fitted.width, height: fitted.height,
                radius: Self.cornerRadius)
            context.clip()
            context.draw(
                surface, x: fitted.x, y: fitted.y, width: fitted.width, height: fitted.height, alpha: alpha,
                resampling: .fast)
            context.restore()
        }
    }

    private func drawTile(_ frame: LayoutRect, context: CairoContext, palette: Palette, alpha: Double) {
        context.setColor(palette.tile.withAlpha(palette.tile.alpha * alpha))
        context.fillRoundedRectangle(
            x: frame.x, y: frame.y, width: frame.width, height: frame.height,
            radius: Self.cornerRadius, corners: roundedCorners)
    }

    /// A progress ring when the fraction is known, a turning arc otherwise. Painted from a sprite:
    /// all the spinners of a frame turn alike, and stroking arcs is what a frame of a hundred
    /// downloads spent most on (on X11, each stroke is tessellated and sent as trapezoids).
    func drawSpinner(
        centerX: Double, centerY: Double, radius: Double, progress: Double?, context: CairoContext, palette: Palette
    ) {
        let r = max(radius, 8)
        let lineWidth = Self.spinnerLineWidth(radius: r)
        let reach = r + lineWidth / 2 + 1
        // Whole percents for a progress ring, 64 steps of a turn a second for a spinner.
        let phase =
            progress.map { Int((min(max($0, 0.02), 1) * 100).rounded()) }
            ?? -1 - Int(MainContext.monotonicMicroseconds % 1_000_000 * 64 / 1_000_000)
        let key = SpinnerSprites.Key(radius: r, phase: phase, scale: canvas.scaleFactor)
        let sprite = spinnerSprites.sprite(for: key, palette: palette) {
            context.renderSimilar(width: reach * 2, height: reach * 2) { sprite in
                sprite.setLineWidth(lineWidth)
                sprite.setRoundCaps()
                sprite.arc(x: reach, y: reach, radius: r, from: 0, to: 2 * Double.pi)
                sprite.setColor(palette.foreground.withAlpha(0.15))
                sprite.stroke()
                let start = phase >= 0 ? -Double.pi / 2 : Double(-1 - phase) / 64 * 2 * Double.pi
                let end = phase >= 0 ? start + 2 * Double.pi * Double(phase) / 100 : start + Double.pi * 0.6
                sprite.arc(x: reach, y: reach, radius: r, from: start, to: end)
                sprite.setColor(palette.accent)
                sprite.stroke()
            }
        }
        context.paint(sprite, x: centerX - reach, y: centerY - reach)
    }

    /// A dark pill with a white play sign in the cell's lower left corner: it says the image moves, and reads on
    /// light and dark pictures alike (its thin light rim parts it from a dark one), in either theme.
    private func drawAnimationBadge(in frame: LayoutRect, context: CairoContext, alpha: Double) {
        let width = 26.0
        let height = 18.0
        guard frame.width >= width + 16, frame.height >= height + 16 else { return }
        let x = frame.x + 8
        let y = frame.maxY - 8 - height
        context.roundedRectangle(x: x, y: y, width: width, height: height, radius: height / 2)
        context.setColor(RGBA(red: 0, green: 0, blue: 0, alpha: 0.62 * alpha))
        context.fillPreserve()
        context.setColor(RGBA(red: 1, green: 1, blue: 1, alpha: 0.35 * alpha))
        context.setLineWidth(1)
        context.stroke()
        context.moveTo(x: x + 10, y: y + 4.5)
        context.lineTo(x: x + 18, y: y + height / 2)
        context.lineTo(x: x + 10, y: y + height - 4.5)
        context.setColor(RGBA(red: 1, green: 1, blue: 1, alpha: alpha))
        context.fill()
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
