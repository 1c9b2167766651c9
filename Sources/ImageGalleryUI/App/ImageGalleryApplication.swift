import Foundation
import GLibKit
import GalleryCore
import GalleryIO
import GtkKit
import Synchronization

/// Starts the GtkApplication, loads the galleries once for the whole app (the library), and opens
/// windows on it: each window holds its own session. App-wide actions (`app.`) live here.
@MainActor
public final class ImageGalleryApplication {
    nonisolated static let id = "io.github.imagegallery.ImageGallery"

    private let application = Application(id: ImageGalleryApplication.id)
    /// The app's background work, from the process's start.
    private static let scheduler = JobScheduler()
    /// The library being read since the process started.
    private static var stateLoading: StateLoading?
    /// Where the app keeps everything, resolved at start.
    private let paths: LibraryPaths
    private var services: AppServices?
    private var windows: [MainWindow] = []
    /// The window the user used last: app-wide actions (new gallery, undo) act through it.
    private var lastActiveWindow: MainWindow?
    private var saver: JournalSaver?
    private var folderWatchers: [FolderWatcher] = []
    private var undoAction: Action?
    private var redoAction: Action?
    private var historyObservation: Observation?
    private var carryOver: OriginalsCarryOver?
    private var animationSurveyor: AnimationSurveyor?
    /// Play Animations, in the main menu: every animation on screen plays, in every window.
    private var playAnimationsAction: Action?
    private var likenessPass: LikenessPass?
    /// The likeness pass runs once a launch, after the first window's first screen.
    private var likenessPassStarted = false
    private var shellSearch: ShellSearch?
    private var searchProvider: ShellSearchProvider?
    private var libraryChecker: LibraryChecker?
    private var libraryMover: LibraryMover?
    /// Work over the whole library that the first screen does not need (pruning, the carry-over's list):
    /// started once the first window has drawn its first frame, or at once when no window opens.
    private var upkeep: (() -> Void)?

    public static func run(arguments: [String]) -> Int32 {
        Localization.start(localeDirectory: localeDirectory())
        // Answered before GTK starts: no display is needed to ask which version is installed.
        if arguments.dropFirst().contains("--version") {
            print("image-gallery \(AppInfo.version)")
            return 0
        }
        // A script's or a backup's copy of the library: read beside a running app, with no display.
        if arguments.dropFirst().first == LibraryPrintout.option {
            return LibraryPrintout.run(LibraryPaths(XDGDirectories()))
        }
        Application.setProgramName(id)
        Application.paintWithoutOpenGL()
        HTTPClient.setUserAgent("ImageGallery/\(AppInfo.version) (+\(AppInfo.website))")
        // The one place the XDG folders are read: every path the app uses follows from them.
        let paths = LibraryPaths(XDGDirectories())
        // A large library takes longer to read than GTK takes to start: both at once.
        stateLoading = StateLoading(paths: paths, scheduler: scheduler)
        #if StallLog
            StallLog.startIfAsked()
        #endif
        let app = ImageGalleryApplication(paths: paths)
        return app.application.run(arguments: arguments)
    }

    private init(paths: LibraryPaths) {
        self.paths = paths
        application.onActivate { [weak self] in self?.activate() }
        application.onDBusRegistered { [weak self] connection in self?.exportSearchProvider(on: connection) }
        application.onShutdown { [weak self] in
            self?.searchProvider?.unregister()
            // Before GTK destroys the windows: the one used last gives the next launch its size.
            self?.lastActiveWindow?.rememberSize()
            self?.likenessPass?.cancel()
            _ = self?.saver?.flush()
        }
        // Logout, shutdown, Ctrl+C: quit now; `shutdown` writes what is pending first.
        TerminationSignals.install { [weak self] in self?.application.quit() }
        addActions()
    }

