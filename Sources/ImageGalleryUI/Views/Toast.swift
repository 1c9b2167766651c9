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

/// An in-app notification at the bottom of the window with an optional action (Undo, Retry).
@MainActor
final class Toast {
    let root = Revealer()
    private let label = Label()
    private let actionButton = Button(label: "")
    private let closeButton = Button(iconName: "window-close-symbolic", tooltip: tr("Dismiss"))
    private var action: (@MainActor () -> Void)?
    private var hideTimer: UInt32 = 0

    init() {
        root.setAlign(horizontal: .center, vertical: .end)
        let box = Box(.horizontal, spacing: 6)
        box.addStyleClass("toast")
        label.setWrap(true, maxWidthChars: 60)
        label.setXAlign(0)
        box.append(label, expand: true)
        box.append(actionButton)
        box.append(closeButton)
        root.add(box)
        actionButton.onClicked { [weak self] in
            guard let self else { return }
            let action = action
            dismiss()
            action?()
        }
        closeButton.onClicked { [weak self] in self?.dismiss() }
    }

    /// Shows `message`; it hides after `seconds` (nil: stays until dismissed).
    func show(_ message: String, actionLabel: String? = nil, seconds: UInt32? = 6, action: (@MainActor () -> Void)? = nil) {
        label.text = message
        self.action = action
        actionButton.label = actionLabel ?? ""
        MainContext.cancel(hideTimer)
        hideTimer = 0
        root.showAll()
        // After showAll, which would show it even without an action.
        actionButton.isVisible = actionLabel != nil
        root.revealed = true
        if let seconds {
            hideTimer = MainContext.after(milliseconds: seconds * 1000) { [weak self] in
                self?.hideTimer = 0
                self?.dismiss()
            }
        }
    }

    func dismiss() {
        MainContext.cancel(hideTimer)
        hideTimer = 0
        root.revealed = false
        action = nil
    }
}
