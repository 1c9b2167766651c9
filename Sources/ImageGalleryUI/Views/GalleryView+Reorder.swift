import Foundation
import GLibKit
import GalleryCore
import GtkKit

/// Dragging cells: the drag source (snapshot image, dimmed cells), the drop destination (room
/// opening at the insertion point, edge autoscroll) and the move on drop.
extension GalleryView {
    /// The canvas is the drag source. Drops are taken by `area`, the container that holds the
    /// canvas and whatever lies over it (the empty state): GTK 3 looks for a drop site from the
    /// topmost widget under the pointer upwards, so the site must be above every overlay.
    func installDragAndDrop(dropArea area: Widget) {
        canvas.onDragBegin { [weak self] context in self?.dragBegan(context) }
        canvas.onDragDataGet { [weak self] _, data in self?.provideDragData(data) }
        canvas.onDragEnd { [weak self] _ in self?.dragEnded() }
        drag.dropArea = area
        area.makeDropDestination(targets: GalleryDragTarget.destinationTargets, actions: [.copy, .move])
        area.onDragMotion { [weak self] context, x, y, time in
            guard let self, let point = drag.dropArea?.translate(x: x, y: y, to: canvas) else { return false }
            return dragMoved(context, x: point.x, y: contentY(fromWidgetY: point.y), time: time)
        }
        area.onDragLeave { [weak self] context, _ in self?.dragLeft(context) }
        area.onDragDrop { [weak self] context, x, y, time in
            guard let self, let point = drag.dropArea?.translate(x: x, y: y, to: canvas) else { return false }
            return dropped(context, x: point.x, y: contentY(fromWidgetY: point.y), time: time)
        }
        area.onDragDataReceived { [weak self] context, _, _, data, _ in
            self?.externalDrops.received(context, data: data)
        }
    }

    // MARK: Source

    func beginReorderDrag(from press: PendingPress) {
        // Among search results, the grabbed image's gallery's: a drag takes images from one gallery.
        let galleryID = session.galleryID(of: press.id)
        let ids = session.ordered(session.selection).filter { session.galleryID(of: $0) == galleryID }
        guard !ids.isEmpty else { return }
        let ownFiles = ids.contains { id in
            index(of: id).flatMap { shownCells[$0].image }.map { $0.url.lowercased().hasPrefix("file:") } ?? false
        }
        let drag = CellDrags.Drag(session: session, galleryID: galleryID, ids: ids, source: canvas, copyOnly: ownFiles)
        cellDrags.begin(drag)
        guard
            let context = canvas.beginDrag(
                targets: GalleryDragTarget.sourceTargets, actions: drag.actions,
                x: press.x, y: widgetY(fromContentY: press.y))
        else {
            cellDrags.end(from: canvas)
            return
        }
        dimmed = Set(ids)
        setDragIcon(context, grabbedID: press.id, pointer: (press.x, press.y))
    }

    private func dragBegan(_ context: DragContext) {
        // GTK sets its default icon while starting the drag; replace it with the snapshot.
        guard let icon = ownDrag?.icon else { return }
        context.setIcon(icon.surface, hotX: icon.hotX, hotY: icon.hotY)
    }

    /// The drag image: a snapshot of the grabbed cell; several cells show as a stack with a count.
    private func setDragIcon(_ context: DragContext, grabbedID: ImageID, pointer: (x: Double, y: Double)) {
        guard let grabbedIndex = index(of: grabbedID) else { return }
        let frame = displayedFrame(ofCellAt: grabbedIndex)
        let count = ownDrag?.ids.count ?? 1
        // Big cells are shrunk so the drag image does not hide the drop point.
        let shrink = min(1, 220 / max(frame.width, frame.height))
        let width = frame.width * shrink
        let height = frame.height * shrink
        let stackOffset = count > 1 ? 8.0 : 0
        let composited = canvas.isComposited
        let margin = composited ? 12.0 : 0
        let surface = CairoSurface.render(
            width: width + stackOffset * 2 + margin * 2,
            height: height + stackOffset * 2 + margin * 2, scale: canvas.scaleFactor
        ) { cr in
            let palette = Palette(widget: canvas)
            if !composited {
                cr.setColor(palette.background)
                cr.paint()
            }
            let layers = min(count, 3)
            for layer in stride(from: layers - 1, through: 1, by: -1) {
                let offset = Double(layer) * stackOffset / 2
                cr.roundedRectangle(
                    x: margin + stackOffset - offset + offset * 2, y: margin + stackOffset - offset * 2 + offset,
                    width: width, height: height, radius: Self.cornerRadius)
                cr.setColor(palette.background)
                cr.fillPreserve()
                cr.setColor(palette.foreground.withAlpha(0.35))
                cr.setLineWidth(1)
                cr.stroke()
            }
            let x = margin
            let y = margin + stackOffset * 2
            cr.save()
            cr.roundedRectangle(x: x, y: y, width: width, height: height, radius: Self.cornerRadius)
            cr.clip()
            if case .ready(let image) = loader.peekState(of: grabbedID) {
                cr.draw(image, x: x, y: y, width: width, height: height, alpha: 0.92)
            } else {
                cr.setColor(palette.tile)
                cr.paint()
            }
            cr.restore()
            if count > 1 {
                let badgeX = x + width - 2
                let badgeY = y + 2
                cr.arc(x: badgeX, y: badgeY, radius: 12, from: 0, to: 2 * Double.pi)
                cr.setColor(palette.accent)
                cr.fill()
                cr.drawText(
                    Localization.number(count), widget: canvas, centerX: badgeX, centerY: badgeY, maxWidth: 24,
                    color: RGBA(red: 1, green: 1, blue: 1))
            }
        }
        let icon = DragIcon(
            surface: surface,
            hotX: margin + (pointer.x - frame.x) * shrink,
            hotY: margin + stackOffset * 2 + (pointer.y - frame.y) * shrink,
            imageRect: LayoutRect(x: margin, y: margin + stackOffset * 2, width: width, height: height))
        cellDrags.setIcon(icon)
        context.setIcon(surface, hotX: icon.hotX, hotY: icon.hotY)
    }