    /// The app's actions (`app.`), and the keys of every action in `ActionTable`: GTK routes a window
    /// action's key (`win.`) to the focused window's own action.
    private func addActions() {
        let handlers = ActionHandlers(prefix: "app.")
        _ = application.addAction(handlers.named("quit")) { [weak self] in self?.requestQuit() }
        undoAction = application.addAction(handlers.named("undo")) { [weak self] in self?.undo() }
        redoAction = application.addAction(handlers.named("redo")) { [weak self] in self?.redo() }
        _ = application.addAction(handlers.named("new-window")) { [weak self] in
            self?.openWindow(showing: self?.lastActiveWindow?.session.galleryID)
        }
        _ = application.addAction(handlers.named("new-gallery")) { [weak self] in self?.newGallery() }
        _ = application.addAction(handlers.named("about")) { [weak self] in self?.showAbout() }
        _ = application.addAction(handlers.named("help")) { [weak self] in self?.showHelp() }
        playAnimationsAction = application.addToggleAction(handlers.named("play-animations"), state: false) {
            [weak self] plays in
            guard let self, let library = services?.library else { return }
            library.playAnimations = plays
            for window in windows { window.gallery.playsEveryAnimation = plays }
        }
        _ = application.addAction(handlers.named("check-library")) { [weak self] in
            guard let self, let window = lastActiveWindow ?? windows.last, let libraryChecker else { return }
            window.checkLibrary(with: libraryChecker)
        }
        _ = application.addAction(handlers.named("move-library")) { [weak self] in
            guard let self, let libraryMover, let window = lastActiveWindow ?? windows.last else { return }
            window.moveLibrary(with: libraryMover)
        }
        _ = application.addAction(handlers.named("browser-message"), parameter: String.self) { [weak self] message in
            self?.receiveFromBrowser(message)
        }
        handlers.checkEveryActionHandled()
        for entry in ActionTable.entries {
            guard let name = entry.name, !entry.accelerators.isEmpty else { continue }
            application.setAccelerators(entry.accelerators, for: name)
        }
    }

    private func activate() {
        if let window = lastActiveWindow ?? windows.last {
            window.present()
            return
        }
        if let data = Self.dataDirectory() {
            if let css = try? FileReader.read(data.appendingPathComponent("style.css").path, limit: 1 << 20) {
                Application.applyStyleSheet(String(decoding: css, as: UTF8.self))
            }
            // Uninstalled (a development build): the app icon comes from the source tree.
            IconTheme.appendSearchPath(data.appendingPathComponent("icons").path)
        }
        let services = services ?? startServices()
        openWindow(showing: services.library.initialGalleryID)
    }

    /// GNOME Shell's overview searches the galleries through D-Bus (the `.ini` in data/ names this object);
    /// the library loads at the first question when no window has loaded it yet.
    private func exportSearchProvider(on connection: DBusConnection) {
        searchProvider = ShellSearchProvider(
            connection: connection, objectPath: "/io/github/imagegallery/ImageGallery/SearchProvider",
            handlers: ShellSearchProvider.Handlers(
                search: { [weak self] terms, previous, reply in
                    guard let self else { return reply([]) }
                    self.shellSearcher().search(terms, within: previous, reply: reply)
                },
                metas: { [weak self] ids, reply in
                    guard let self else { return reply([]) }
                    self.shellSearcher().metas(ids, reply: reply)
                },
                activate: { [weak self] id, _ in self?.showImage(ImageID(id)) },
                launchSearch: { [weak self] _ in self?.activate() }))
    }

    private func shellSearcher() -> ShellSearch {
        if let shellSearch { return shellSearch }
        let services = services ?? startServices()
        if windows.isEmpty { startUpkeep() }
        let searcher = ShellSearch(
            library: services.library, search: services.search, scheduler: Self.scheduler,
            bytesSource: services.loader.bytesSource)
        shellSearch = searcher
        return searcher
    }

