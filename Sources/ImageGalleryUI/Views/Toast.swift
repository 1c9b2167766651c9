import GLibKit
import GalleryCore
import GtkKit

/// An in-app notification at the bottom of the window with up to three actions (Undo; Show, Add Anyway; Show, Keep
/// Both, Keep Better).
@MainActor
final class Toast {
    let root = Revealer()
    private let label = Label()
    private let actionButton = Button(label: "")
    private let secondActionButton = Button(label: "")
    private let thirdActionButton = Button(label: "")
    private let closeButton = Button(iconName: "window-close-symbolic", tooltip: tr("Dismiss"))
    private var action: (@MainActor () -> Void)?
    private var secondAction: (@MainActor () -> Void)?
    private var thirdAction: (@MainActor () -> Void)?
    private var hideTimer: UInt32 = 0
    /// Whether what shows is a report of background work (`report`), which the next one replaces.
    private var showingReport = false
    /// A report that waits for the message showing to go.
    private var waitingReport: (message: String, seconds: UInt32?)?

    init() {
        root.setAlign(horizontal: .center, vertical: .end)
        let box = Box(.horizontal, spacing: 6)
        box.addStyleClass("toast")
        label.setWrap(true, maxWidthChars: 60)
        label.setXAlign(0)
        box.append(label, expand: true)
        box.append(actionButton)
        box.append(secondActionButton)
        box.append(thirdActionButton)
        box.append(closeButton)
        root.add(box)
        actionButton.onClicked { [weak self] in
            guard let self else { return }
            let action = action
            dismiss()
            action?()
        }
        secondActionButton.onClicked { [weak self] in
            guard let self else { return }
            let action = secondAction
            dismiss()
            action?()
        }
        thirdActionButton.onClicked { [weak self] in
            guard let self else { return }
            let action = thirdAction
            dismiss()
            action?()
        }
        closeButton.onClicked { [weak self] in self?.dismiss() }
    }

    /// Shows `message`; it hides after `seconds` (nil: stays until dismissed).
    func show(
        _ message: String, actionLabel: String? = nil, seconds: UInt32? = 6, action: (@MainActor () -> Void)? = nil,
        secondActionLabel: String? = nil, secondAction: (@MainActor () -> Void)? = nil,
        thirdActionLabel: String? = nil, thirdAction: (@MainActor () -> Void)? = nil
    ) {
        showingReport = false
        label.text = message
        self.action = action
        self.secondAction = secondAction
        self.thirdAction = thirdAction
        actionButton.label = actionLabel ?? ""
        secondActionButton.label = secondActionLabel ?? ""
        thirdActionButton.label = thirdActionLabel ?? ""
        MainContext.cancel(hideTimer)
        hideTimer = 0
        root.showAll()
        // After showAll, which would show it even without an action.
        actionButton.isVisible = actionLabel != nil
        secondActionButton.isVisible = secondActionLabel != nil
        thirdActionButton.isVisible = thirdActionLabel != nil
        root.revealed = true
        if let seconds {
            hideTimer = MainContext.after(milliseconds: seconds * 1000) { [weak self] in
                self?.hideTimer = 0
                self?.dismiss()
            }
        }
    }

    /// Shows a report of work going on in the background (the library's carry-over, another computer's
    /// edits): a message the user has not had the time to read (one that hides by itself, or offers an
    /// action) stays, and the report shows once it goes.
    func report(_ message: String, seconds: UInt32? = 6) {
        let userMessageShowing = root.revealed && !showingReport && (hideTimer != 0 || action != nil)
        guard !userMessageShowing else {
            waitingReport = (message, seconds)
            return
        }
        show(message, seconds: seconds)
        showingReport = true
    }

    func dismiss() {
        MainContext.cancel(hideTimer)
        hideTimer = 0
        root.revealed = false
        action = nil
        secondAction = nil
        thirdAction = nil
        if let (message, seconds) = waitingReport {
            waitingReport = nil
            report(message, seconds: seconds)
        }
    }
}
