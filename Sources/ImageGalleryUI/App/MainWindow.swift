import Foundation
import GLibKit
import GalleryCore
import GtkKit

/// One window: the header bar, the galleries sidebar, the gallery it shows (or its empty state),
/// the trash zone and the toast. It holds its session; the document is the app's.
@MainActor
final class MainWindow {
    let window: ApplicationWindow
    let session: GallerySession
    let gallery: GalleryView
    let sidebar: Sidebar
    let trash = TrashZone()
    let toast = Toast()
    let flights = FlightLayer()
    let services: AppServices
    private var library: GalleryLibrary { services.library }
    private let header = HeaderBar(title: tr("Image Gallery"))
    private let paned = Paned(.horizontal)
    private let sidebarDrops: SidebarDrops
    /// Drops from other applications, on the gallery or on a sidebar row.
    private let externalDrops: ExternalDrops
    private var trashTarget: TrashDropTarget?
    private let emptyState = EmptyState()
    private let noMatches = StatusPage(
        iconName: "edit-find-symbolic", title: tr("No Images Match"),
        description: tr("Try other words, or fewer of them."))
    /// The search bar and its queries.
    private let search: WindowSearch
    private let undoButton = Button(iconName: "edit-undo-symbolic", tooltip: tr("Undo"))
    private let redoButton = Button(iconName: "edit-redo-symbolic", tooltip: tr("Redo"))
    private var sidebarAction: Action?
    private var deleteGalleryAction: Action?
    private var galleryMenu: Popover?
    /// The size the window has when not maximized: what a maximized window returns to next time.
    private var unmaximizedSize = (width: 1024, height: 760)
    private var imageActions: ImageActions?
    private var cellMenu: Popover?
    /// The properties of one image (Alt+Return), while open.
    private var properties: PropertiesWindow?
    /// The page picker open over this window, if any.
    var pagePicker: PagePicker?
    private let propertiesButton = Button(iconName: "document-properties-symbolic", tooltip: tr("Properties"))
    /// The viewer's More Like This.
    private let lookAlikesButton = Button(iconName: "edit-find-symbolic", tooltip: tr("More Like This"))
    // The image viewer: a page beside the gallery in the gallery area.
    private let viewer: ImageViewer
    private let galleryStack = Stack()
    private let backButton = Button(iconName: "go-previous-symbolic", tooltip: tr("Back to the Gallery"))
    private let sidebarButton = ToggleButton(iconName: "sidebar-show-symbolic", tooltip: tr("Show Galleries"))
    /// The gallery's own actions, off while the viewer shows (they would act on cells out of sight).
    private var galleryOnlyActions: [Action] = []
    private var isViewing: Bool { galleryStack.visibleChildName == Self.viewerPage }
    private static let viewerPage = "viewer"
    /// The header bar's title while the viewer shows: the image's name, and "3 of 48" under it.
    private let viewerHeading = Box(.vertical)
    private let viewerTitle = Label()
    private let viewerSubtitle = Label()
    private static let galleryPage = "gallery"
    /// The undo step the toast offers, while it shows.
    private var undoOffered: Int?
    /// Adding files and exporting (MainWindow+Files.swift).
    let exportBanner = ProgressBanner(name: tr("Export"), progressName: tr("Export progress"))
    /// Where Check Library's banner goes once a check is started from this window (it is made then, so a
    /// window that never checks has no second Cancel button).
    private let checkBannerPlace = Box(.vertical)
    private(set) lazy var checkBanner: ProgressBanner = {
        let banner = ProgressBanner(name: tr("Check Library"), progressName: tr("Library check progress"))
        checkBannerPlace.append(banner.root)
        return banner
    }()
    /// Move Library's banner, in the same place, made when a move starts from this window.
    private(set) lazy var moveBanner: ProgressBanner = {
        let banner = ProgressBanner(name: tr("Move Library"), progressName: tr("Library move progress"))
        checkBannerPlace.append(banner.root)
        return banner
    }()
    var exportJob: GalleryExporter.Job?
    /// The file chooser on screen: GTK keeps no reference to it.
    var fileChooser: FileChooser?

    /// The window is gone (closed, or the app quits).
    var onClosed: (MainWindow) -> Void = { _ in }
    /// The window became the active one.
    var onActivated: (MainWindow) -> Void = { _ in }
    /// This window's handlers of the table's `win.` actions, here and in ImageActions, WindowSearch and the files.
    let handlers = ActionHandlers(prefix: "win.")

