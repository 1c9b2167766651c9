import GalleryCore
import GtkKit

/// Makes the trash zone a drop target for the gallery's own drags only: highlighted with a move
/// cursor for them, refused ("not allowed") for drags from other applications.
@MainActor
final class TrashDropTarget {
    private let trash: TrashZone
    private let gallery: GalleryView
    /// Deletes the dropped cells; `from` is where the dragged image was released, in the
    /// trash zone's coordinates.
    var onDrop: (_ ids: [ImageID], _ icon: DragIcon?, _ x: Double, _ y: Double) -> Void = { _, _, _, _ in }

    init(trash: TrashZone, gallery: GalleryView) {
        self.trash = trash
        self.gallery = gallery
        trash.root.makeDropDestination(targets: TargetList([(GalleryDragTarget.cells, true)]), actions: [.move])
        trash.root.onDragMotion { [weak self] context, _, _, time in
            guard let self else { return false }
            let accepted = self.gallery.isOwnDrag(context)
            self.trash.highlighted = accepted
            context.status(accepted ? .move : [], time: time)
            return true
        }
        trash.root.onDragLeave { [weak self] _, _ in self?.trash.highlighted = false }
        trash.root.onDragDrop { [weak self] context, x, y, time in
            guard let self else { return false }
            self.trash.highlighted = false
            guard self.gallery.isOwnDrag(context), let ownDrag = self.gallery.drag.reorderDrag else {
                context.finish(success: false, time: time)
                return true
            }
            let icon = self.gallery.drag.dragIcon
            context.finish(success: true, time: time)
            self.onDrop(ownDrag.ids, icon, x, y)
            return true
        }
    }
}
