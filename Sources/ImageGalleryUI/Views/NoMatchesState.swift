import GalleryCore
import GtkKit

/// Shown over the canvas when a search finds nothing, GNOME status-page style.
@MainActor
final class NoMatchesState {
    let root = Box(.vertical)

    init() {
        root.addStyleClass("empty-state")
        root.setAlign(horizontal: .center, vertical: .center)
        let icon = Image(iconName: "edit-find-symbolic", pixelSize: 96)
        let title = Label(tr("No Images Match"))
        title.addStyleClass("title")
        let description = Label(tr("Try other words, or fewer of them."))
        description.addStyleClass("description")
        description.setWrap(true, maxWidthChars: 40)
        root.append(icon)
        root.append(title)
        root.append(description)
    }
}