    /// A message of the browser extension, from the native host (or any program on the session bus, so it is
    /// checked again here): its images go to the gallery of the window used last.
    private func receiveFromBrowser(_ message: String) {
        let parsed: BrowserMessage
        do {
            parsed = try BrowserMessage.parse(Array(message.utf8), limit: BrowserMessage.maximumForwardedBytes)
        } catch {
            FileHandle.standardError.write(
                Data(untranslated("image-gallery: browser message refused: \(error.reason)\n").utf8))
            return
        }
        activate()
        guard let window = lastActiveWindow ?? windows.last else { return }
        switch parsed {
        case .image(let image) where !image.isWaitingForTransfer: window.addFromBrowser([image.dropped])
        case .page(let capture): window.pickImages(from: capture)
        case .image, .chunk:
            FileHandle.standardError.write(
                Data(untranslated("image-gallery: browser message refused: it needs the native host\n").utf8))
        }
    }

    /// A result chosen in the overview: a window shows it in its viewer, in whichever gallery holds it.
    private func showImage(_ id: ImageID) {
        activate()
        (lastActiveWindow ?? windows.last)?.showImage(id)
    }

    /// Loads the document and starts what every window shares.
    private func startServices() -> AppServices {
        let loading = Self.stateLoading ?? StateLoading(paths: paths, scheduler: Self.scheduler)
        Self.stateLoading = nil
        let loaded = loading.result()
        let state = loaded.state
        var (problem, canSave) = Self.opening(loaded.stateFile, of: loading.intake.store)
        if let failure = loaded.saverFailure {
            problem = tr("Your gallery could not be saved: {reason}", ["reason": failure])
            canSave = false
        }
        let library = GalleryLibrary(prepared: loaded.prepared)
        let bytesSource = makeBytesSource()
        let loader = ImageLoader(pipeline: ImagePipeline(scheduler: Self.scheduler, bytes: bytesSource))
        upkeep = makeUpkeep(of: state, saver: loaded.saver, isLoaded: canSave, source: bytesSource)
        let downloader = DropDownloader(library: library, loader: loader)
        downloader.onFailure = { [weak self] message, galleryID in self?.say(message, about: galleryID) }
        downloader.onPage = { [weak self] capture, placeholder, galleryID, arrival in
            self?.window(showing: galleryID)?.pickImages(from: capture, into: placeholder, arrival: arrival)
        }
        downloader.onAlreadyKept = { [weak self] existing, galleryID, addAnyway in
            self?.window(showing: galleryID)?.sayAlreadyKept(existing, addAnyway: addAnyway)
        }
        if canSave, let saver = loaded.saver {
            startSaving(library, saver: saver, loading: loading, source: bytesSource)
        }
        listen(to: loader, for: library, source: bytesSource)
        historyObservation = library.observe { [weak self] change in
            if change == .history { self?.updateHistoryActions() }
        }
        let services = AppServices(
            application: application, library: library, loader: loader, downloader: downloader,
            cellDrags: CellDrags(), windowSizes: WindowSizeStore(fileURL: paths.windowSizeFile),
            exporter: GalleryExporter(bytesSource: bytesSource),
            search: LibrarySearch(library: library, scheduler: Self.scheduler), paths: paths)
        self.services = services
        services.search.failedImages = { [weak loader] in loader?.failedIDs ?? [] }
        downloader.likenessIndex = services.search.likeness
        downloader.onLooksLike = { [weak self] existing, dropped, galleryID in
            self?.window(showing: galleryID)?.sayLooksLike(existing, dropped: dropped)
        }
        downloader.onSomeLookLike = { [weak self] count, total, galleryID in
            self?.window(showing: galleryID)?.sayLookAlike(count, of: total)
        }
        updateHistoryActions()
        startLibraryWork(on: library, source: bytesSource)
        playAnimationsAction?.state = library.playAnimations
        animationSurveyor = AnimationSurveyor(
            library: library, source: bytesSource, scheduler: Self.scheduler,
            libraryIsShareable: paths.location.isShareable)
        if let problem { MainContext.post { [weak self] in self?.say(problem, about: nil, seconds: nil) } }
        return services
    }

