import GalleryCore
import GtkKit

/// Shown over the empty gallery, GNOME status-page style. Pointer events pass through it, so the
/// gallery under it still takes drops.
@MainActor
final class EmptyState {
    private let page = StatusPage(
        iconName: "insert-image-symbolic", title: tr("No Images Yet"),
        description: tr("Drag images here from your web browser, or paste an image address with Ctrl+V."))
    var root: Box { page.root }
    /// Move Library…, offered while the library holds no image at all (its first run): the moment to put it in
    /// a folder a sync tool shares, before anything is in it.
    private let chooseFolder = Button(label: tr("Keep the Library in Another _Folder…"))

    var offersLibraryFolder: Bool {
        get { chooseFolder.isVisible }
        set { chooseFolder.isVisible = newValue }
    }

    init() {
        // The overlay passes pointer events through to the gallery (drops land there); a button
        // has an input window of its own, so it still takes clicks.
        let add = Button(label: tr("_Add Images…"))
        add.setAction("win.add-images")
        add.addStyleClass("suggested-action")
        add.addStyleClass("pill")
        add.setAlign(horizontal: .center, vertical: .center)
        root.append(add)
        chooseFolder.setAction("app.move-library")
        chooseFolder.addStyleClass("flat")
        chooseFolder.setAlign(horizontal: .center, vertical: .center)
        root.append(chooseFolder)
    }
}