    init(services: AppServices, galleryID: String?) {
        self.services = services
        session = GallerySession(library: services.library, galleryID: galleryID)
        window = ApplicationWindow(application: services.application, title: tr("Image Gallery"))
        let size = services.windowSizes.load()
        window.setIconName(ImageGalleryApplication.id)
        externalDrops = ExternalDrops(library: services.library, scheduler: services.loader.pipeline.scheduler)
        gallery = GalleryView(
            session: session, loader: services.loader, cellDrags: services.cellDrags,
            externalDrops: externalDrops)
        sidebar = Sidebar(session: session, search: services.search)
        sidebarDrops = SidebarDrops(
            sidebar: sidebar, session: session, cellDrags: services.cellDrags,
            externalDrops: externalDrops)
        viewer = ImageViewer(session: session, loader: services.loader)
        let loader = services.loader
        search = WindowSearch(
            window: window, handlers: handlers, session: session, search: services.search,
            failedImages: { loader.failedIDs })

        restoreSize(size)
        buildHeader()
        addActions()
        buildContent()
        connectGallery()
        connectSearch()
        connectViewer()
        connectDrops()
        connectSidebar()
        session.onChange = { [weak self] change in self?.sessionChanged(change) }
        followWindow()
        showContent()
    }

    /// The size the last window had, and the first screen of images laid out at its gallery's width.
    private func restoreSize(_ size: WindowSize) {
        window.setDefaultSize(width: Int32(size.width), height: Int32(size.height))
        if size.maximized { window.maximize() }
        unmaximizedSize = (size.width, size.height)
        if let width = size.galleryWidth, width > 0 {
            gallery.prefetchFirstScreen(width: Double(width), height: Double(size.height))
        }
    }

    /// The sidebar beside a column of the search bar, the banners, the gallery area and the trash zone; the
    /// flights to the trash over all of it.
    private func buildContent() {
        let galleryArea = makeGalleryArea()
        let column = Box(.vertical)
        column.append(search.bar)
        column.append(exportBanner.root)
        column.append(checkBannerPlace)
        column.append(galleryArea, expand: true)
        column.append(trash.root)

        sidebar.root.setSizeRequest(width: 200, height: -1)
        paned.pack1(sidebar.root, resize: false, shrink: false)
        paned.pack2(column, resize: true, shrink: false)
        paned.position = 240

        let content = Overlay()
        content.add(paned)
        content.addOverlay(flights.area)
        content.setPassThrough(flights.area, true)
        window.add(content)
    }

    /// The gallery and the viewer as pages of one stack, under the empty state, “No Images Match” and the toast.
    private func makeGalleryArea() -> Overlay {
        let galleryArea = Overlay()
        galleryStack.addNamed(gallery.scroller, Self.galleryPage)
        galleryStack.addNamed(viewer.area, Self.viewerPage)
        galleryArea.add(galleryStack)
        galleryArea.addOverlay(emptyState.root)
        galleryArea.setPassThrough(emptyState.root, true)
        galleryArea.addOverlay(noMatches.root)
        galleryArea.setPassThrough(noMatches.root, true)
        // In the gallery area, so a toast never hides the trash zone below it.
        galleryArea.addOverlay(toast.root)
        galleryArea.setExpand(horizontal: true, vertical: true)
        gallery.installDragAndDrop(dropArea: galleryArea)
        return galleryArea
    }

    private func connectGallery() {
        gallery.onDeleteRequested = { [weak self] ids in self?.delete(ids) }
        gallery.onOpenRequested = { [weak self] id in self?.window.activateAction("open-image", target: id.rawValue) }
    }

    /// Typing in the gallery opens the search bar; closing it gives the gallery the keyboard back.
    private func connectSearch() {
        gallery.onTyped = { [weak self] character in self?.search.open(typing: String(character)) }
        gallery.onEscapeFromResults = { [weak self] in self?.search.close() }
        search.onClosed = { [weak self] in
            guard let self else { return }
            sidebar.followShownGallery()
            if !isViewing { gallery.canvas.grabFocus() }
        }
        search.onSaved = { [weak self] id in
            guard let self else { return }
            if !sidebar.root.isVisible { setSidebarVisible(true) }
            sidebar.selectSmartGallery(id)
            offerUndo(tr("Search saved in the sidebar"))
        }
        sidebar.onSmartGalleryChosen = { [weak self] id in
            guard let self, let smart = library.smartGallery(id) else { return }
            if isViewing { closeViewer() }
            search.show(smart)
        }
    }

    private func connectViewer() {
        viewer.onClose = { [weak self] in self?.closeViewer() }
        viewer.onDelete = { [weak self] id in
            guard let self else { return }
            remove([id], from: session.galleryID(of: id))
        }
        viewer.onShownChanged = { [weak self] in self?.updateChrome() }
    }

    /// Drops on the trash, on the gallery and on the sidebar, from this app or another.
    private func connectDrops() {
        trashTarget = TrashDropTarget(trash: trash, cellDrags: services.cellDrags)
        trashTarget?.onDrop = { [weak self] drag, x, y in self?.trashDropped(drag, x: x, y: y) }
        gallery.onDropped = { [weak self] message in self?.offerUndo(message) }
        externalDrops.onImages = { [weak self] images, placeholder in
            self?.startDownloads(images, placeholder: placeholder, arrival: .drop)
        }
        externalDrops.onRefused = { [weak self] message in self?.say(message) }
        sidebarDrops.onCellsDropped = { [weak self] message in self?.offerUndo(message) }
    }

