import GalleryCore

/// A press on a cell that may become a drag.
struct PendingPress {
    let id: ImageID
    /// Where the press was, in content coordinates.
    let x: Double
    let y: Double
    /// Clicking an already selected cell narrows the selection on release, unless it was dragged.
    let narrowOnRelease: Bool
    /// The second press of a double-click: released without dragging, the cell opens.
    var activatesOnRelease = false
}
