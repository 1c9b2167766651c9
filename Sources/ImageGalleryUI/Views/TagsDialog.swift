import GalleryCore
import GtkKit

/// The tags of some images (Ctrl+T, the cell menu, the properties pane): an entry completing from
/// the tags in use, whose Enter adds what it holds to every image, and a row per tag the images
/// carry with Remove; a tag only some of them carry says on how many, with Add to All. Each change
/// is one undo step; the dialog follows the library, so an undo shows in it.
@MainActor
final class TagsDialog {
    let window: DialogWindow
    let imageIDs: [ImageID]
    private let library: GalleryLibrary
    private let entry = Entry()
    private let pane = TagListPane(emptyText: tr("No tags yet"))
    private var observation: Observation?
    /// The dialog is gone.
    var onClosed: () -> Void = {}

    init(imageIDs: [ImageID], library: GalleryLibrary, parent: ApplicationWindow) {
        self.imageIDs = imageIDs
        self.library = library
        window = DialogWindow(
            title: trPlural("Tags of {count} Image", "Tags of {count} Images", imageIDs.count), parent: parent)
        window.setDefaultSize(width: 460, height: 420)

        let entryLabel = Label(mnemonic: tr("_New tag"))
        entryLabel.setXAlign(0)
        entryLabel.addStyleClass("dim-label")
        entryLabel.setMnemonicWidget(entry)
        entry.accessibleName = tr("New tag")
        entry.accessibleDescription = tr("Enter adds it; a slash nests it in another tag")
        let add = Button(label: tr("_Add"))
        add.onClicked { [weak self] in self?.addTyped() }
        entry.onActivate { [weak self] in self?.addTyped() }
        let entryRow = Box(.horizontal, spacing: 6)
        entryRow.append(entry, expand: true)
        entryRow.append(add)

        let content = Box(.vertical, spacing: 6)
        content.addStyleClass("properties")
        content.append(entryLabel)
        content.append(entryRow)
        content.append(pane.scroll, expand: true)
        content.append(pane.more)
        window.add(content)

        window.onDestroy { [weak self] in
            self?.observation = nil
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
        entry.grabFocus()
    }

    /// The images still there; none left, the dialog goes.
    private var presentIDs: [ImageID] { library.imageIDs(among: imageIDs) }

    private func addTyped() {
        let text = entry.text
        guard TagName.clean(text) != nil else { return }
        library.addTags([text], to: imageIDs)
        entry.text = ""
    }

    private func refresh() {
        let ids = presentIDs
        guard !ids.isEmpty else {
            window.close()
            return
        }
        entry.setCompletions(library.tagsInUse().map(\.name))
        let tags = library.tags(of: ids)
        pane.show(
            tags, isEmpty: tags.isEmpty, moreText: { trPlural("and {count} more tag", "and {count} more tags", $0) },
            row: { row($0, of: ids.count) })
        window.accessibleDescription = trPlural("{count} tag", "{count} tags", tags.count)
    }

    private func row(_ tag: TagUse, of total: Int) -> Widget {
        let name = Label(tag.name)
        name.setXAlign(0)
        name.ellipsize()
        name.tooltip = tag.name
        let texts = Box(.vertical, spacing: 2)
        texts.setAlign(horizontal: .fill, vertical: .center)
        texts.append(name)
        let row = Box(.horizontal, spacing: 6)
        row.addStyleClass("tag-row")
        row.append(texts, expand: true)
        if tag.count < total {
            let some = Label(
                trPlural(
                    "on {count} of {total} image", "on {count} of {total} images", total,
                    ["count": Localization.number(tag.count), "total": Localization.number(total)]))
            some.setXAlign(0)
            some.ellipsize()
            some.addStyleClass("dim-label")
            texts.append(some)
            let all = Button(label: tr("Add to All"))
            all.accessibleName = tr("Add “{tag}” to all", ["tag": tag.name])
            all.setAlign(horizontal: .end, vertical: .center)
            all.onClicked { [weak self] in
                guard let self else { return }
                library.addTags([tag.name], to: imageIDs)
            }
            row.append(all)
            name.accessibleDescription = some.text
        }
        let remove = Button(iconName: "window-close-symbolic", tooltip: tr("Remove “{tag}”", ["tag": tag.name]))
        remove.setAlign(horizontal: .end, vertical: .center)
        remove.accessibleName = tr("Remove “{tag}”", ["tag": tag.name])
        remove.onClicked { [weak self] in
            guard let self else { return }
            library.removeTags([tag.name], from: imageIDs)
            entry.grabFocus()
        }
        row.append(remove)
        return row
    }
}