    private func connectSidebar() {
        sidebar.onDeleteRequested = { [weak self] galleryID in self?.deleteGallery(galleryID) }
        sidebar.onMenuRequested = { [weak self] galleryID, x, y in self?.showGalleryMenu(galleryID, x: x, y: y) }
    }

    /// The window becoming the active one, its size (kept for the next window) and its end.
    private func followWindow() {
        window.onActiveChanged { [weak self] active in
            guard let self, active else { return }
            onActivated(self)
        }
        window.onSizeAllocate { [weak self] _, _ in
            guard let self, !window.isMaximized else { return }
            unmaximizedSize = window.size
        }
        window.onDestroy { [weak self] in self?.closed() }
    }

    /// Shows the window without what waits for its moment: the flights' layer, the viewer's buttons, and the
    /// sidebar if the user hid it; the gallery has the keyboard.
    private func showContent() {
        window.showAll()
        flights.area.isVisible = false
        backButton.isVisible = false
        propertiesButton.isVisible = false
        updateChrome()
        gallery.canvas.grabFocus()
    }

    private func buildHeader() {
        backButton.onClicked { [weak self] in self?.closeViewer() }
        viewerHeading.setAlign(horizontal: .center, vertical: .center)
        viewerTitle.addStyleClass("title")
        viewerTitle.ellipsize()
        viewerSubtitle.addStyleClass("subtitle")
        viewerSubtitle.addStyleClass("dim-label")
        viewerHeading.append(viewerTitle)
        viewerHeading.append(viewerSubtitle)
        viewerHeading.showAll()
        header.packStart(backButton)
        sidebarButton.setAction("win.show-sidebar")
        header.packStart(sidebarButton)
        undoButton.setAction("app.undo")
        redoButton.setAction("app.redo")
        undoButton.provideTooltip { [weak self] in self?.undoButton.accessibleDescription }
        redoButton.provideTooltip { [weak self] in self?.redoButton.accessibleDescription }
        let history = Box(.horizontal)
        history.addStyleClass("linked")
        history.append(undoButton)
        history.append(redoButton)
        header.packStart(history)
        let zoomIn = Button(iconName: "zoom-in-symbolic", tooltip: tr("Larger Images"))
        let zoomOut = Button(iconName: "zoom-out-symbolic", tooltip: tr("Smaller Images"))
        zoomIn.setAction("win.zoom-in")
        zoomOut.setAction("win.zoom-out")
        let zoom = Box(.horizontal)
        zoom.addStyleClass("linked")
        zoom.append(zoomOut)
        zoom.append(zoomIn)
        header.packEnd(
            MenuButton(
                iconName: "open-menu-symbolic", tooltip: tr("Main Menu"), menu: PrimaryMenu.builder(),
                menuID: "primary-menu"))
        header.packEnd(search.button)
        header.packEnd(zoom)
        propertiesButton.setAction("win.properties")
        header.packEnd(propertiesButton)
        lookAlikesButton.onClicked { [weak self] in
            guard let self, let id = viewer.imageID else { return }
            showLookAlikes(of: id)
        }
        header.packEnd(lookAlikesButton)
        window.setTitlebar(header)
    }

    /// Actions that concern this window alone (`win.`); their keys are in `ActionTable`.
    private func addActions() {
        _ = window.addAction(handlers.named("shortcuts")) { [weak self] in
            guard let self else { return }
            // A new builder each time: the window is destroyed when closed.
            ShortcutsWindow.builder().presentShortcutsWindow("shortcuts", over: window)
        }
        _ = window.addAction(handlers.named("close")) { [weak self] in self?.window.close() }
        let selectAll = window.addAction(handlers.named("select-all")) { [weak self] in self?.session.selectAll() }
        let paste = window.addAction(handlers.named("paste")) { [weak self] in self?.paste() }
        _ = window.addAction(handlers.named("zoom-in")) { [weak self] in self?.zoom(by: 1.2) }
        _ = window.addAction(handlers.named("zoom-out")) { [weak self] in self?.zoom(by: 1 / 1.2) }
        let showSidebar = window.addToggleAction(handlers.named("show-sidebar"), state: library.sidebarVisible) {
            [weak self] visible in self?.setSidebarVisible(visible)
        }
        sidebarAction = showSidebar
        let rename = window.addAction(handlers.named("rename")) { [weak self] in self?.renameGallery(nil) }
        let find = window.addAction(handlers.named("find")) { [weak self] in self?.search.open() }
        galleryOnlyActions = [selectAll, paste, showSidebar, rename, find]
        _ = window.addAction(handlers.named("open-image"), parameter: String.self) { [weak self] id in
            self?.openImage(ImageID(id))
        }
        _ = window.addAction(handlers.named("more-like-this"), parameter: String.self) { [weak self] id in
            self?.showLookAlikes(of: ImageID(id))
        }
        _ = window.addAction(handlers.named("image-properties"), parameter: String.self) { [weak self] id in
            self?.showProperties(ImageID(id))
        }
        _ = window.addAction(handlers.named("properties")) { [weak self] in
            guard let self, let id = isViewing ? viewer.imageID : propertiesCandidate else { return }
            showProperties(id)
        }
        _ = window.addAction(handlers.named("rename-gallery"), parameter: String.self) { [weak self] id in
            self?.renameGallery(id)
        }
        deleteGalleryAction = window.addAction(handlers.named("delete-gallery"), parameter: String.self) {
            [weak self] id in self?.deleteGallery(id)
        }
        addFileActions()
        installImageActions()
        handlers.checkEveryActionHandled()
    }

