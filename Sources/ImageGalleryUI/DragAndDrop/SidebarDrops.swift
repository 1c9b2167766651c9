import GalleryCore
import GtkKit

/// Drops on the sidebar's rows: the app's cells move into that gallery (copied with Ctrl), a
/// dragged row takes that row's place, and images from other applications are added at the end
/// of that gallery. The row under the pointer is highlighted while the drop would do something.
@MainActor
final class SidebarDrops {
    private let sidebar: Sidebar
    private let session: GallerySession
    private let cellDrags: CellDrags
    private let externalDrops: ExternalDrops
    /// Cells moved or copied into another gallery: the window offers Undo.
    var onCellsDropped: (_ message: String) -> Void = { _ in }

    init(sidebar: Sidebar, session: GallerySession, cellDrags: CellDrags, externalDrops: ExternalDrops) {
        self.sidebar = sidebar
        self.session = session
        self.cellDrags = cellDrags
        self.externalDrops = externalDrops
        let list = sidebar.list
        list.makeDropDestination(targets: GalleryDragTarget.sidebarTargets, actions: [.copy, .move])
        list.onDragMotion { [weak self] context, _, y, time in
            guard let self else { return false }
            let (galleryID, action) = proposal(context, y: y)
            if let galleryID, !action.isEmpty, let index = sidebar.index(of: galleryID) {
                list.highlightRow(index: index)
            } else {
                list.unhighlightRow()
            }
            context.status(action, time: time)
            if !action.isEmpty { externalDrops.hovered(context, over: list, time: time) }
            return true
        }
        list.onDragLeave { [weak self] context, _ in
            list.unhighlightRow()
            self?.externalDrops.left(context)
        }
        list.onDragDrop { [weak self] context, _, y, time in
            guard let self else { return false }
            list.unhighlightRow()
            dropped(context, y: y, time: time)
            return true
        }
        list.onDragDataReceived { [weak self] context, _, _, data, time in
            guard let self else { return }
            if data.target == GalleryDragTarget.galleryRow {
                rowDataReceived(context, data: data, time: time)
            } else {
                externalDrops.received(context, data: data)
            }
        }
    }

    /// Which gallery a drop at `y` goes to and what it would do there; no action refuses it.
    private func proposal(_ context: DragContext, y: Double) -> (String?, DragActions) {
        guard let target = sidebar.rowID(atY: y) else { return (nil, []) }
        if session.library.smartGallery(target) != nil {
            // A smart gallery's row takes only another smart gallery's row: its images are found, not put there.
            let isRow = context.offeredTargets.contains(GalleryDragTarget.galleryRow) && context.startedInThisApp
            return isRow && cellDrags.drag(for: context) == nil ? (target, .move) : (nil, [])
        }
        if let cells = cellDrags.drag(for: context) {
            // Onto the gallery the cells are in: nothing would change.
            guard cells.galleryID != target else { return (target, []) }
            return (target, cellDrags.isCopy(context) ? .copy : .move)
        }
        if context.offeredTargets.contains(GalleryDragTarget.galleryRow) {
            return context.startedInThisApp ? (target, .move) : (nil, [])
        }
        return ExternalDrops.mayContainImage(context) ? (target, .copy) : (nil, [])
    }

    private func dropped(_ context: DragContext, y: Double, time: UInt32) {
        let (target, action) = proposal(context, y: y)
        guard let target, !action.isEmpty else {
            context.finish(success: false, time: time)
            return
        }
        let library = session.library
        if let cells = cellDrags.drag(for: context) {
            context.finish(success: true, time: time)
            let copy = cellDrags.isCopy(context)
            let arrived = library.transfer(cells.ids, from: cells.galleryID, to: target, copy: copy)
            guard !arrived.isEmpty, let name = library.gallery(target)?.name else { return }
            onCellsDropped(
                copy
                    ? trPlural(
                        "Image copied to “{gallery}”", "{count} images copied to “{gallery}”", arrived.count,
                        ["gallery": name])
                    : trPlural(
                        "Image moved to “{gallery}”", "{count} images moved to “{gallery}”", arrived.count,
                        ["gallery": name]))
        } else if context.offeredTargets.contains(GalleryDragTarget.galleryRow) {
            pendingRowTarget = target
            context.requestData(GalleryDragTarget.galleryRow, for: sidebar.list, time: time)
        } else {
            externalDrops.begin(context, at: sidebar.list, time: time) { label in
                library.insertPlaceholder(in: target, label: label)
            }
        }
    }

    /// Where a dragged row goes, while its data (its gallery's id) is on its way.
    private var pendingRowTarget: String?

    private func rowDataReceived(_ context: DragContext, data: SelectionData, time: UInt32) {
        defer { pendingRowTarget = nil }
        let library = session.library
        guard let target = pendingRowTarget, let bytes = data.bytes else {
            context.finish(success: false, time: time)
            return
        }
        let moved = String(decoding: bytes, as: UTF8.self)
        // Galleries among galleries, smart galleries among smart galleries.
        if let index = library.smartGalleries.firstIndex(where: { $0.id == target }) {
            context.finish(
                success: library.smartGallery(moved) != nil && library.moveSmartGallery(moved, to: index), time: time)
        } else if let index = library.galleryIndex(target), library.gallery(moved) != nil {
            context.finish(success: library.moveGallery(moved, to: index), time: time)
        } else {
            context.finish(success: false, time: time)
        }
    }
}
