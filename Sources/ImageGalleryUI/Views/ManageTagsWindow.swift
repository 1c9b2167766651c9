import Foundation
import GalleryCore
import GtkKit

/// Every tag in use with how many images carry it (the main menu's Manage Tags): each name is an
/// entry, renamed in place with Enter, on every image at once with the tags nested in it. Renaming
/// onto a tag in use asks first whether to merge the two. Each rename is one undo step. A find entry
/// narrows the list, which shows the first 200 (`TagListPane`): ten thousand tags stay quick to open.
@MainActor
final class ManageTagsWindow {
    let window: DialogWindow
    private let library: GalleryLibrary
    private let pane = TagListPane(emptyText: tr("No image has a tag yet"))
    private let find = Entry()
    private var entries: [String: Entry] = [:]
    private var question: MessageDialog?
    private var observation: Observation?
    /// The window is gone.
    var onClosed: () -> Void = {}

    init(library: GalleryLibrary, parent: ApplicationWindow) {
        self.library = library
        window = DialogWindow(title: tr("Manage Tags"), parent: parent)
        window.setDefaultSize(width: 460, height: 480)
        let hint = Label(tr("Rename a tag and press Enter: every image with it changes."))
        hint.wrapSelectableText()
        hint.canFocus = false
        hint.addStyleClass("dim-label")
        find.accessibleName = tr("Find a tag")
        find.placeholderText = tr("Find a tag")
        find.onChanged { [weak self] in self?.refresh() }
        let content = Box(.vertical, spacing: 12)
        content.addStyleClass("properties")
        content.append(hint)
        content.append(find)
        content.append(pane.scroll, expand: true)
        content.append(pane.more)
        window.add(content)
        window.onDestroy { [weak self] in
            self?.observation = nil
            self?.question?.destroy()
            self?.onClosed()
        }
        observation = library.observe { [weak self] change in
            // What images are made of (a likeness, an animation) changes no tag.
            guard case .cells = change, self?.library.onlyRecordsChanged == false else { return }
            self?.refresh()
        }
        refresh()
    }

    func present() {
        window.showAll()
        refresh()
        window.present()
    }

    private func refresh(focusing focused: String? = nil) {
        entries = [:]
        let all = library.tagsInUse()
        let wanted = TagName.key(find.text.trimmingCharacters(in: .whitespaces))
        let tags = wanted.isEmpty ? all : all.filter { TagName.key($0.name).contains(wanted) }
        pane.show(
            tags, isEmpty: all.isEmpty,
            moreText: { trPlural("{count} more tag: type to find it", "{count} more tags: type to find them", $0) },
            row: row)
        if let focused { focusRow(focused) }
    }

    private func focusRow(_ name: String) {
        entries[TagName.key(name)]?.grabFocus()
    }

    private func row(_ tag: TagUse) -> Widget {
        let name = Entry()
        name.text = tag.name
        name.accessibleName = tag.name
        let count = trPlural("{count} image", "{count} images", tag.count)
        name.accessibleDescription = count
        name.onActivate { [weak self, weak name] in
            guard let self, let name else { return }
            rename(tag.name, to: name.text)
        }
        let images = Label(count)
        images.addStyleClass("dim-label")
        let row = Box(.horizontal, spacing: 12)
        row.append(name, expand: true)
        row.append(images)
        entries[TagName.key(tag.name)] = name
        return row
    }

    /// Renames at once, or asks first when `new` is another tag in use.
    private func rename(_ old: String, to typed: String) {
        guard let new = TagName.clean(typed), new != old else {
            refresh(focusing: old)
            return
        }
        guard !TagName.same(old, new), library.isTagInUse(new) else {
            // A rename rebuilds the list as the library publishes it; only the focus is left to place.
            if library.renameTag(old, to: new) { focusRow(new) } else { refresh(focusing: old) }
            return
        }
        let question = MessageDialog(
            over: window, kind: .warning, primary: tr("Merge “{tag}” into “{other}”?", ["tag": old, "other": new]),
            secondary: tr("Every image tagged “{tag}” will be tagged “{other}” instead.", ["tag": old, "other": new]))
        question.addButton(tr("_Cancel"), response: Response.cancel)
        question.addButton(tr("_Merge"), response: Response.merge)
        question.setDefaultResponse(Response.merge)
        question.onResponse { [weak self] response in
            guard let self else { return }
            self.question?.destroy()
            self.question = nil
            if response == Response.merge, library.renameTag(old, to: new) {
                focusRow(new)
            } else {
                refresh(focusing: old)
            }
        }
        self.question = question
        question.present()
    }

    private enum Response {
        static let cancel: Int32 = -6
        static let merge: Int32 = 1
    }
}
