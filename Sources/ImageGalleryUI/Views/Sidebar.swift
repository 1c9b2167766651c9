import GLibKit
import GalleryCore
import GtkKit

/// The galleries beside the gallery a window shows, as GNOME Files or Notes list their places:
/// each row names a gallery and counts its images; selecting a row shows that gallery. Rows are
/// renamed in place, reordered by dragging, and take drops of cells and of images from other
/// applications (see SidebarDrops). Below the galleries, the smart galleries (saved searches) with their
/// live counts: choosing one shows its search.
@MainActor
final class Sidebar {
    let root = Box(.vertical)
    let list = ListBox()
    private let scroller = ScrolledWindow()
    private let session: GallerySession
    private let search: LibrarySearch
    private var library: GalleryLibrary { session.library }
    private var countsObservation: Observation?
    private(set) var rows: [SidebarRow] = []
    private var observation: Observation?
    private var isDetached = false
    /// The galleries changed while the sidebar was hidden: its rows are made again as it shows. A library of hundreds
    /// of galleries makes hundreds of rows, which a hidden sidebar does not need.
    private var rowsAreStale = false
    /// Selecting a row programmatically must not be taken for the user choosing a gallery.
    private var followingSession = false
    /// The gallery whose row is scrolled into view once the list is laid out again.
    private var rowToReveal: String?
    /// A row double-clicked: renamed once the button is released, after the list has focused the row.
    private var renameOnRelease: String?
    /// An entry styled as a row's, never shown: how tall a row's entry will be, which rows make only when renamed.
    private let entryRuler = Entry()

    /// The user asked to delete a gallery (Delete key on its row).
    var onDeleteRequested: (String) -> Void = { _ in }
    /// The user asked for a row's menu (right-click, Menu key, Shift+F10) at (x, y) of the list.
    var onMenuRequested: (_ galleryID: String, _ x: Double, _ y: Double) -> Void = { _, _, _ in }
    /// The user chose a smart gallery's row: the window shows its search.
    var onSmartGalleryChosen: (String) -> Void = { _ in }

    init(session: GallerySession, search: LibrarySearch) {
        self.session = session
        self.search = search
        root.addStyleClass("sidebar")
        list.accessibleName = tr("Galleries")
        list.addStyleClass("navigation-sidebar")
        scroller.add(list)
        scroller.setExpand(horizontal: false, vertical: true)
        root.append(scroller, expand: true)

        let bar = Box(.horizontal)
        bar.addStyleClass("sidebar-bar")
        let add = Button(iconName: "list-add-symbolic", tooltip: tr("New Gallery"))
        add.setAction("app.new-gallery")
        add.addStyleClass("flat")
        bar.append(add)
        root.append(bar)

        list.onRowSelected { [weak self] index in self?.rowSelected(index) }
        list.onButtonPress { [weak self] event in self?.buttonPressed(event) ?? false }
        list.onButtonRelease { [weak self] event in self?.buttonReleased(event) ?? false }
        list.onKeyPress { [weak self] key in self?.keyPressed(key) ?? false }
        list.onSizeAllocate { [weak self] _, _ in self?.revealPendingRow() }
        observation = library.observe { [weak self] change in self?.libraryChanged(change) }
        countsObservation = search.observeSmartCounts { [weak self] in
            guard let self, root.isVisible else { return }
            for row in rows where row.isSmart { row.update(from: library, search: search) }
        }
        let rulerRow = Box(.horizontal)
        rulerRow.addStyleClass("sidebar-row")
        entryRuler.widthChars = SidebarRow.entryWidthChars
        rulerRow.append(entryRuler)
        // Shown in a revealer never revealed: it takes no room, and it is restyled with the rest (a hidden widget
        // keeps the style it had), so that a font or theme chosen while the app runs measures it again.
        let rulerHolder = Revealer(transitionMilliseconds: 0)
        rulerHolder.revealed = false
        rulerHolder.add(rulerRow)
        root.append(rulerHolder)
        entryRuler.onStyleUpdated { [weak self] in self?.keepRowsSizedForTheEntry() }
        // Shown or hidden by the window alone: a window's `showAll` would realize every row of a hidden sidebar.
        root.showAll()
        root.isLeftOutOfShowAll = true
        root.isVisible = library.sidebarVisible
        rebuild()
    }

    /// The window is going: a rename queued for after a click must not touch its destroyed rows.
    func detach() {
        isDetached = true
        observation = nil
        countsObservation = nil
    }

    // MARK: Rows

    private func libraryChanged(_ change: GalleryLibrary.Change) {
        switch change {
        case .galleries: rebuild()
        case .cells(let galleryID):
            // Hidden, its counts wait for `setShown(true)`: each new count measures the window's widgets again.
            guard root.isVisible else { break }
            // Cells changed in place count as many images, unless placeholders took their images.
            guard library.cellsChangedInPlace == nil || library.imagesArrived != nil else { break }
            rows.first { $0.galleryID == galleryID }?.update(from: library, search: search)
        case .progress, .placeholdersDiscarded, .history: break
        }
    }

    /// Rows follow the library's galleries; the row being renamed survives a rebuild that keeps it.
    private func rebuild() {
        guard root.isVisible else {
            rowsAreStale = true
            return
        }
        rowsAreStale = false
        let ids = library.galleries.map(\.id) + library.smartGalleries.map(\.id)
        if rows.map(\.galleryID) != ids {
            for row in rows { list.remove(row.row) }
            rows =
                library.galleries.map { SidebarRow(galleryID: $0.id, isSmart: false, sidebar: self) }
                + library.smartGalleries.map { SidebarRow(galleryID: $0.id, isSmart: true, sidebar: self) }
            for row in rows { list.append(row.row) }
            keepRowsSizedForTheEntry()
        }
        for row in rows { row.update(from: library, search: search) }
        followShownGallery()
    }

