import GalleryCore
import GtkKit

/// The app's own drag of cells, whichever window it started in. Every canvas, sidebar row and
/// trash of the app asks it whether a drag is one of ours, so one path serves them all and drags
/// from other applications are still told apart.
@MainActor
final class CellDrags {
    struct Drag {
        /// The session of the window the cells come from.
        let session: GallerySession
        /// The gallery that holds the cells: the shown one, or among search results the grabbed cell's.
        let galleryID: String
        /// The dragged cells, in display order.
        let ids: [ImageID]
        /// The canvas that started the drag: destinations recognise the drag by it.
        let source: Widget
        /// The snapshot under the pointer, for the trash's flight.
        var icon: DragIcon?
        /// Whether the drag offers copy alone: it holds the user's own files (file://), which a file
        /// manager told "move" would take away from where the user keeps them.
        let copyOnly: Bool

        init(session: GallerySession, galleryID: String, ids: [ImageID], source: Widget, copyOnly: Bool) {
            self.session = session
            self.galleryID = galleryID
            self.ids = ids
            self.source = source
            self.copyOnly = copyOnly
        }

        /// What the drag offers other applications: copy alone for the user's own files, else move
        /// too (a browser's image only leaves the gallery when the gallery is the destination).
        var actions: DragActions { copyOnly ? [.copy] : [.move, .copy] }
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

    /// Whether a drop of the app's own cells copies: Ctrl held. GTK then offers a copy and nothing
    /// else; a drag that offers copy alone anyway asks the keyboard, so that between galleries it
    /// still moves.
    func isCopy(_ context: DragContext) -> Bool {
        guard let current, context.started(in: current.source), current.copyOnly else {
            return !context.actions.contains(.move)
        }
        return current.source.heldModifiers.contains(.control)
    }
}