    /// What a drop target gets: our own cells; local files for file managers and chat apps
    /// (text/uri-list); the web addresses for browsers (text/x-moz-url) and text fields.
    private func provideDragData(_ data: SelectionData) {
        guard let ownDrag else { return }
        let images = ownDrag.ids.compactMap { id in index(of: id).flatMap { shownCells[$0].image } }
        switch data.target {
        case GalleryDragTarget.cells:
            data.set(Array(ownDrag.ids.map(\.rawValue).joined(separator: "\n").utf8), as: GalleryDragTarget.cells)
        case "text/uri-list":
            // A cell that could not be loaded, or bytes that are no image, never leave as a file; a web image
            // not at hand yet leaves as its address, which the file manager downloads.
            data.setURIs(
                images.filter { loader.mayOfferAsFile($0.id) }.compactMap { image in
                    loader.bytesSource.shareableFile(for: image)?.absoluteString
                        ?? (ImageActions.isWebAddress(image.url) ? image.url : nil)
                })
        case "text/x-moz-url":
            // UTF-16, a URL line and a title line per image, as browsers expect.
            let text = images.map { "\($0.url)\n\($0.label)" }.joined(separator: "\n")
            data.set(text.utf16.flatMap { [UInt8($0 & 0xff), UInt8($0 >> 8)] }, as: "text/x-moz-url")
        default:
            data.setText(images.map(\.url).joined(separator: "\n"))
        }
    }

    /// The drag is over: dropped, cancelled, or failed. Anything not moved returns to its place.
    private func dragEnded() {
        cellDrags.end(from: canvas)
        dimmed = []
        gap = nil
        stopAutoscroll()
    }

    // MARK: Destination

    /// The cell drag this canvas started, while it lasts.
    var ownDrag: CellDrags.Drag? {
        guard let current = cellDrags.current, current.source.widget == canvas.widget else { return nil }
        return current
    }

    private func dragMoved(_ context: DragContext, x: Double, y: Double, time: UInt32) -> Bool {
        drag.leavePending = false
        drag.lastPointerX = x
        if session.isShowingResults {
            // Results keep their galleries' order and have no place to land in: a drop goes on a gallery's row.
            gap = nil
            context.status([], time: time)
        } else if let cells = cellDrags.drag(for: context) {
            let cellsHere = cells.galleryID == session.galleryID
            let first = cells.ids.first.flatMap { id in session.library.cells(of: cells.galleryID).first { $0.id == id }
            }
            // Room enough to see where it lands, narrow enough not to reflow the whole gallery.
            openRoom(atX: x, y: y, aspectRatio: min(max(first?.aspectRatio ?? 1, 0.5), 1))
            context.status(!cellsHere && cellDrags.isCopy(context) ? .copy : .move, time: time)
        } else if context.startedInThisApp {
            // Another part of this app (a sidebar row): not a drop for the gallery.
            gap = nil
            context.status([], time: time)
        } else if ExternalDrops.mayContainImage(context), let dropArea = drag.dropArea {
            openRoom(atX: x, y: y, aspectRatio: 1)
            context.status(.copy, time: time)
            externalDrops.hovered(context, over: dropArea, time: time)
        } else {
            gap = nil
            context.status([], time: time)
        }
        updateAutoscroll(pointerY: y)
        return true
    }

    private func dragLeft(_ context: DragContext) {
        externalDrops.left(context)
        // GTK sends drag-leave just before drag-drop too; close the room only if no drop follows.
        drag.leavePending = true
        stopAutoscroll()
        MainContext.post { [weak self] in
            guard let self, drag.leavePending else { return }
            drag.leavePending = false
            gap = nil
        }
    }