    /// What to tell the user about the folder's state.json, and whether changes may be saved (not beside a file left
    /// untouched because it could not be read).
    private static func opening(
        _ loaded: StateStore.LoadResult, of store: StateStore
    ) -> (problem: String?, canSave: Bool) {
        switch loaded {
        case .loaded: return (nil, true)
        case .loadedWithoutUnknownFields(_, let droppedFields):
            let problem = trPlural(
                "Your gallery holds {count} field from a newer version that is too large to keep here: it was left out, and the next save will not write it.",
                "Your gallery holds {count} fields from a newer version that are too large to keep here: they were left out, and the next save will not write them.",
                droppedFields)
            return (problem, true)
        case .missing: return (nil, true)
        case .unreadable(let reason, let keptAt):
            if keptAt == store.fileURL {
                let problem = tr(
                    "Your gallery could not be read: {reason}. It was left untouched at {path}, and changes will not be saved.",
                    ["reason": reason, "path": keptAt.path])
                return (problem, false)
            }
            let problem = tr(
                "Your gallery could not be read: {reason}. It was kept as {file}; a new gallery was started.",
                ["reason": reason, "file": keptAt.lastPathComponent])
            return (problem, true)
        }
    }

    /// Where every image's bytes come from: the library's originals, the cache, the network.
    private func makeBytesSource() -> ImageBytesSource {
        let shareable = paths.location.isShareable
        return ImageBytesSource(
            cacheDirectory: paths.cacheFolder,
            thumbnails: ThumbnailCache(cacheHome: paths.directories.cacheHome), scheduler: Self.scheduler,
            originals: OriginalsStore(directory: paths.originals),
            originalsMayArrive: shareable,
            // This computer's own record: another computer writing the library cannot approve an address here.
            localAddresses: shareable
                ? LocalAddressApprovals(record: paths.localAddressesFile, scheduler: Self.scheduler) : nil)
    }

    /// Images deleted in an earlier session can no longer be undone: their originals, downloads and imported
    /// bytes go. A download stays only while its image has no kept original.
    private func makeUpkeep(
        of state: GalleryState, saver: JournalSaver?, isLoaded: Bool, source bytesSource: ImageBytesSource
    ) -> () -> Void {
        let launch = Date()
        let paths = paths
        let scheduler = Self.scheduler
        // What is kept is what the whole library names: a launch that read its shown gallery first waits for the rest.
        let whole: (@escaping @Sendable (GalleryState) -> Void) -> Void =
            saver.map { saver in { saver.whenWhole($0) } } ?? { $0(state) }
        return {
            whole { state in
                if isLoaded {
                    // A library in a folder the user chose may be shared: its unreferenced originals wait a week.
                    let shared = paths.location.isShareable
                    // In steps, each its own job: an edit's save waits for one step, not for the whole library's.
                    LaunchUpkeep(
                        library: state, source: bytesSource, imports: paths.imports, launch: launch,
                        grace: shared ? 7 * 24 * 3600 : 0, record: shared ? paths.unreferencedOriginalsFile : nil
                    ).run { scheduler.submit(.io, .background, $0) }
                }
                MainContext.post { [weak self] in
                    self?.startCarryOver(of: state, source: bytesSource, importsDirectory: paths.imports)
                    // Other computers' logs that grew while the launch read them.
                    self?.saver?.takeInChanges()
                }
            }
        }
    }

