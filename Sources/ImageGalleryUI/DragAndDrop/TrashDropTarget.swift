import GalleryCore
import GtkKit

/// Makes a window's trash zone a drop target for the app's own cell drags, from any of its
/// windows: highlighted with a move cursor for them, refused ("not allowed") for drags from
/// other applications.
@MainActor
final class TrashDropTarget {
    private let trash: TrashZone
    private let cellDrags: CellDrags
    /// Deletes the dropped cells; (x, y) is where the dragged image was released, in the trash
    /// zone's coordinates.
    var onDrop: (_ drag: CellDrags.Drag, _ x: Double, _ y: Double) -> Void = { _, _, _ in }

    init(trash: TrashZone, cellDrags: CellDrags) {
        self.trash = trash
        self.cellDrags = cellDrags
        trash.root.makeDropDestination(targets: TargetList([(GalleryDragTarget.cells, true)]), actions: [.move])
        trash.root.onDragMotion { [weak self] context, _, _, time in
            guard let self else { return false }
            let accepted = self.cellDrags.drag(for: context) != nil
            self.trash.highlighted = accepted
            context.status(accepted ? .move : [], time: time)
            return true
        }
        trash.root.onDragLeave { [weak self] _, _ in self?.trash.highlighted = false }
        trash.root.onDragDrop { [weak self] context, x, y, time in
            guard let self else { return false }
            self.trash.highlighted = false
            guard let drag = self.cellDrags.drag(for: context) else {
                context.finish(success: false, time: time)
                return true
            }
            context.finish(success: true, time: time)
            self.onDrop(drag, x, y)
            return true
        }
    }
}