    func present() { window.present() }

    // MARK: Properties

    /// The gallery's image Alt+Return is about: the focused one, else the first selected.
    private var propertiesCandidate: ImageID? {
        let images = session.cells.compactMap(\.image)
        if let focused = session.focusedID, images.contains(where: { $0.id == focused }) { return focused }
        return images.first { session.selection.contains($0.id) }?.id
    }

    /// One properties window per window: asking for another image's replaces it (its note saved).
    private func showProperties(_ id: ImageID) {
        if let properties, properties.imageID == id {
            properties.present()
            return
        }
        properties?.window.close()
        guard library.location(of: id) != nil else { return }
        let loader = services.loader
        let shown = PropertiesWindow(
            imageID: id, library: library, parent: window, pixelSize: { loader.originalSize(of: id) })
        shown.say = { [weak self] message in self?.say(message) }
        shown.editTags = { [weak self] id in self?.imageActions?.editTags([id]) }
        shown.keepCopy = { [weak self] id in self?.imageActions?.keepCopies([id]) }
        shown.findColour = { [weak self] colour in self?.find(colour) }
        shown.onClosed = { [weak self, weak shown] in
            if let self, self.properties === shown { self.properties = nil }
        }
        properties = shown
        shown.present()
    }

    /// The library's images of `colour`, as the search's results (a swatch of the properties was chosen).
    private func find(_ colour: SearchColour) {
        if isViewing { closeViewer() }
        var query = SearchQuery()
        query.colour = colour
        search.show(query)
        window.present()
    }

    // MARK: Viewing one image

    /// `win.open-image` (Enter, a double-click, the cell's menu): the image fills the gallery area;
    /// a cell that could not be loaded tries again instead.
    private func openImage(_ id: ImageID) {
        guard session.cells.contains(where: { $0.image?.id == id }), !gallery.retryIfFailed(id) else { return }
        if !isViewing {
            galleryStack.visibleChildName = Self.viewerPage
            // The image alone, as in Eye of GNOME: no sidebar, no trash zone; the toast still shows.
            sidebar.setShown(false)
            trash.root.isVisible = false
            emptyState.root.isVisible = false
            sidebarButton.isVisible = false
            backButton.isVisible = true
            propertiesButton.isVisible = true
            header.setCustomTitle(viewerHeading)
            search.bar.isVisible = false
            search.button.isVisible = false
            for action in galleryOnlyActions { action.enabled = false }
        }
        viewer.show(id)
        viewer.area.grabFocus()
        updateChrome()
    }

    /// More Like This, from the cell's menu or the viewer: the library's images that look like this one, in the
    /// results, with the gallery's keyboard.
    private func showLookAlikes(of id: ImageID) {
        guard let (galleryID, index) = library.location(of: id), let image = library.cells(of: galleryID)[index].image
        else { return }
        if isViewing { closeViewer() }
        search.showLookAlikes(of: id, named: image.label)
        gallery.canvas.grabFocus()
    }

    /// Shows an image of any gallery in the viewer (the overview's search chose it).
    func showImage(_ id: ImageID) {
        guard let (galleryID, _) = library.location(of: id) else { return }
        if search.isOpen { search.close() }
        if galleryID != session.galleryID {
            closeViewer()
            session.show(galleryID)
        }
        window.activateAction("open-image", target: id.rawValue)
        window.present()
    }

    /// Esc or Back: the gallery as it was, scrolled where it was, with the image just seen focused.
    private func closeViewer() {
        guard isViewing else { return }
        let shown = viewer.imageID
        viewer.close()
        galleryStack.visibleChildName = Self.galleryPage
        sidebar.setShown(library.sidebarVisible)
        trash.root.isVisible = true
        sidebarButton.isVisible = true
        backButton.isVisible = false
        propertiesButton.isVisible = false
        header.setCustomTitle(nil)
        search.bar.isVisible = true
        search.button.isVisible = true
        for action in galleryOnlyActions { action.enabled = true }
        if let shown, gallery.index(of: shown) != nil {
            session.select(shown, mode: .replace)
            gallery.setFocus(shown)
        }
        gallery.canvas.grabFocus()
        updateChrome()
    }