    /// Saves the library's changes in the background, and takes in another computer's edits as they land: their logs
    /// growing in `journal/`, or a `state.json` put in the folder.
    private func startSaving(
        _ library: GalleryLibrary, saver: JournalSaver, loading: StateLoading, source bytesSource: ImageBytesSource
    ) {
        let scheduler = Self.scheduler
        let launch = Date()
        let intake = loading.intake
        // What a killed save of an older version left beside its state.json.
        scheduler.submit(.io, .background) {
            intake.store.removeStaleTemporaryFiles(olderThan: launch.addingTimeInterval(-60))
        }
        loading.events.onError.withLock {
            $0 = { [weak self] message in
                MainContext.post {
                    self?.say(
                        tr("Your gallery could not be saved: {reason}", ["reason": message]), about: nil,
                        seconds: nil)
                }
            }
        }
        // The first merge of a launch that read its shown gallery first is the rest of the library, no other
        // computer's edits: its galleries are made here, on the saver's thread, and the GTK thread swaps them in.
        let restToCome = Mutex(!saver.isWhole)
        saver.whenWhole { _ in restToCome.withLock { $0 = false } }
        loading.events.onMerged.withLock {
            $0 = { [weak self] merged, ours in
                let isRest = restToCome.withLock { isRest in
                    defer { isRest = false }
                    return isRest
                }
                let rest = isRest ? GalleryLibrary.Prepared(merged) : nil
                MainContext.post {
                    guard let self, let library = self.services?.library else { return }
                    if let rest {
                        library.adoptRest(merged, prepared: rest, over: ours)
                        #if StallLog
                            StallLog.note(untranslated("rest-adopted"))
                        #endif
                        return
                    }
                    let before = library.state
                    library.adoptMerge(merged, over: ours)
                    self.report(IncomingChanges(before: before, after: library.state).message, seconds: 10)
                }
            }
        }
        loading.events.beforeWrite.withLock { $0 = { try bytesSource.originals.makeDurable() } }
        self.saver = saver
        library.onSave = { saver.save($0) }
        library.onLanded = { saver.save(landed: $1, in: $0) }
        let stateFileName = intake.store.fileURL.lastPathComponent
        let folder = paths.libraryFolder
        // Another computer's edits come in as the sync tool writes its log; a state.json, as `StateFileIntake` says.
        folderWatchers = [
            FolderWatcher(folder: folder) { names in
                guard names.contains(stateFileName) else { return }
                scheduler.submit(.io, .visible) { intake.takeIn(into: saver) }
            },
            FolderWatcher(folder: folder.appendingPathComponent(JournalLogFile.folderName), appends: true) { names in
                // This copy's own appends wait for their turn (`SavePacing`): only another log's change is taken in.
                let own = saver.computer + ".log"
                if names.contains(where: { $0.hasSuffix(".log") && $0 != own }) { saver.takeInChanges() }
            },
        ].compactMap { $0 }
    }

    /// What loading images teaches the library: an image's measured shape, and addresses the user approved.
    private func listen(to loader: ImageLoader, for library: GalleryLibrary, source bytesSource: ImageBytesSource) {
        let shareable = paths.location.isShareable
        loader.onAspectRatio = { [weak library] id, ratio in
            // Only a missing or unusable ratio is replaced: viewing alone never rewrites the file.
            guard let library, let (galleryID, index) = library.location(of: id),
                let image = library.cells(of: galleryID)[index].image,
                image.displayAspectRatio != image.aspectRatio,
                MeasuredRatio.mayRecord(for: image, libraryIsShareable: shareable)
            else { return }
            library.correctAspectRatio(of: id, to: ratio)
        }
        // Loaded once the user said so, and kept like any other image.
        let imports = paths.imports
        loader.onLocalAddressesApproved = { [weak self] images in
            self?.keep(images.filter { $0.original == nil }, source: bytesSource, importsDirectory: imports)
        }
    }

    /// Check Library and Move Library, and what a move left behind at the last launch.
    private func startLibraryWork(on library: GalleryLibrary, source bytesSource: ImageBytesSource) {
        libraryChecker = LibraryChecker(library: library, source: bytesSource)
        libraryMover = LibraryMover(
            paths: paths, scheduler: Self.scheduler,
            saveEverything: { [weak self] in
                self?.lastActiveWindow?.rememberSize()
                return self?.saver?.flush()
            },
            relaunch: { [weak self] in
                self?.searchProvider?.unregister()
                self?.application.relaunch()
            })
        LibraryMover.removeLeftovers(paths, scheduler: Self.scheduler)
    }