    private func dropped(_ context: DragContext, x: Double, y: Double, time: UInt32) -> Bool {
        drag.leavePending = false
        stopAutoscroll()
        guard !session.isShowingResults else {
            context.finish(success: false, time: time)
            return true
        }
        let insertion = gap?.index ?? insertionIndex(atX: x, y: y)
        if let cells = cellDrags.drag(for: context) {
            gap = nil
            dimmed = []
            context.finish(success: true, time: time)
            dropCells(cells, atInsertionIndex: insertion, copy: cellDrags.isCopy(context))
            return true
        }
        gap = nil
        guard ExternalDrops.mayContainImage(context), let dropArea = drag.dropArea else {
            context.finish(success: false, time: time)
            return true
        }
        externalDrops.begin(context, at: dropArea, time: time) { [session] label in
            session.insertPlaceholder(at: insertion, label: label)
        }
        return true
    }

    /// The app's own cells dropped at `insertion`: a reorder when they are this gallery's (from
    /// this window or another showing it), else a move or copy from their gallery.
    private func dropCells(_ cells: CellDrags.Drag, atInsertionIndex insertion: Int, copy: Bool) {
        let laidOut = shownCells
        if cells.galleryID == session.galleryID {
            let moving = Set(cells.ids)
            let target = laidOut[..<min(insertion, laidOut.count)].filter { !moving.contains($0.id) }.count
            if session.move(cells.ids, toInsertionIndex: target) {
                onDropped(trPlural("Image moved", "{count} images moved", cells.ids.count))
            }
            return
        }
        let arrived = session.library.transfer(
            cells.ids, from: cells.galleryID, to: session.galleryID,
            atInsertionIndex: min(insertion, laidOut.count), copy: copy)
        guard !arrived.isEmpty else { return }
        session.select(arrived)
        let from = session.library.gallery(cells.galleryID)?.name ?? ""
        onDropped(
            copy
                ? trPlural(
                    "Image copied from “{gallery}”", "{count} images copied from “{gallery}”", arrived.count,
                    ["gallery": from])
                : trPlural(
                    "Image moved from “{gallery}”", "{count} images moved from “{gallery}”", arrived.count,
                    ["gallery": from]))
    }

    // MARK: Room at the insertion point

    /// Opens room where a drop at (x, y) would land.
    private func openRoom(atX x: Double, y: Double, aspectRatio: Double) {
        let index = insertionIndex(atX: x, y: y)
        if gap?.index != index || gap?.aspectRatio != aspectRatio { gap = (index, aspectRatio) }
    }

    /// The insertion index (in the full list of cells) for a pointer position, aimed at the
    /// cells as they rest (without the open room): over a cell, before or after it by halves;
    /// elsewhere, beside the nearest cell within a row's height; past the end, the end.
    func insertionIndex(atX x: Double, y: Double) -> Int {
        restingLayout.insertionIndex(x: x, y: y, radius: rowHeight)
    }

    // MARK: Autoscroll

    /// Near the top or bottom edge the view scrolls, faster the closer the pointer is.
    private func updateAutoscroll(pointerY: Double) {
        let edge = 64.0
        let visible = visibleRect
        let fromTop = pointerY - visible.y
        let fromBottom = visible.maxY - pointerY
        var speed = 0.0
        if fromTop < edge { speed = -pow((edge - max(fromTop, 0)) / edge, 2) * 1400 }
        if fromBottom < edge { speed = pow((edge - max(fromBottom, 0)) / edge, 2) * 1400 }
        guard speed != 0 else {
            stopAutoscroll()
            return
        }
        if drag.autoscroll == nil {
            drag.autoscroll = Autoscroll(pointerOffsetInView: fromTop, speed: speed)
            drag.autoscroll?.tick = canvas.addTickCallback { [weak self] now in self?.autoscrollStep(now) ?? false }
        } else {
            drag.autoscroll?.speed = speed
            drag.autoscroll?.pointerOffsetInView = fromTop
        }
    }

    private func autoscrollStep(_ now: Int) -> Bool {
        guard var state = drag.autoscroll else { return false }
        let elapsed = state.lastTime.map { Double(now - $0) / 1_000_000 } ?? 0
        state.lastTime = now
        state.startTime = state.startTime ?? now
        drag.autoscroll = state
        // Passing through the edge (on the way to the trash) does not scroll; resting there does.
        guard Double(now - state.startTime!) / 1_000_000 >= Autoscroll.dwell else { return true }
        let before = scroller.scrollOffset
        scroller.scrollOffset = before + state.speed * min(elapsed, 0.05)
        if scroller.scrollOffset != before, let gap {
            // The content moved under a still pointer: the room follows the pointer.
            let y = scroller.scrollOffset + state.pointerOffsetInView
            openRoom(atX: drag.lastPointerX, y: y, aspectRatio: gap.aspectRatio)
        }
        return true
    }

    func stopAutoscroll() {
        if let tick = drag.autoscroll?.tick { canvas.removeTickCallback(tick) }
        drag.autoscroll = nil
    }
}