    /// Ctrl+plus, Ctrl+minus and the header bar's buttons: the viewer's image, else the gallery's cells.
    private func zoom(by factor: Double) {
        if isViewing { viewer.zoom(by: factor) } else { gallery.zoom(by: factor) }
    }

    // MARK: Following the session

    private func sessionChanged(_ change: GallerySession.Change) {
        gallery.sessionChanged(change)
        if isViewing {
            switch change {
            case .cells, .searchResults: viewer.cellsChanged()
            case .shownGallery: closeViewer()
            default: break
            }
        }
        switch change {
        case .cells, .history:
            updateChrome()
            // The toast offers to undo one step: once that is no longer the latest, it goes.
            if let offered = undoOffered, offered != library.history.latestSerial {
                undoOffered = nil
                toast.dismiss()
            }
        case .shownGallery:
            search.galleryShown()
            sidebar.followShownGallery()
            updateChrome()
            if window.isActive { library.noteShownGallery(session.galleryID) }
        case .galleries, .searchResults:
            updateChrome()
        case .selection, .progress:
            break
        }
        switch change {
        case .cells, .shownGallery, .selection, .searchResults: imageActions?.selectionChanged()
        case .galleries, .history, .progress: break
        }
    }

    /// Title, empty state and the actions' availability follow the document.
    func updateChrome() {
        let name = session.gallery.name
        lookAlikesButton.isVisible = isViewing && viewer.image?.likeness != nil
        if isViewing, let image = viewer.image, let position = viewer.position {
            viewerTitle.text = image.label
            // Translators: which image the viewer shows, in the header bar under its name.
            viewerSubtitle.text = tr(
                "{index} of {count}",
                [
                    "index": Localization.number(position.index),
                    "count": Localization.number(position.count),
                ])
            if let frames = viewer.animationFrameCount {
                // Translators: after "3 of 10" in the viewer's header bar, for an image that moves.
                viewerSubtitle.text +=
                    " · "
                    + trPlural(
                        "Animated · {count} frame", "Animated · {count} frames", frames,
                        ["count": Localization.number(frames)])
            }
        }
        // GTK shows the window's title in its header bar too.
        window.title = tr("{gallery} — Image Gallery", ["gallery": name])
        emptyState.root.isVisible = session.cells.isEmpty && !isViewing && !session.isShowingResults
        noMatches.root.isVisible = session.cells.isEmpty && !isViewing && session.isShowingResults
        if session.cells.isEmpty && !session.isShowingResults {
            emptyState.offersLibraryFolder = library.galleries.allSatisfy { library.imageCount(of: $0.id) == 0 }
        }
        let history = library.history
        // Told to assistive technologies now, and shown as the tooltip when asked for.
        undoButton.accessibleDescription = history.undoName.map { tr("Undo {step}", ["step": $0]) } ?? tr("Undo")
        redoButton.accessibleDescription = history.redoName.map { tr("Redo {step}", ["step": $0]) } ?? tr("Redo")
        deleteGalleryAction?.enabled = library.canDeleteGallery || !library.smartGalleries.isEmpty
    }

    private func setSidebarVisible(_ visible: Bool) {
        sidebar.setShown(visible)
        sidebarAction?.state = visible
        library.sidebarVisible = visible
        if !visible && sidebar.root.hasFocus { gallery.canvas.grabFocus() }
    }

    // MARK: Galleries

    /// Shows a new gallery with its name ready to be typed over (Ctrl+N, the sidebar's +).
    func showNewGallery(_ galleryID: String) {
        if !sidebar.root.isVisible { setSidebarVisible(true) }
        session.show(galleryID)
        sidebar.beginRename(galleryID)
    }

    /// F2, a double-click on a row, or the row's menu; nil renames the shown gallery.
    private func renameGallery(_ galleryID: String?) {
        if !sidebar.root.isVisible { setSidebarVisible(true) }
        sidebar.beginRename(galleryID ?? sidebar.selectedRowID ?? session.galleryID)
    }

    private func deleteGallery(_ galleryID: String) {
        if let smart = library.smartGallery(galleryID) {
            guard library.deleteSmartGallery(galleryID) else { return }
            if search.isOpen { search.close() }
            return offerUndo(tr("Saved search “{name}” deleted", ["name": smart.name]))
        }
        guard let name = library.gallery(galleryID)?.name, library.deleteGallery(galleryID) else { return }
        offerUndo(tr("Gallery “{name}” deleted", ["name": name]))
    }

