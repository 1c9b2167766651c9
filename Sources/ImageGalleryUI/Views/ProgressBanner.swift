import GLibKit
import GalleryCore
import GtkKit

/// A banner across the top of the gallery while a long task runs (an export, Check Library): what it does,
/// how far it got, and Cancel. It shows only when the task takes a moment, so a short one never flashes it.
@MainActor
final class ProgressBanner {
    let root = Revealer(slidesDown: true)
    private let title = Label()
    private let count = Label()
    private let progressBar = ProgressBar()
    private let cancelButton = Button(label: tr("_Cancel"))
    private var showTimer: UInt32 = 0

    var onCancel: () -> Void = {}

    /// `name` and `progressName` are what assistive technologies call the banner and its bar.
    init(name: String, progressName: String) {
        let box = Box(.horizontal, spacing: 12)
        box.addStyleClass("export-banner")
        let text = Box(.vertical, spacing: 6)
        title.setXAlign(0)
        count.setXAlign(0)
        count.addStyleClass("dim-label")
        let line = Box(.horizontal, spacing: 12)
        line.append(title, expand: true)
        line.append(count)
        text.append(line)
        text.append(progressBar)
        progressBar.accessibleName = progressName
        box.append(text, expand: true)
        cancelButton.setAlign(horizontal: .end, vertical: .center)
        box.append(cancelButton)
        root.add(box)
        root.accessibleName = name
        cancelButton.onClicked { [weak self] in self?.onCancel() }
    }

    /// A task began (`title` says what it does): the banner appears if it is still running in a moment.
    func begin(_ title: String, total: Int) {
        self.title.text = title
        update(done: 0, total: total)
        MainContext.cancel(showTimer)
        showTimer = MainContext.after(milliseconds: 300) { [weak self] in
            guard let self else { return }
            showTimer = 0
            root.showAll()
            root.revealed = true
        }
    }

    func update(done: Int, total: Int) {
        count.text = tr("{done} of {total}", ["done": Localization.number(done), "total": Localization.number(total)])
        progressBar.fraction = total > 0 ? Double(done) / Double(total) : 1
    }

    func end() {
        MainContext.cancel(showTimer)
        showTimer = 0
        root.revealed = false
    }
}
