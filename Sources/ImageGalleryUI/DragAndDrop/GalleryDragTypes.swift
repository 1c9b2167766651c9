import GalleryCore
import GtkKit

/// Target names the gallery's drags carry.
enum GalleryDragTarget {
    /// The ids of the dragged cells; offered only inside this application.
    static let cells = "application/x-image-gallery-cells"

    /// What a drag out of the gallery offers: the cells to ourselves, files and URLs to everyone else.
    @MainActor static let sourceTargets = TargetList([
        (cells, true),
        ("text/uri-list", false),
        ("text/x-moz-url", false),
        ("text/plain;charset=utf-8", false),
        ("UTF8_STRING", false),
        ("text/plain", false),
    ])

    /// What the gallery accepts: its own cells, and everything browsers and file managers hand over.
    @MainActor static let destinationTargets = TargetList([(cells, true)] + [
        "text/uri-list", "text/x-moz-url", "_NETSCAPE_URL", "text/html", "text/plain;charset=utf-8", "UTF8_STRING",
        "text/plain", "STRING", "image/png", "image/jpeg", "image/gif", "image/webp", "image/avif", "image/bmp",
        "image/svg+xml", "application/octet-stream",
    ].map { ($0, false) })
}

/// What the gallery's drag and drop keeps between GTK's drag events.
struct DragState {
    /// A press on a cell that becomes a drag once the pointer passes the threshold.
    var pendingPress: PendingPress?
    /// The container that takes drops for the gallery (see `installDragAndDrop`).
    var dropArea: Widget?
    /// The gallery's own drag in progress, if any.
    var reorderDrag: ReorderDrag?
    var autoscroll: Autoscroll?
    /// The snapshot shown under the pointer, kept to set it again when GTK starts the drag.
    var dragIcon: DragIcon?
    var lastPointerX = 0.0
    /// Drops from other applications whose data is still arriving.
    var pendingDrops: [PendingDrop] = []
    /// A drag left the gallery: the room it opened closes unless a drop follows at once.
    var leavePending = false
}

/// The gallery's own drag: which cells, in display order.
struct ReorderDrag {
    let ids: [ImageID]
}