    // MARK: Windows

    @discardableResult
    private func openWindow(showing galleryID: String?) -> MainWindow? {
        guard let services else { return nil }
        let window = MainWindow(services: services, galleryID: galleryID)
        window.gallery.playsEveryAnimation = services.library.playAnimations
        if upkeep != nil { window.gallery.onFirstFrame = { [weak self] in self?.startUpkeep() } }
        // The first keys typed in the search bar find the index ready; launch's pictures do not wait for it, nor share
        // the memory and the cores with the likeness pass's decodes. A launch that read its shown gallery first reads
        // the rest once that gallery's first screen is in; the index and the likeness pass look at the whole library.
        if windows.isEmpty {
            window.gallery.onFirstScreenLoaded = { [weak self] in
                guard let self, let saver else {
                    services.search.buildIndex()
                    self?.startLikenessPass()
                    return
                }
                saver.readRest()
                saver.whenWhole { _ in
                    saver.snapshotIfDue()
                    MainContext.post { [weak self] in
                        self?.services?.search.buildIndex()
                        self?.startLikenessPass()
                    }
                }
            }
        }
        windows.append(window)
        lastActiveWindow = window
        window.onActivated = { [weak self] window in
            self?.lastActiveWindow = window
            services.library.noteShownGallery(window.session.galleryID)
        }
        window.window.onCloseRequest { [weak self] in
            // The last window: closing it quits, which must not lose what could not be saved.
            guard let self, windows.count == 1 else { return false }
            requestQuit()
            return true
        }
        window.onClosed = { [weak self] window in
            guard let self else { return }
            windows.removeAll { $0 === window }
            if lastActiveWindow === window { lastActiveWindow = windows.last }
        }
        window.present()
        return window
    }

    /// Quits once everything is on disk; when it cannot be written, the window stays open with the
    /// reason and the choice to try again, or to quit without saving.
    private func requestQuit() {
        lastActiveWindow?.rememberSize()
        likenessPass?.flush()
        guard let saver, let reason = saver.flush() else {
            application.quit()
            return
        }
        guard let window = lastActiveWindow ?? windows.last else {
            application.quit()
            return
        }
        let title = tr("Your changes could not be saved")
        let dialog = MessageDialog(
            over: window.window, kind: .warning, primary: title,
            secondary: tr(
                "{reason}\n\nIf you quit now, the changes since the last save are lost.",
                ["reason": reason]))
        dialog.accessibleName = title
        dialog.addButton(tr("_Cancel"), response: Response.cancel)
        dialog.addButton(tr("Quit _Without Saving"), response: Response.quitWithoutSaving, destructive: true)
        dialog.addButton(tr("_Try Again"), response: Response.tryAgain)
        dialog.setDefaultResponse(Response.tryAgain)
        dialog.onResponse { [weak self, dialog] response in
            dialog.destroy()
            switch response {
            case Response.tryAgain: self?.requestQuit()
            case Response.quitWithoutSaving: self?.application.quit()
            default: break
            }
        }
        dialog.present()
    }

    private enum Response {
        static let cancel: Int32 = -6
        static let quitWithoutSaving: Int32 = 1
        static let tryAgain: Int32 = 2
    }

    private func showAbout() {
        guard let window = lastActiveWindow ?? windows.last else { return }
        // The catalog's translator names this; English has no translator to credit.
        // Translators: your names, one a line, shown in the About window's credits.
        let credits = tr("translator-credits")
        AboutDialog(
            over: window.window, name: tr("Image Gallery"), version: AppInfo.version,
            comments: tr("Collect images from the web by drag and drop"), website: AppInfo.website,
            iconName: Self.id, authors: [tr("The Image Gallery developers")],
            translatorCredits: credits == "translator-credits" ? nil : credits
        ).present()
    }

