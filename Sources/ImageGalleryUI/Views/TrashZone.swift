import GalleryCore
import GtkKit

/// The trash drop zone along the bottom of the window.
@MainActor
final class TrashZone {
    let root = Box(.horizontal, spacing: 10)
    let icon = Image(iconName: "user-trash-symbolic", pixelSize: 24)
    private let label = Label(tr("Drag here to delete"))

    init() {
        root.addStyleClass("trash-zone")
        // Translated, as GNOME apps name their widgets for screen readers in the user's language.
        root.accessibleName = tr("Trash")
        root.tooltip = tr("Drop images from the gallery here to delete them")
        let content = Box(.horizontal, spacing: 10)
        content.setAlign(horizontal: .center, vertical: .center)
        content.setExpand(horizontal: true, vertical: false)
        content.append(icon)
        content.append(label)
        root.append(content, expand: true)
    }

    var highlighted: Bool = false {
        didSet { root.setStyleClass("drop-target", highlighted) }
    }
}
