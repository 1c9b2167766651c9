import GalleryCore
import GtkKit

/// Shown over the empty gallery, GNOME status-page style. Pointer events pass through it, so the
/// gallery under it still takes drops.
@MainActor
final class EmptyState {
    let root = Box(.vertical)

    init() {
        root.addStyleClass("empty-state")
        root.setAlign(horizontal: .center, vertical: .center)
        let icon = Image(iconName: "insert-image-symbolic", pixelSize: 96)
        let title = Label(tr("No Images Yet"))
        title.addStyleClass("title")
        let description = Label(tr("Drag images here from your web browser, or paste an image address with Ctrl+V."))
        description.addStyleClass("description")
        description.setWrap(true, maxWidthChars: 40)
        root.append(icon)
        root.append(title)
        root.append(description)
        // The overlay passes pointer events through to the gallery (drops land there); a button
        // has an input window of its own, so it still takes clicks.
        let add = Button(label: tr("_Add Images…"))
        add.setAction("win.add-images")
        add.addStyleClass("suggested-action")
        add.addStyleClass("pill")
        add.setAlign(horizontal: .center, vertical: .center)
        root.append(add)
    }
}
