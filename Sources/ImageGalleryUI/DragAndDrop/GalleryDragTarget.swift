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

    /// A gallery's row in the sidebar, dragged to reorder the galleries; only inside this application.
    static let galleryRow = "application/x-image-gallery-gallery"

    /// What other applications' drags may offer that the drop parser reads (`DropPayload.acceptedTargets`).
    private static let externalTargets = DropPayload.acceptedTargets.map { (name: $0, sameApp: false) }

    /// What the gallery accepts: the app's cells, and everything browsers and file managers hand over.
    @MainActor static let destinationTargets = TargetList([(cells, true)] + externalTargets)

    /// What a sidebar row accepts: cells, another row, and images from other applications.
    @MainActor static let sidebarTargets = TargetList([(cells, true), (galleryRow, true)] + externalTargets)
}