    private func showGalleryMenu(_ galleryID: String, x: Double, y: Double) {
        let menu = MenuModel()
        menu.append(label: tr("_Rename…"), action: "win.rename-gallery", target: galleryID)
        if library.smartGallery(galleryID) == nil {
            menu.append(label: tr("_Export…"), action: "win.export-gallery", target: galleryID)
        }
        menu.append(label: tr("_Delete"), action: "win.delete-gallery", target: galleryID)
        galleryMenu?.destroy()
        let popover = Popover(menu: menu, relativeTo: sidebar.list)
        popover.pointTo(x: x, y: y)
        popover.popup()
        galleryMenu = popover
    }

    // MARK: Images' menu and clipboard

    private func installImageActions() {
        let actions = ImageActions(
            window: window, handlers: handlers, session: session, loader: services.loader,
            importsDirectory: services.paths.imports)
        actions.say = { [weak self] message in self?.say(message) }
        actions.offerUndo = { [weak self] message in self?.offerUndo(message) }
        actions.delete = { [weak self] ids in self?.delete(ids) }
        actions.viewedImage = { [weak self] in
            guard let self, isViewing else { return nil }
            return viewer.imageID
        }
        imageActions = actions
        gallery.onCopyRequested = { [weak self] in self?.imageActions?.copySelection() }
        gallery.onCutRequested = { [weak self] in self?.imageActions?.cutSelection() }
        gallery.onMenuRequested = { [weak self] clicked, x, y in self?.showCellMenu(clicked, x: x, y: y) }
    }

    /// The menu of the selected images; on empty space, the gallery's own (Paste, Select All).
    private func showCellMenu(_ clicked: ImageID?, x: Double, y: Double) {
        let menu: MenuModel
        if let clicked, let imageActions {
            menu = imageActions.menu(clicked: clicked)
        } else {
            menu = MenuModel()
            menu.append(label: tr("_Paste"), action: "win.paste")
            menu.append(label: tr("Select _All"), action: "win.select-all")
        }
        // Every item of a menu left alive answers each change of its action: a selection changed would update them all.
        cellMenu?.destroy()
        let popover = Popover(menu: menu, relativeTo: gallery.canvas)
        popover.pointTo(x: x, y: y)
        popover.popup()
        cellMenu = popover
    }

    // MARK: Undo

    /// Undoes the latest step of the app; this window shows the gallery it touched.
    func undo() { show(library.undo()) }

    func redo() { show(library.redo()) }

    private func show(_ touched: [String]) {
        guard let first = touched.first, !touched.contains(session.galleryID) else { return }
        session.show(first)
    }

    // MARK: Telling the user

    /// Tells the user something in the toast; `seconds: nil` keeps it until dismissed.
    func say(_ message: String, seconds: UInt32? = 6) {
        undoOffered = nil
        toast.show(message, seconds: seconds)
    }

    /// Tells the user how background work goes, without hiding a message they are reading (`Toast.report`).
    func report(_ message: String, seconds: UInt32? = 6) {
        toast.report(message, seconds: seconds)
    }

    /// "Already in “Cats”": a dropped or pasted image the library has already, offering to show that one
    /// or to add this one anyway.
    func sayAlreadyKept(_ existing: (galleryID: String, id: ImageID), addAnyway: @escaping @MainActor () -> Void) {
        guard let name = library.gallery(existing.galleryID)?.name else { return }
        undoOffered = nil
        toast.show(
            tr("Already in “{gallery}”", ["gallery": name]), actionLabel: tr("_Show"), seconds: 10,
            action: { [weak self] in self?.reveal(existing.id, in: existing.galleryID) },
            secondActionLabel: tr("_Add Anyway"), secondAction: addAnyway)
    }

    /// "Looks like “cat.jpg” in Cats": a single image dropped or pasted looks like `existing`, offering to show that
    /// one, to keep both, or to keep the better copy with what both knew (one undo step).
    func sayLooksLike(_ existing: ImageID, dropped: ImageID) {
        guard let (galleryID, index) = library.location(of: existing),
            let image = library.cells(of: galleryID)[index].image, let name = library.gallery(galleryID)?.name
        else { return }
        undoOffered = nil
        toast.show(
            tr("Looks like “{image}” in {gallery}", ["image": image.label, "gallery": name]), actionLabel: tr("_Show"),
            seconds: 15, action: { [weak self] in self?.reveal(existing, in: galleryID) },
            secondActionLabel: tr("Keep _Both"), secondAction: {},
            thirdActionLabel: tr("Keep Be_tter"),
            thirdAction: { [weak self] in self?.keepBetter(of: [existing, dropped]) })
    }

    /// "2 of 5 images look like images already in the library", after a drop of several.
    func sayLookAlike(_ count: Int, of total: Int) {
        say(
            trPlural(
                "{count} of {total} images looks like an image already in the library",
                "{count} of {total} images look like images already in the library", count,
                ["total": Localization.number(total)]), seconds: 10)
    }

    /// Keeps the best of these copies with what the others knew, and offers to undo it.
    private func keepBetter(of ids: [ImageID]) {
        let images = ids.compactMap { id in
            library.location(of: id).flatMap { library.cells(of: $0.galleryID)[$0.index].image }
        }
        guard let merge = DuplicateMerge(keepingBestOf: images), !library.merge([merge]).isEmpty else { return }
        offerUndo(tr("Kept the better copy"))
    }

