import GalleryCore
import GtkKit

/// One gallery in the sidebar: its name (an entry while renaming) and how many images it holds; or a smart
/// gallery, with its icon and how many images its search finds now. A row makes its entry when it is first renamed:
/// a library of hundreds of galleries would otherwise build and measure hundreds of entries no one uses.
@MainActor
final class SidebarRow {
    let galleryID: String
    let isSmart: Bool
    let row = ListBoxRow()
    private let name = Label()
    private let count = Label()
    /// Kept once made: the few rows a user renames in a session keep theirs, and none is lent across rows.
    private var entry: Entry?
    private let stack = Stack()
    private weak var sidebar: Sidebar?
    private(set) var isRenaming = false
    /// The entry's width in characters (the sidebar's entry ruler is as wide).
    static let entryWidthChars = 8

    init(galleryID: String, isSmart: Bool, sidebar: Sidebar) {
        self.galleryID = galleryID
        self.isSmart = isSmart
        self.sidebar = sidebar
        let content = Box(.horizontal, spacing: 8)
        content.addStyleClass("sidebar-row")
        if isSmart { content.append(Image(iconName: "folder-saved-search-symbolic", pixelSize: 16)) }
        name.ellipsize()
        name.setXAlign(0)
        count.addStyleClass("dim-label")
        count.addStyleClass("numeric")
        stack.addNamed(name, "name")
        stack.setExpand(horizontal: true, vertical: false)
        // The row is dragged from the stack's window, which takes the button's events only if asked to (a hidden
        // entry in it once asked for them).
        stack.enableButtonEvents()
        content.append(stack, expand: true)
        content.append(count)
        row.setChild(content)
        row.showAll()
        stack.visibleChildName = "name"
        row.makeDragSource(targets: TargetList([(GalleryDragTarget.galleryRow, true)]), actions: [.move])
        row.onDragBegin { [weak self] context in
            guard let self, let surface = row.snapshotSurface() else { return }
            context.setIcon(surface, hotX: 24, hotY: Double(row.allocatedHeight) / 2)
        }
        row.onDragDataGet { [galleryID] _, data in
            data.set(Array(galleryID.utf8), as: GalleryDragTarget.galleryRow)
        }
    }

    func update(from library: GalleryLibrary, search: LibrarySearch) {
        if isSmart {
            guard let smart = library.smartGallery(galleryID) else { return }
            show(name: smart.name, images: search.smartCounts[galleryID])
            return
        }
        guard let gallery = library.gallery(galleryID) else { return }
        show(name: gallery.name, images: library.imageCount(of: galleryID))
    }

    /// A smart gallery's count is unknown (empty) until its search first ran.
    private func show(name title: String, images: Int?) {
        name.text = title
        count.text = images.map(Localization.number) ?? ""
        // A long name is cut short in the row: the tooltip tells it whole.
        row.tooltip = title.count > 24 ? title : nil
        // Screen readers read the name first: "Cats, 12 images"; a saved search says it is one.
        row.accessibleName =
            switch (isSmart, images) {
            case (false, let images?):
                trPlural("{name}, {count} image", "{name}, {count} images", images, ["name": title])
            case (false, nil): title
            case (true, let images?):
                trPlural(
                    "{name}, saved search, {count} image", "{name}, saved search, {count} images", images,
                    ["name": title])
            case (true, nil): tr("{name}, saved search", ["name": title])
            }
    }

    /// Keeps the name's place as large as the entry will be, before it is made: at a large font the entry is the
    /// row's tallest part and the sidebar's narrowest width (elsewhere the row's minimum height in style.css is).
    func keepSize(ofEntry size: (width: Int, height: Int)) {
        stack.setSizeRequest(width: Int32(size.width), height: Int32(size.height))
    }

    func beginRename() {
        guard !isRenaming else { return }
        isRenaming = true
        let entry = self.entry ?? makeEntry()
        entry.text = name.text
        stack.visibleChildName = "entry"
        entry.grabFocus()
        entry.selectAll()
    }

    func endRename(commit: Bool) {
        guard isRenaming else { return }
        isRenaming = false
        let text = entry?.text ?? name.text
        stack.visibleChildName = "name"
        if commit { sidebar?.commitRename(galleryID, to: text) }
        row.grabFocus()
    }

    /// The stack stays homogeneous: as large as the entry once it is made, as it was before (`keepSize`).
    private func makeEntry() -> Entry {
        let entry = Entry()
        entry.accessibleName = isSmart ? tr("Saved search name") : tr("Gallery name")
        entry.widthChars = Self.entryWidthChars
        entry.onActivate { [weak self] in self?.endRename(commit: true) }
        entry.onFocusOut { [weak self] in self?.endRename(commit: true) }
        entry.onKeyPress { [weak self] key in
            guard key.keyName == "Escape" else { return false }
            self?.endRename(commit: false)
            return true
        }
        stack.addNamed(entry, "entry")
        entry.showAll()
        self.entry = entry
        return entry
    }
}