    /// The user manual in the help viewer: installed, by its `help:` address; run from the source tree, its
    /// pages in data/help.
    private func showHelp() {
        guard let window = lastActiveWindow ?? windows.last else { return }
        let noViewer = tr("Could not open the help: no help viewer is installed")
        let failed: @MainActor (Desktop.Failure?) -> Void = { [weak window] failure in
            guard let failure else { return }
            // GLib's words for a missing handler ("Operation not supported") do not say what is missing.
            guard Desktop.hasHandler(forScheme: "help") else {
                window?.say(noViewer)
                return
            }
            window?.say(
                tr("Could not open the help: {reason}", ["reason": failure.message ?? tr("no application answered")]))
        }
        guard !Desktop.hasHelp(Self.id),
            let pages = Self.dataDirectory()?.appendingPathComponent("help/C", isDirectory: true),
            FileManager.default.fileExists(atPath: pages.appendingPathComponent("index.page").path)
        else {
            // The desktop's own way to open an address, which a sandbox's portal answers too.
            return Desktop.open("help:\(Self.id)", completion: failed)
        }
        if !Desktop.open(pages.absoluteString, withHandlerOf: "help", completion: failed) {
            window.say(noViewer)
        }
    }

    private func newGallery() {
        guard let services, let window = lastActiveWindow ?? windows.last else { return }
        window.showNewGallery(services.library.createGallery())
    }

    private func undo() {
        if let window = lastActiveWindow { window.undo() } else { services?.library.undo() }
    }

    private func redo() {
        if let window = lastActiveWindow { window.redo() } else { services?.library.redo() }
    }

    private func updateHistoryActions() {
        guard let history = services?.library.history else { return }
        undoAction?.enabled = history.canUndo
        redoAction?.enabled = history.canRedo
    }

    /// Tells the user in the window that shows `galleryID` (the active one when several, or none do).
    private func say(_ message: String, about galleryID: String?, seconds: UInt32? = 6) {
        window(showing: galleryID)?.say(message, seconds: seconds)
    }

    /// Tells the active window how background work goes, without hiding a message the user reads.
    private func report(_ message: String, about galleryID: String? = nil, seconds: UInt32? = 6) {
        window(showing: galleryID)?.report(message, seconds: seconds)
    }

    /// The window that shows `galleryID` (the active one when several, or none do).
    private func window(showing galleryID: String?) -> MainWindow? {
        let showing = windows.filter { $0.session.galleryID == galleryID }
        return showing.first { $0 === lastActiveWindow } ?? showing.first ?? lastActiveWindow ?? windows.last
    }

    private func startUpkeep() {
        let work = upkeep
        upkeep = nil
        work?()
    }

    /// Carries a library of the previous layout over into the library's originals, in the background (the
    /// images to carry are found on a worker); what must be fetched again shows its progress in the toast.
    private func startCarryOver(of state: GalleryState, source: ImageBytesSource, importsDirectory: URL) {
        let scheduler = Self.scheduler
        // In steps, each its own job: an edit's save waits for one step, not for a look through the whole library.
        CarryOver.findPending(
            in: state, importsDirectory: importsDirectory, submitting: { scheduler.submit(.io, .background, $0) },
            then: { found in
                // What waits for the user's word (an address on the local network from another computer) waits too.
                let pending = found.filter { source.localAddresses?.needsApproval($0.url) != true }
                MainContext.post { [weak self] in
                    self?.beginCarryOver(pending, source: source, importsDirectory: importsDirectory)
                }
            })
    }

    /// Keeps these images' bytes in the library (the carry-over's step), beside a carry-over under way.
    private func keep(_ images: [GalleryImage], source: ImageBytesSource, importsDirectory: URL) {
        guard !images.isEmpty, let library = services?.library else { return }
        for image in images {
            CarryOver.keep(image, source: source, importsDirectory: importsDirectory, cancellation: CancellationToken())
            { outcome in
                guard case .success(let (original, url, likeness)) = outcome else { return }
                MainContext.post { library.recordOriginal(original, of: image.id, url: url, likeness: likeness) }
            }
        }
    }

