import GalleryCore
import GtkKit

/// The app's own drag of cells, whichever window it started in. Every canvas, sidebar row and
/// trash of the app asks it whether a drag is one of ours, so one path serves them all and drags
/// from other applications are still told apart.
@MainActor
final class CellDrags {
    struct Drag {
        /// The session of the window the cells come from (its gallery is their gallery).
        let session: GallerySession
        /// The dragged cells, in display order.
        let ids: [ImageID]
        /// The canvas that started the drag: destinations recognise the drag by it.
        let source: Widget
        /// The snapshot under the pointer, for the trash's flight.
        var icon: DragIcon?

        @MainActor var galleryID: String { session.galleryID }
    }

    private(set) var current: Drag?

    func begin(_ drag: Drag) { current = drag }

    func setIcon(_ icon: DragIcon) { current?.icon = icon }

    /// The drag ended (dropped, cancelled or failed), as its source saw it.
    func end(from source: Widget) {
        if current?.source.widget == source.widget { current = nil }
    }

    /// The app's cell drag `context` belongs to, or nil for any other drag.
    func drag(for context: DragContext) -> Drag? {
        guard let current, context.started(in: current.source) else { return nil }
        return current
    }

    /// Whether a drop copies: Ctrl held, so the source offers a copy and nothing else.
    static func isCopy(_ context: DragContext) -> Bool { !context.actions.contains(.move) }
}
