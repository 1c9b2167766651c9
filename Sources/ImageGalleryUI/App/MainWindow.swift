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
    let flights = FlightLayer()
    private var trashTarget: TrashDropTarget?
    private let emptyState = EmptyState()
    private let undoAction: Action
    private let redoAction: Action
    private let undoButton = Button(iconName: "edit-undo-symbolic", tooltip: "Undo")
    private let redoButton = Button(iconName: "edit-redo-symbolic", tooltip: "Redo")

    private let downloader: DropDownloader
    /// The undo step the toast offers, while it shows.
    private var undoOffered: Int?

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
        let help = Builder(xml: HelpAndMenu.xml)
        header.packEnd(MenuButton(iconName: "open-menu-symbolic", tooltip: "Main Menu", menu: help, menuID: "primary-menu"))
        header.packEnd(zoom)
        window.setTitlebar(header)
        _ = application.addAction("shortcuts", accelerators: ["<Control>question"]) { [weak window] in
            guard let window else { return }
            // A new builder each time: the window is destroyed when closed.
            Builder(xml: HelpAndMenu.xml).presentShortcutsWindow("shortcuts", over: window)
        }
        _ = application.addAction("select-all") { [weak controller] in controller?.selectAll() }

        _ = application.addAction("paste", accelerators: ["<Control>v"]) { [weak self] in self?.paste() }
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
        // In the gallery area, so a toast never hides the trash zone below it.
        galleryArea.addOverlay(toast.root)
        galleryArea.setExpand(horizontal: true, vertical: true)
        gallery.installDragAndDrop(dropArea: galleryArea)

        let column = Box(.vertical)
        column.append(galleryArea, expand: true)
        column.append(trash.root)

        let content = Overlay()
        content.add(column)
        content.addOverlay(flights.area)
        content.setPassThrough(flights.area, true)
        window.add(content)
        trashTarget = TrashDropTarget(trash: trash, gallery: gallery)
        trashTarget?.onDrop = { [weak self] ids, icon, x, y in self?.trashDropped(ids, icon: icon, x: x, y: y) }

        gallery.onDeleteRequested = { [weak self] ids in self?.delete(ids) }
        gallery.onMoved = { [weak self] count in self?.offerUndo(count == 1 ? "Image moved" : "\(count) images moved") }
        gallery.onExternalDrop = { [weak self] images, placeholder in self?.startDownloads(images, placeholder: placeholder) }
        gallery.onDropRefused = { [weak self] message in self?.say(message) }
        downloader.onFailure = { [weak self] message in self?.say(message) }
        controller.onChange = { [weak self] change in
            guard let self else { return }
            gallery.modelChanged(change)
            if change == .cells {
                updateChrome()
                // The toast offers to undo one step: once that is no longer the latest, it goes.
                if let offered = undoOffered, offered != controller.history.latestSerial {
                    undoOffered = nil
                    toast.dismiss()
                }
            }
        }
        updateChrome()
        window.showAll()
        flights.area.isVisible = false
        updateChrome()
        gallery.canvas.grabFocus()
    }

    /// Tells the user something in the toast; `seconds: nil` keeps it until dismissed.
    func say(_ message: String, seconds: UInt32? = 6) {
        undoOffered = nil
        toast.show(message, seconds: seconds)
    }

    /// A toast that undoes the step just taken, and only that step.
    private func offerUndo(_ message: String) {
        guard let serial = controller.history.latestSerial else { return }
        undoOffered = serial
        toast.show(message, actionLabel: "_Undo") { [weak self] in
            guard let self, controller.history.latestSerial == serial else { return }
            undoOffered = nil
            controller.undo()
        }
    }

    /// Empty state and undo/redo availability follow the model.
    func updateChrome() {
        emptyState.root.isVisible = controller.cells.isEmpty
        undoAction.enabled = controller.history.canUndo
        redoAction.enabled = controller.history.canRedo
        undoButton.tooltip = controller.history.undoName.map { "Undo \($0)" } ?? "Undo"
        redoButton.tooltip = controller.history.redoName.map { "Redo \($0)" } ?? "Redo"
    }

    /// Delete key: each visible selected cell flies from its place into the trash.
    func delete(_ ids: [ImageID]) {
        for id in ids {
            guard let index = gallery.index(of: id) else { continue }
            let frame = gallery.displayedFrame(ofCellAt: index)
            guard frame.intersects(gallery.visibleRect),
                  let origin = gallery.canvas.translate(x: frame.x, y: frame.y, to: flights.area) else { continue }
            fly(id, from: LayoutRect(x: origin.x, y: origin.y, width: frame.width, height: frame.height))
        }
        remove(ids)
    }

    /// A drop on the trash: the dragged image flies from where it was released; with several,
    /// each follows a moment after the one before.
    private func trashDropped(_ ids: [ImageID], icon: DragIcon?, x: Double, y: Double) {
        if let pointer = trash.root.translate(x: x, y: y, to: flights.area) {
            let released = icon?.imageFrame(pointerX: pointer.x, pointerY: pointer.y)
                ?? LayoutRect(x: pointer.x - 40, y: pointer.y - 40, width: 80, height: 80)
            for (order, id) in ids.enumerated() {
                let ratio = gallery.index(of: id).map { controller.cells[$0].aspectRatio } ?? 1
                let height = released.height
                let width = min(height * ratio, released.width * 2)
                let start = LayoutRect(x: released.x + Double(order) * 6, y: released.y - Double(order) * 6,
                                       width: width, height: height)
                fly(id, from: start, delay: Double(order) * 0.05)
            }
        }
        remove(ids)
    }

    private func fly(_ id: ImageID, from start: LayoutRect, delay: Double = 0) {
        guard let target = trash.icon.translate(x: 0, y: 0, to: flights.area) else { return }
        let iconRect = LayoutRect(x: target.x, y: target.y, width: Double(trash.icon.allocatedWidth),
                                  height: Double(trash.icon.allocatedHeight))
        flights.launch(gallery.snapshot(of: id, width: start.width, height: start.height),
                       path: FlightPath(from: start, into: iconRect), delay: delay)
    }

    /// Removes images and offers Undo.
    private func remove(_ ids: [ImageID]) {
        let removed = controller.remove(Set(ids)).filter { !$0.isPlaceholder }
        guard !removed.isEmpty else { return }
        offerUndo(removed.count == 1 ? "Image moved to trash" : "\(removed.count) images moved to trash")
    }

    func present() { window.present() }

    /// Ctrl+V: an image, or an image address, from the clipboard lands at the end, as a drop there would.
    private func paste() {
        Clipboard.requestTargets { [weak self] offered in
            let wanted = DropPayload.targetsToRequest(offered: offered)
            guard !wanted.isEmpty else {
                self?.say("Nothing to paste: the clipboard holds no image or image address")
                return
            }
            var received: [String: [UInt8]] = [:]
            var remaining = wanted.count
            for target in wanted {
                Clipboard.requestContents(target) { [weak self] bytes in
                    if let bytes, !bytes.isEmpty { received[target] = bytes }
                    remaining -= 1
                    if remaining == 0 { self?.pasted(received) }
                }
            }
        }
    }

    private func pasted(_ received: [String: [UInt8]]) {
        let images = DropPayload.images(received: received)
        guard !images.isEmpty else {
            say("Nothing to paste: the clipboard holds no image or image address")
            return
        }
        let placeholder = controller.insertPlaceholder(at: controller.cells.count, label: "image")
        gallery.scrollToCell(at: controller.cells.count - 1)
        startDownloads(images, placeholder: placeholder)
    }

    private func startDownloads(_ images: [DroppedImage], placeholder: ImageID) {
        downloader.scaleFactor = gallery.canvas.scaleFactor
        downloader.start(images, placeholder: placeholder)
    }
}