    /// Each row keeps room for its name entry as tall as the font and theme make it now.
    private func keepRowsSizedForTheEntry() {
        let entrySize = entryRuler.naturalSize
        for row in rows { row.keepSize(ofEntry: entrySize) }
    }

    /// Shows or hides the sidebar; shown, its rows are brought up to date (hidden, they are left as they were).
    func setShown(_ shown: Bool) {
        root.isVisible = shown
        guard shown else { return }
        if rowsAreStale {
            rebuild()
        } else {
            for row in rows { row.update(from: library, search: search) }
        }
    }

    /// Selects the row of the gallery the window shows.
    func followShownGallery() {
        // A smart gallery's row stays selected while its search shows.
        if session.isShowingResults, let selected = list.selectedIndex, rows.indices.contains(selected),
            rows[selected].isSmart
        {
            return
        }
        guard let index = rows.firstIndex(where: { $0.galleryID == session.galleryID }), list.selectedIndex != index
        else { return }
        followingSession = true
        list.select(index: index)
        followingSession = false
        reveal(rows[index].galleryID)
    }

    /// Scrolls the list to show a gallery's row, once it is laid out: a row just added (Ctrl+N)
    /// has no place yet, and the list scrolls only to follow the keyboard on its own.
    func reveal(_ galleryID: String) {
        rowToReveal = galleryID
        list.queueResize()
    }

    private func revealPendingRow() {
        guard let galleryID = rowToReveal, let row = row(of: galleryID)?.row,
            let origin = row.translate(x: 0, y: 0, to: list)
        else { return }
        rowToReveal = nil
        // With the rows' margins, so that the whole rounded highlight shows.
        scroller.reveal(top: origin.y - 6, bottom: origin.y + Double(row.allocatedHeight) + 6)
    }

    private func rowSelected(_ index: Int?) {
        guard !followingSession, let index, rows.indices.contains(index) else { return }
        if rows[index].isSmart {
            onSmartGalleryChosen(rows[index].galleryID)
        } else {
            session.show(rows[index].galleryID)
        }
    }

    /// The selected row's gallery or smart gallery (the shown gallery's, unless a smart gallery's search shows).
    var selectedRowID: String? {
        list.selectedIndex.flatMap { rows.indices.contains($0) ? rows[$0].galleryID : nil }
    }

    func row(of galleryID: String) -> SidebarRow? { rows.first { $0.galleryID == galleryID } }

    /// The gallery or smart gallery whose row lies at `y` of the list.
    func rowID(atY y: Double) -> String? {
        list.indexOfRow(atY: y).flatMap { rows.indices.contains($0) ? rows[$0].galleryID : nil }
    }

    /// Selects a smart gallery's row (its search shows), without choosing it again.
    func selectSmartGallery(_ id: String) {
        guard let index = rows.firstIndex(where: { $0.galleryID == id }), list.selectedIndex != index else { return }
        followingSession = true
        list.select(index: index)
        followingSession = false
        reveal(id)
    }

    func index(of galleryID: String) -> Int? { rows.firstIndex { $0.galleryID == galleryID } }

    // MARK: Renaming

    /// Puts the row's name in an entry, selected, ready to be typed over.
    func beginRename(_ galleryID: String) {
        guard let row = row(of: galleryID) else { return }
        for other in rows where other !== row { other.endRename(commit: true) }
        row.beginRename()
        reveal(galleryID)
    }

    func commitRename(_ galleryID: String, to name: String) {
        if library.smartGallery(galleryID) != nil {
            library.renameSmartGallery(galleryID, to: name)
        } else {
            library.renameGallery(galleryID, to: name)
        }
    }

    // MARK: Input

    private func buttonPressed(_ event: ButtonEvent) -> Bool {
        guard let galleryID = rowID(atY: event.y) else { return false }
        if event.button == 3 {
            onMenuRequested(galleryID, event.x, event.y)
            return true
        }
        if event.button == 1 && event.isDoubleClick {
            renameOnRelease = galleryID
            return true
        }
        return false
    }

    /// The list focuses the clicked row on release (its own handler runs after this one): renaming
    /// only after that keeps the entry's focus, which the entry would otherwise lose at once.
    private func buttonReleased(_ event: ButtonEvent) -> Bool {
        guard event.button == 1, let galleryID = renameOnRelease else { return false }
        renameOnRelease = nil
        MainContext.post { [weak self] in
            guard let self, !isDetached else { return }
            beginRename(galleryID)
        }
        return false
    }

    private func keyPressed(_ key: KeyEvent) -> Bool {
        guard let index = list.selectedIndex, rows.indices.contains(index), !rows[index].isRenaming else {
            return false
        }
        let galleryID = rows[index].galleryID
        switch key.keyName {
        case "Delete", "KP_Delete":
            onDeleteRequested(galleryID)
            return true
        case "Menu":
            openMenu(forRowAt: index)
            return true
        case "F10" where key.modifiers.contains(.shift):
            openMenu(forRowAt: index)
            return true
        default:
            return false
        }
    }

    private func openMenu(forRowAt index: Int) {
        let row = rows[index].row
        guard let origin = row.translate(x: 0, y: 0, to: list) else { return }
        onMenuRequested(
            rows[index].galleryID, origin.x + Double(row.allocatedWidth) / 2, origin.y + Double(row.allocatedHeight) / 2
        )
    }
}