    /// Shows `galleryID` with the image `id` selected, focused and scrolled to.
    private func reveal(_ id: ImageID, in galleryID: String) {
        guard library.location(of: id)?.galleryID == galleryID else { return }
        if search.isOpen { search.close() }
        session.show(galleryID)
        session.select(id, mode: .replace)
        gallery.canvas.grabFocus()
        // Once the shown gallery is laid out, where the cell stands is known.
        MainContext.post { [weak self] in self?.gallery.setFocus(id) }
    }

    /// Says where the images just added (a picker's, the browser's) are, with Show to see them.
    func tellAdded(_ ids: [ImageID]) {
        guard let first = ids.first, let (galleryID, _) = library.location(of: first),
            let name = library.gallery(galleryID)?.name
        else { return }
        undoOffered = nil
        toast.show(
            trPlural(
                "{count} image added to “{gallery}”", "{count} images added to “{gallery}”", ids.count,
                ["gallery": name]),
            actionLabel: tr("_Show"), seconds: 10, action: { [weak self] in self?.showAdded(ids) })
    }

    /// This window to the front, showing the gallery that holds the images added, with them selected and the first
    /// scrolled to.
    private func showAdded(_ ids: [ImageID]) {
        guard let first = ids.first(where: { library.location(of: $0) != nil }),
            let (galleryID, _) = library.location(of: first)
        else { return }
        if isViewing { closeViewer() }
        if search.isOpen { search.close() }
        session.show(galleryID)
        session.select(ids.filter { library.location(of: $0)?.galleryID == galleryID })
        present()
        gallery.canvas.grabFocus()
        // Once the shown gallery is laid out, where the cell stands is known.
        MainContext.post { [weak self] in self?.gallery.setFocus(first) }
    }

    /// A toast that undoes the step just taken, and only that step.
    private func offerUndo(_ message: String) {
        guard let serial = library.history.latestSerial else { return }
        undoOffered = serial
        toast.show(message, actionLabel: tr("_Undo")) { [weak self] in
            guard let self, library.history.latestSerial == serial else { return }
            undoOffered = nil
            undo()
        }
    }

    // MARK: Trash

    /// Delete key: each visible selected cell flies from its place into the trash.
    func delete(_ ids: [ImageID]) {
        for id in ids {
            guard let index = gallery.index(of: id) else { continue }
            let frame = gallery.displayedFrame(ofCellAt: index)
            guard frame.intersects(gallery.visibleRect),
                let origin = gallery.canvas.translate(
                    x: frame.x, y: gallery.widgetY(fromContentY: frame.y), to: flights.area)
            else { continue }
            fly(id, from: LayoutRect(x: origin.x, y: origin.y, width: frame.width, height: frame.height))
        }
        // Among search results, each image leaves its own gallery.
        let removed = session.remove(Set(ids)).filter { !$0.isPlaceholder }
        guard !removed.isEmpty else { return }
        offerUndo(trPlural("Image moved to trash", "{count} images moved to trash", removed.count))
    }

    /// A drop on the trash, from this window or another: the dragged image flies from where it was
    /// released; with several, each follows a moment after the one before.
    private func trashDropped(_ drag: CellDrags.Drag, x: Double, y: Double) {
        if let pointer = trash.root.translate(x: x, y: y, to: flights.area) {
            let released =
                drag.icon?.imageFrame(pointerX: pointer.x, pointerY: pointer.y)
                ?? LayoutRect(x: pointer.x - 40, y: pointer.y - 40, width: 80, height: 80)
            let cells = library.cells(of: drag.galleryID)
            for (order, id) in drag.ids.enumerated() {
                let ratio = cells.first { $0.id == id }?.aspectRatio ?? 1
                let height = released.height
                let width = min(height * ratio, released.width * 2)
                let start = LayoutRect(
                    x: released.x + Double(order) * 6, y: released.y - Double(order) * 6,
                    width: width, height: height)
                fly(id, from: start, delay: Double(order) * 0.05)
            }
        }
        remove(drag.ids, from: drag.galleryID)
    }

    private func fly(_ id: ImageID, from start: LayoutRect, delay: Double = 0) {
        guard let target = trash.icon.translate(x: 0, y: 0, to: flights.area) else { return }
        let iconRect = LayoutRect(
            x: target.x, y: target.y, width: Double(trash.icon.allocatedWidth),
            height: Double(trash.icon.allocatedHeight))
        flights.launch(
            gallery.snapshot(of: id, width: start.width, height: start.height),
            path: FlightPath(from: start, into: iconRect), delay: delay)
    }

