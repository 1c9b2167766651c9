import Foundation
import GalleryCore
import GtkKit

/// The window: header bar, the gallery (or its empty state), the trash zone and the toast.
@MainActor
final class MainWindow {
    let window: ApplicationWindow
    let controller: GalleryController
    let gallery: GalleryView
    let trash = TrashZone()
    let toast = Toast()
    private let emptyState = EmptyState()
    private let undoAction: Action
    private let redoAction: Action
    private let undoButton = Button(iconName: "edit-undo-symbolic", tooltip: "Undo")
    private let redoButton = Button(iconName: "edit-redo-symbolic", tooltip: "Redo")

    private let downloader: DropDownloader

    init(application: Application, controller: GalleryController, loader: ImageLoader, importsDirectory: URL) {
        self.controller = controller
        window = ApplicationWindow(application: application, title: "Image Gallery")
        window.setDefaultSize(width: 1024, height: 760)
        window.setIconName(ImageGalleryApplication.id)
        gallery = GalleryView(controller: controller, loader: loader)
        downloader = DropDownloader(controller: controller, loader: loader, importsDirectory: importsDirectory)

        undoAction = application.addAction("undo", accelerators: ["<Control>z"]) { [weak controller] in controller?.undo() }
        redoAction = application.addAction("redo", accelerators: ["<Control><Shift>z", "<Control>y"]) { [weak controller] in
            controller?.redo()
        }

        let header = HeaderBar(title: "Image Gallery")
        undoButton.setAction("app.undo")
        redoButton.setAction("app.redo")
        let history = Box(.horizontal)
        history.addStyleClass("linked")
        history.append(undoButton)
        history.append(redoButton)
        header.packStart(history)
        let zoomIn = Button(iconName: "zoom-in-symbolic", tooltip: "Larger Images")
        let zoomOut = Button(iconName: "zoom-out-symbolic", tooltip: "Smaller Images")
        zoomIn.setAction("app.zoom-in")
        zoomOut.setAction("app.zoom-out")
        let zoom = Box(.horizontal)
        zoom.addStyleClass("linked")
        zoom.append(zoomOut)
        zoom.append(zoomIn)
        header.packEnd(zoom)
        window.setTitlebar(header)

        _ = application.addAction("zoom-in", accelerators: ["<Control>plus", "<Control>equal", "<Control>KP_Add"]) { [weak gallery] in
            gallery?.zoom(by: 1.2)
        }
        _ = application.addAction("zoom-out", accelerators: ["<Control>minus", "<Control>KP_Subtract"]) { [weak gallery] in
            gallery?.zoom(by: 1 / 1.2)
        }

        let galleryArea = Overlay()
        galleryArea.add(gallery.scroller)
        galleryArea.addOverlay(emptyState.root)
        galleryArea.setPassThrough(emptyState.root, true)
        galleryArea.setExpand(horizontal: true, vertical: true)

        let column = Box(.vertical)
        column.append(galleryArea, expand: true)
        column.append(trash.root)

        let content = Overlay()
        content.add(column)
        content.addOverlay(toast.root)
        window.add(content)

        gallery.onDeleteRequested = { [weak self] ids in self?.delete(ids) }
        gallery.onMoved = { [weak self] count in
            self?.toast.show(count == 1 ? "Image moved" : "\(count) images moved", actionLabel: "_Undo") { [weak controller] in
                controller?.undo()
            }
        }
        gallery.onExternalDrop = { [weak downloader] images, placeholder in downloader?.start(images, placeholder: placeholder) }
        gallery.onDropRefused = { [weak self] message in self?.toast.show(message) }
        downloader.onFailure = { [weak self] message in self?.toast.show(message) }
        controller.onChange = { [weak self] change in
            guard let self else { return }
            gallery.modelChanged(change)
            if change == .cells { updateChrome() }
        }
        updateChrome()
        window.showAll()
        updateChrome()
        gallery.canvas.grabFocus()
    }

    /// Empty state and undo/redo availability follow the model.
    func updateChrome() {
        emptyState.root.isVisible = controller.cells.isEmpty
        undoAction.enabled = controller.history.canUndo
        redoAction.enabled = controller.history.canRedo
        undoButton.tooltip = controller.history.undoName.map { "Undo \($0)" } ?? "Undo"
        redoButton.tooltip = controller.history.redoName.map { "Redo \($0)" } ?? "Redo"
    }

    /// Removes images (Delete key, trash drop) and offers Undo.
    func delete(_ ids: [ImageID]) {
        let removed = controller.remove(Set(ids)).filter { !$0.isPlaceholder }
        guard !removed.isEmpty else { return }
        let message = removed.count == 1 ? "Image moved to trash" : "\(removed.count) images moved to trash"
        toast.show(message, actionLabel: "_Undo") { [weak controller] in controller?.undo() }
    }

    func present() { window.present() }
}