    private func beginCarryOver(_ pending: [GalleryImage], source: ImageBytesSource, importsDirectory: URL) {
        guard !pending.isEmpty, let library = services?.library else { return }
        let carryOver = OriginalsCarryOver(library: library, source: source, importsDirectory: importsDirectory)
        // Told only when it takes a while (images fetched again): bytes moved from the cache go unnoticed.
        var pace = ProgressPace(startedAt: MainContext.monotonicMicroseconds)
        carryOver.onProgress = { [weak self] progress in
            guard let self else { return }
            if progress.isFinished {
                self.carryOver = nil
                if !progress.failed.isEmpty {
                    let names = progress.failed.prefix(3).map { "“\($0)”" }.joined(separator: ", ")
                    report(
                        trPlural(
                            "{count} image could not be kept in the library, its source no longer answers ({names}); it is tried again at the next launch",
                            "{count} images could not be kept in the library, their sources no longer answer ({names}); they are tried again at the next launch",
                            progress.failed.count, ["names": names]),
                        about: nil, seconds: 10)
                } else if pace.hasShown {
                    report(tr("Your images are kept in the library"), about: nil)
                }
            } else if pace.shows(at: MainContext.monotonicMicroseconds) {
                report(
                    tr(
                        "Keeping your images in the library: {done} of {total}",
                        ["done": Localization.number(progress.done), "total": Localization.number(progress.total)]),
                    about: nil, seconds: nil)
            }
        }
        self.carryOver = carryOver
        carryOver.start(pending)
    }

    /// Measures the likeness of the images that have none (a library from before), in the background; the images to
    /// measure are found on a worker, and the toast tells how it goes when it takes more than a second.
    private func startLikenessPass() {
        guard let services, !likenessPassStarted else { return }
        likenessPassStarted = true
        let library = services.library
        let galleries = library.galleries.map { (id: $0.id, cells: library.cells(of: $0.id)) }
        Self.scheduler.run(
            .cpu, .background, { LikenessPass.pending(in: galleries) },
            then: { [weak self] pending in
                guard let self, !pending.isEmpty else { return }
                let pass = LikenessPass(library: library, pipeline: services.loader.pipeline)
                var pace = ProgressPace(startedAt: MainContext.monotonicMicroseconds)
                pass.onProgress = { [weak self] progress in
                    guard let self else { return }
                    if progress.isFinished {
                        likenessPass = nil
                        if pace.hasShown { report(tr("Copies of your images can now be found")) }
                    } else if pace.shows(at: MainContext.monotonicMicroseconds) {
                        report(
                            tr(
                                "Looking at your images to find copies: {done} of {total}",
                                [
                                    "done": Localization.number(progress.done),
                                    "total": Localization.number(progress.total),
                                ]), seconds: nil)
                    }
                }
                likenessPass = pass
                pass.start(pending)
            })
    }

    /// Compiled translations: installed as `<prefix>/share/locale` beside the binary's prefix, or
    /// compiled from `data/po` when the package was built (a development build).
    private static func localeDirectory() -> String? {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let installed = executable.deletingLastPathComponent().appendingPathComponent("../share/locale")
            .standardizedFileURL
        return Localization.holdsCatalogs(installed) ? installed.path : SourceTreeCatalogs.directory
    }

    /// The app's data: installed as `<prefix>/share/image-gallery` beside the binary's prefix, or
    /// the source tree's `data/` for a development build.
    private static func dataDirectory() -> URL? {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var candidates = [
            executable.deletingLastPathComponent().appendingPathComponent("../share/" + LibraryPaths.appFolderName)
        ]
        var directory = executable.deletingLastPathComponent()
        for _ in 0..<6 {
            candidates.append(directory.appendingPathComponent("data"))
            directory = directory.deletingLastPathComponent()
        }
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("style.css").path) }
    }
}
