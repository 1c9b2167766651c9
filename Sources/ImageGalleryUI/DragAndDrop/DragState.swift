import GalleryCore
import GtkKit

/// What the gallery's drag and drop keeps between GTK's drag events.
struct DragState {
    /// A press on a cell that becomes a drag once the pointer passes the threshold.
    var pendingPress: PendingPress?
    /// The container that takes drops for the gallery (see `installDragAndDrop`).
    var dropArea: Widget?
    var autoscroll: Autoscroll?
    var lastPointerX = 0.0
    /// A drag left the gallery: the room it opened closes unless a drop follows at once.
    var leavePending = false
}
