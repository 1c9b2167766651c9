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

    /// What browsers and file managers hand over that may hold an image.
    static let externalTargets = [
        "text/uri-list", "text/x-moz-url", "_NETSCAPE_URL", "text/html", "text/plain;charset=utf-8", "UTF8_STRING",
        "text/plain", "STRING", "image/png", "image/jpeg", "image/gif", "image/webp", "image/avif", "image/bmp",
        "image/svg+xml", "application/octet-stream",
    ]

    /// What the gallery accepts: the app's cells, and everything browsers and file managers hand over.
    @MainActor static let destinationTargets = TargetList([(cells, true)] + externalTargets.map { ($0, false) })

    /// What a sidebar row accepts: cells, another row, and images from other applications.
    @MainActor static let sidebarTargets = TargetList(
        [(cells, true), (galleryRow, true)] + externalTargets.map { ($0, false) })
}