    /// Removes images and offers Undo.
    private func remove(_ ids: [ImageID], from galleryID: String) {
        let removed = library.remove(Set(ids), from: galleryID).filter { !$0.isPlaceholder }
        guard !removed.isEmpty else { return }
        offerUndo(trPlural("Image moved to trash", "{count} images moved to trash", removed.count))
    }

    // MARK: Adding

    /// Ctrl+V: an image, or an image address, from the clipboard lands at the end, as a drop there would.
    private func paste() {
        Clipboard.requestTargets { [weak self] offered in
            if offered.contains(ImageActions.addressesTarget) {
                self?.pasteOwnCopy()
                return
            }
            let wanted =
                DropPayload.targetsToRequest(offered: offered) + DropPayload.originTargetsToRequest(offered: offered)
            guard !wanted.isEmpty else {
                self?.say(Self.nothingToPaste)
                return
            }
            var received: [String: [UInt8]] = [:]
            var remaining = wanted.count
            for target in wanted {
                Clipboard.requestContents(target) { [weak self] bytes in
                    if let bytes, !bytes.isEmpty { received[target] = bytes }
                    remaining -= 1
                    if remaining == 0 { self?.pasted(received, offered: offered) }
                }
            }
        }
    }

    /// What this app copied comes back by address: its file targets point into the app's cache.
    private func pasteOwnCopy() {
        Clipboard.requestContents(ImageActions.addressesTarget) { [weak self] bytes in
            let addresses = String(decoding: bytes ?? [], as: UTF8.self).split(separator: "\n").map(String.init)
            self?.pasted(addresses.map { DroppedImage(url: $0) })
        }
    }

    private static var nothingToPaste: String { tr("Nothing to paste: the clipboard holds no image or image address") }

    /// The clipboard's contents are read on a worker, as a drop's are.
    private func pasted(_ received: [String: [UInt8]], offered: [String]) {
        services.loader.pipeline.scheduler.run(
            .cpu, .visible, { DropPayload.contents(received: received, offered: offered) },
            then: { [weak self] contents in
                guard let self else { return }
                if contents.images.isEmpty && contents.oversizedAddresses > 0 {
                    say(ExternalDrops.oversizedRefusal)
                } else {
                    pasted(contents.images)
                }
            })
    }

    private func pasted(_ images: [DroppedImage]) {
        guard !images.isEmpty else {
            say(Self.nothingToPaste)
            return
        }
        let end = session.cells.count
        guard let placeholder = session.insertPlaceholder(at: end, label: tr("image")) else { return }
        gallery.scrollToCell(at: end)
        startDownloads(images, placeholder: placeholder, arrival: .paste)
    }

    /// Brings a drop's or a paste's images into `placeholder`; more than a few hundred only once the user
    /// says so (a page can drag thousands of addresses), else the placeholder goes.
    func startDownloads(
        _ images: [DroppedImage], placeholder: ImageID, arrival: ImageOrigin.Arrival,
        landed: (@MainActor ([ImageID]) -> Void)? = nil
    ) {
        guard images.count > ImageLimits.imagesAddedWithoutAsking else {
            services.downloader.scaleFactor = gallery.canvas.scaleFactor
            services.downloader.start(images, placeholder: placeholder, arrival: arrival, landed: landed)
            return
        }
        let question = trPlural("Add {count} image?", "Add {count} images?", images.count)
        let dialog = MessageDialog(over: window, kind: .question, primary: question, secondary: nil)
        dialog.accessibleName = question
        dialog.addButton(tr("_Cancel"), response: AddResponse.cancel)
        dialog.addButton(tr("_Add"), response: AddResponse.add)
        dialog.setDefaultResponse(AddResponse.add)
        dialog.onResponse { [weak self, dialog] response in
            dialog.destroy()
            guard let self else { return }
            if response == AddResponse.add {
                services.downloader.scaleFactor = gallery.canvas.scaleFactor
                services.downloader.start(images, placeholder: placeholder, arrival: arrival, landed: landed)
            } else {
                library.discardPlaceholder(placeholder)
            }
        }
        dialog.present()
    }

    private enum AddResponse {
        static let cancel: Int32 = -6
        static let add: Int32 = 1
    }

    // MARK: Closing

    /// Keeps this window's size for the next window the app opens, at the next launch too.
    func rememberSize() {
        // The window's own size when it has one: a resize just before quitting may not be laid out yet.
        let maximized = window.isMaximized
        let size = maximized ? unmaximizedSize : window.size
        let galleryWidth = gallery.canvas.allocatedWidth
        services.windowSizes.save(
            WindowSize(
                width: size.width, height: size.height, maximized: maximized,
                galleryWidth: galleryWidth > 1 ? Int(galleryWidth) : nil))
    }

    private func closed() {
        rememberSize()
        galleryMenu = nil
        cellMenu = nil
        imageActions = nil
        viewer.close()
        // What an export wrote so far goes with it.
        exportJob?.cancel()
        gallery.detach()
        search.detach()
        sidebar.detach()
        session.close()
        onClosed(self)
    }
}
