import Foundation
import GLibKit
import GalleryCore
import GalleryIO
import GtkKit
import Synchronization

/// What a window does with its selected images, for the cell menu and Ctrl+C / Ctrl+X: copy them
/// the way other applications read the clipboard, their addresses, open them in the browser or
/// the file manager, save them as files, move them to another gallery, delete them. Reading and
/// writing image files runs on worker threads; results come back on the main loop.
@MainActor
final class ImageActions {
    /// The clipboard target that carries this app's own copy: pasting it adds the images again by
    /// address, not the cache files the file targets point at.
    nonisolated static let addressesTarget = "application/x-image-gallery-addresses"
    /// The folder the user saved into last: the next chooser starts there.
    private static var lastFolder: String?

    private let window: ApplicationWindow
    private let session: GallerySession
    private let loader: ImageLoader
    /// Where bytes imported before the library kept originals wait to be carried over.
    private let importsDirectory: URL
    private var bytesSource: ImageBytesSource { loader.bytesSource }
    private var library: GalleryLibrary { session.library }
    private var actions: [Action] = []
    private var chooser: FileChooser?
    /// The tags dialog of the selection, while open.
    private var tagsDialog: TagsDialog?
    private var manageTags: ManageTagsWindow?
    private var findDuplicates: FindDuplicatesWindow?

    /// Tells the user something (the window's toast).
    var say: (String) -> Void = { _ in }
    /// Tells the user of a step they can undo.
    var offerUndo: (String) -> Void = { _ in }
    /// The image the window's viewer shows, if it shows one: Ctrl+T is about it then.
    var viewedImage: () -> ImageID? = { nil }
    /// Moves images to the trash as the Delete key does.
    var delete: ([ImageID]) -> Void = { _ in }

    init(
        window: ApplicationWindow, handlers: ActionHandlers, session: GallerySession, loader: ImageLoader,
        importsDirectory: URL
    ) {
        self.window = window
        self.session = session
        self.loader = loader
        self.importsDirectory = importsDirectory
        let selected: [(String, @MainActor (ImageActions) -> Void)] = [
            ("copy", { $0.copySelection() }),
            ("cut", { $0.cutSelection() }),
            ("copy-address", { $0.copyAddresses() }),
            ("load-from-local-network", { $0.loader.approveLocalAddresses(of: $0.selectedImages.map(\.id)) }),
            ("open-in-browser", { $0.openInBrowser() }),
            ("show-in-files", { $0.showInFiles() }),
            ("save-images", { $0.save() }),
            ("keep-copy", { $0.keepCopies($0.selectedImages.map(\.id)) }),
            ("trash-images", { $0.delete($0.selectedImages.map(\.id)) }),
            ("edit-tags", { $0.editTags($0.viewedImage().map { [$0] } ?? $0.selectedImages.map(\.id)) }),
        ]
        for (name, run) in selected {
            actions.append(window.addAction(handlers.named(name)) { [weak self] in self.map(run) })
        }
        actions.append(
            window.addAction(handlers.named("move-images"), parameter: String.self) { [weak self] galleryID in
                self?.move(to: galleryID)
            })
        _ = window.addAction(handlers.named("manage-tags")) { [weak self] in self?.showManageTags() }
        _ = window.addAction(handlers.named("find-duplicates")) { [weak self] in self?.showFindDuplicates() }
        selectionChanged()
    }

    /// The selected images in display order (placeholders have nothing to copy or save).
    private var selectedImages: [GalleryImage] {
        let selection = session.selection
        // Nothing selected (every launch): no pass over the gallery's cells.
        guard !selection.isEmpty else { return [] }
        return session.cells.compactMap { selection.contains($0.id) ? $0.image : nil }
    }

    /// The actions follow the selection: nothing selected, nothing to copy.
    func selectionChanged() {
        // Whether a selected cell is an image is asked of the library, not of every cell.
        let hasImages = session.selection.contains { id in
            library.galleryID(ofImage: id).map { session.isShowingResults || $0 == session.galleryID } ?? false
        }
        for action in actions { action.enabled = hasImages }
    }

    // MARK: The menu

    /// The cell menu for the selection; Open opens `clicked`.
    func menu(clicked: ImageID) -> MenuModel {
        let images = selectedImages
        let menu = MenuModel()
        let open = MenuModel()
        open.append(label: tr("_Open"), action: "win.open-image", target: clicked.rawValue)
        if images.contains(where: { loader.awaitsApproval($0.id) }) {
            open.append(label: tr("_Load From Local Network"), action: "win.load-from-local-network")
        }
        menu.appendSection(open)

        let clipboard = MenuModel()
        clipboard.append(label: tr("_Copy"), action: "win.copy")
        clipboard.append(label: tr("Cu_t"), action: "win.cut")
        clipboard.append(
            label: trPlural("Copy Image _Address", "Copy Image _Addresses", images.count), action: "win.copy-address")
        menu.appendSection(clipboard)

        let elsewhere = MenuModel()
        if images.contains(where: { Self.isWebAddress($0.url) }) {
            elsewhere.append(label: tr("Open in _Browser"), action: "win.open-in-browser")
        }
        if images.contains(where: { URL(string: $0.url)?.isFileURL == true }) {
            elsewhere.append(label: tr("Show in _Files"), action: "win.show-in-files")
        }
        if images.contains(where: Self.isUnkeptFile) {
            elsewhere.append(label: tr("_Keep a Copy in Library"), action: "win.keep-copy")
        }
        let saveLabel = images.count == 1 ? tr("_Save As…") : tr("_Save to Folder…")
        elsewhere.append(label: saveLabel, action: "win.save-images")
        menu.appendSection(elsewhere)

        // Among search results the selection may come from several galleries: each of them is a destination.
        let sources = Set(images.map { session.galleryID(of: $0.id) })
        let others = library.galleries.filter { sources.count > 1 || !sources.contains($0.id) }
        let removal = MenuModel()
        if !others.isEmpty {
            let galleries = MenuModel()
            for gallery in others {
                galleries.append(label: gallery.name, action: "win.move-images", target: gallery.id)
            }
            removal.appendSubmenu(label: tr("_Move to"), galleries)
        }
        removal.append(label: tr("Move to _Trash"), action: "win.trash-images")
        menu.appendSection(removal)

        let about = MenuModel()
        about.append(label: tr("Ta_gs…"), action: "win.edit-tags")
        if let (galleryID, index) = library.location(of: clicked),
            library.cells(of: galleryID)[index].image?.likeness != nil
        {
            about.append(label: tr("More _Like This"), action: "win.more-like-this", target: clicked.rawValue)
        }
        about.append(label: tr("P_roperties"), action: "win.image-properties", target: clicked.rawValue)
        menu.appendSection(about)
        return menu
    }

    /// An http or https address: a browser opens it, a file manager downloads it.
    nonisolated static func isWebAddress(_ url: String) -> Bool {
        let scheme = URL(string: url)?.scheme?.lowercased()
        return scheme == "http" || scheme == "https"
    }

    // MARK: Clipboard

    /// Ctrl+C: the first image itself (image/png) for editors and chat apps, the files for file
    /// managers, the addresses as text. The PNG and the files are made off the main loop, then offered.
    /// A cell that could not be loaded offers its address alone: whatever its address names is no image here.
    func copySelection() {
        let images = selectedImages
        guard !images.isEmpty else { return }
        let unloadable = Set(images.map(\.id).filter { !loader.mayOfferAsFile($0) })
        clipboardContents(images, addressesOnly: unloadable) { contents in
            MainContext.post { Clipboard.offer(contents) }
        }
    }

    /// Ctrl+X: copies, then removes the images as Delete does; Undo puts them back where they were.
    func cutSelection() {
        let images = selectedImages
        guard !images.isEmpty else { return }
        copySelection()
        let removed = session.remove(Set(images.map(\.id))).filter { !$0.isPlaceholder }
        guard !removed.isEmpty else { return }
        offerUndo(trPlural("Image cut", "{count} images cut", removed.count))
    }

    /// What the clipboard offers for `images`, handed to `then` on an I/O thread: the first image's PNG,
    /// the files (a download not cached yet is fetched first), the addresses; for `addressesOnly`, the address alone.
    private func clipboardContents(
        _ images: [GalleryImage], addressesOnly: Set<ImageID>,
        then: @escaping @Sendable ([(target: String, bytes: [UInt8])]) -> Void
    ) {
        let source = bytesSource
        source.scheduler.submit(.io, .visible) {
            let offered = images.map { !addressesOnly.contains($0.id) }
            let shared = images.indices.map {
                offered[$0] ? source.shareableFile(for: images[$0])?.absoluteString : nil
            }
            let files = Mutex(shared)
            let firstPNG = Mutex<[UInt8]?>(nil)
            let toFetch = images.indices.filter { offered[$0] && ($0 == 0 || shared[$0] == nil) }
            source.fetchEach(
                toFetch.map { images[$0] }, priority: .visible,
                each: { fetchedIndex, fetched in
                    guard case .success(let data) = fetched else { return }
                    let index = toFetch[fetchedIndex]
                    if index == 0 { firstPNG.withLock { $0 = Self.pngBytes(of: data) } }
                    guard shared[index] == nil else { return }
                    let file = source.shareableFile(for: images[index])
                    files.withLock { $0[index] = file?.absoluteString }
                },
                done: {
                    let addresses = Array(images.map(\.url).joined(separator: "\n").utf8)
                    var contents: [(target: String, bytes: [UInt8])] = [(Self.addressesTarget, addresses)]
                    if let png = firstPNG.withLock({ $0 }) { contents.append(("image/png", png)) }
                    let files = files.withLock { $0.compactMap { $0 } }
                    if !files.isEmpty {
                        contents.append(("text/uri-list", Array(files.map { $0 + "\r\n" }.joined().utf8)))
                        contents.append(
                            ("x-special/gnome-copied-files", Array((["copy"] + files).joined(separator: "\n").utf8)))
                    }
                    for target in ["UTF8_STRING", "text/plain;charset=utf-8", "text/plain"] {
                        contents.append((target, addresses))
                    }
                    then(contents)
                })
        }
    }

    /// PNG bytes as they are; any other format decoded and encoded as PNG, whole when the decode budget
    /// allows it (the decoder makes it smaller otherwise), an SVG at most `copiedSide` pixels on a side.
    private nonisolated static func pngBytes(of data: Data) -> [UInt8]? {
        guard OutgoingImageFile.mayLeave(data.prefix(4096)) else { return nil }
        if ImageFormat.sniff(data)?.mimeType == "image/png" { return Array(data) }
        let picture =
            (try? ImageDecoder.decodePicture(data, fit: nil).get())
            ?? (try? ImageDecoder.decodePicture(data, fit: (copiedSide, copiedSide)).get())
        return picture?.bitmap.pngData()
    }

    /// The side of a copied image whose own size is too large to decode whole (a vector image's).
    private nonisolated static let copiedSide = 2048

    /// The addresses as text, one a line (and as this app's own copy, so a paste adds them again).
    func copyAddresses() {
        let images = selectedImages
        guard !images.isEmpty else { return }
        let text = Array(images.map(\.url).joined(separator: "\n").utf8)
        Clipboard.offer([
            (Self.addressesTarget, text), ("UTF8_STRING", text), ("text/plain;charset=utf-8", text),
            ("text/plain", text),
        ])
    }

    // MARK: Other applications

    /// Each web address in the browser the desktop chose for it.
    func openInBrowser() {
        for image in selectedImages where Self.isWebAddress(image.url) {
            Desktop.open(image.url) { [weak self] failure in
                guard let failure else { return }
                self?.say(
                    tr("Could not open “{address}”: {reason}", ["address": image.url, "reason": Self.reason(failure)]))
            }
        }
    }

    /// The local files, selected in the file manager (or their folder opened).
    /// Whether `image` is a file on disk the library keeps no copy of: it is read where it is until the
    /// user asks for one.
    nonisolated static func isUnkeptFile(_ image: GalleryImage) -> Bool {
        image.original == nil && URL(string: image.url)?.isFileURL == true
    }

    /// Keeps a copy of each of these images that is a file on disk, so it outlives the file. Harmless to
    /// undo nothing: the image is the same, and its copy goes when no gallery refers to it any more.
    func keepCopies(_ ids: [ImageID]) {
        let images = ids.compactMap { id in
            library.location(of: id).flatMap { library.cells(of: $0.galleryID)[$0.index].image }
        }.filter(Self.isUnkeptFile)
        guard !images.isEmpty else { return }
        let kept = KeptCount(waiting: images.count)
        for image in images {
            CarryOver.keep(
                image, source: bytesSource, importsDirectory: importsDirectory,
                cancellation: CancellationToken()
            ) { result in
                MainContext.post { [weak self] in
                    guard let self else { return }
                    switch result {
                    case .success(let copy):
                        library.recordOriginal(copy.original, of: image.id, url: copy.url)
                        kept.succeeded += 1
                    case .failure(let failure):
                        say(
                            tr(
                                "Couldn’t keep a copy of “{image}”: {reason}",
                                ["image": image.label, "reason": failure.description]))
                    }
                    kept.waiting -= 1
                    guard kept.waiting == 0, kept.succeeded > 0 else { return }
                    say(
                        trPlural(
                            "Kept a copy of the image in the library", "Kept copies of {count} images in the library",
                            kept.succeeded))
                }
            }
        }
    }

    func showInFiles() {
        let files = selectedImages.compactMap { URL(string: $0.url) }.filter(\.isFileURL)
        guard let first = files.first else { return }
        Desktop.showItems(files.map(\.absoluteString), folderURI: first.deletingLastPathComponent().absoluteString) {
            [weak self] failure in
            guard let failure else { return }
            self?.say(
                tr(
                    "Could not show “{name}”: {reason}",
                    ["name": first.lastPathComponent, "reason": Self.reason(failure)]))
        }
    }

    private static func reason(_ failure: Desktop.Failure) -> String {
        failure.message ?? tr("no application answered")
    }

    // MARK: Saving

    /// One image: Save As… under its name with its real extension; several: into a chosen folder.
    func save() {
        let images = selectedImages
        guard !images.isEmpty, chooser == nil else { return }
        if images.count > 1 {
            let chooser = FileChooser(
                title: tr("Save to Folder"), parent: window, purpose: .selectFolder,
                acceptLabel: tr("_Save"), folder: Self.startingFolder)
            self.chooser = chooser
            chooser.run { [weak self] folder in
                self?.chooser = nil
                guard let folder else { return }
                Self.lastFolder = folder
                self?.save(images, into: folder)
            }
            return
        }
        let image = images[0]
        // The name depends on the bytes (the real extension): read them before asking.
        bytesSource.fetch(image.url, sha256: image.original?.sha256, priority: .visible) { [weak self] fetched in
            MainContext.post {
                switch fetched {
                case .success(let data): self?.askWhereToSave(image, data)
                case .failure(let reason): self?.say(Self.couldNotSave(image.label, reason.description))
                }
            }
        }
    }

    private static var startingFolder: String? { lastFolder ?? FileChooser.picturesFolder }

    private func askWhereToSave(_ image: GalleryImage, _ data: Data) {
        guard chooser == nil else { return }
        guard OutgoingImageFile.mayLeave(data.prefix(4096)) else {
            return say(Self.couldNotSave(image.label, OutgoingImageFile.refusal))
        }
        let name = SavedImageName.fileName(
            label: image.label, mimeType: ImageFormat.sniff(data)?.mimeType)
        let chooser = FileChooser(
            title: tr("Save Image"), parent: window, purpose: .save(suggestedName: name),
            acceptLabel: tr("_Save"), folder: Self.startingFolder)
        self.chooser = chooser
        chooser.run { [weak self] path in
            self?.chooser = nil
            guard let path else { return }
            Self.lastFolder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            self?.bytesSource.scheduler.submit(.io, .background) { [weak self] in
                let saved: String? = {
                    do throws(FileError) {
                        try FileWriter.document.write(data, to: path, policy: .replace)
                        return nil
                    } catch { return error.description }
                }()
                let fileName = URL(fileURLWithPath: path).lastPathComponent
                MainContext.post {
                    if let saved {
                        self?.say(Self.couldNotSave(fileName, saved))
                    } else {
                        self?.say(tr("Saved “{name}”", ["name": fileName]))
                    }
                }
            }
        }
    }

    /// Every image into `folder`, each under its own name, none replacing a file already there.
    private func save(_ images: [GalleryImage], into folder: String) {
        let outcome = Mutex((saved: 0, failures: [String]()))
        bytesSource.fetchEach(
            images, priority: .background,
            each: { index, fetched in
                let image = images[index]
                switch fetched {
                case .success(let data) where !OutgoingImageFile.mayLeave(data.prefix(4096)):
                    outcome.withLock { $0.failures.append(Self.couldNotSave(image.label, OutgoingImageFile.refusal)) }
                case .success(let data):
                    let name = SavedImageName.fileName(
                        label: image.label, mimeType: ImageFormat.sniff(data)?.mimeType)
                    do throws(FileError) {
                        let paths = SavedImageName.numberedPaths(name, in: folder)
                        _ = try FileWriter.document.write(data, toFirstFreeOf: paths, policy: .createNew)
                        outcome.withLock { $0.saved += 1 }
                    } catch {
                        outcome.withLock { $0.failures.append(Self.couldNotSave(name, error.description)) }
                    }
                case .failure(let reason):
                    outcome.withLock { $0.failures.append(Self.couldNotSave(image.label, reason.description)) }
                }
            },
            done: { [weak self] in
                let (saved, failures) = outcome.withLock { ($0.saved, $0.failures) }
                let folderName = URL(fileURLWithPath: folder).lastPathComponent
                MainContext.post {
                    if let failure = failures.first {
                        self?.say(
                            failures.count == 1
                                ? failure
                                : trPlural(
                                    "{count} image could not be saved: {reason}",
                                    "{count} images could not be saved: {reason}", failures.count,
                                    ["reason": failure]))
                    } else {
                        self?.say(
                            trPlural(
                                "{count} image saved to “{folder}”", "{count} images saved to “{folder}”", saved,
                                ["folder": folderName]))
                    }
                }
            })
    }

    private nonisolated static func couldNotSave(_ name: String, _ reason: String) -> String {
        tr("Could not save “{name}”: {reason}", ["name": name, "reason": reason])
    }

    // MARK: Tags

    /// The tags dialog of these images (Ctrl+T, the cell menu, the properties pane); one at a time.
    func editTags(_ ids: [ImageID]) {
        guard !ids.isEmpty else { return }
        if let tagsDialog, tagsDialog.imageIDs == ids {
            tagsDialog.present()
            return
        }
        tagsDialog?.window.close()
        let shown = TagsDialog(imageIDs: ids, library: library, parent: window)
        shown.onClosed = { [weak self, weak shown] in
            if let self, self.tagsDialog === shown { self.tagsDialog = nil }
        }
        tagsDialog = shown
        shown.present()
    }

    private func showManageTags() {
        if let manageTags {
            manageTags.present()
            return
        }
        let shown = ManageTagsWindow(library: library, parent: window)
        shown.onClosed = { [weak self] in self?.manageTags = nil }
        manageTags = shown
        shown.present()
    }

    private func showFindDuplicates() {
        if let findDuplicates {
            findDuplicates.present()
            return
        }
        let shown = FindDuplicatesWindow(library: library, loader: loader, parent: window)
        shown.onClosed = { [weak self] in self?.findDuplicates = nil }
        shown.merge = { [weak self] groups in self?.merge(groups) }
        findDuplicates = shown
        shown.present()
    }

    /// Keeps each group's best copy and merges the others into it, as one undo step.
    private func merge(_ groups: [DuplicateGroup]) {
        let kept = library.merge(groups.map(\.merge))
        guard !kept.isEmpty else { return }
        let merged = groups.filter { kept.contains($0.best.image.id) }.reduce(0) { $0 + $1.members.count - 1 }
        offerUndo(trPlural("{count} copy merged", "{count} copies merged", merged))
    }

    // MARK: Galleries

    /// Moves the selection to the end of another gallery: one undo step per gallery the images come from.
    private func move(to galleryID: String) {
        let ids = selectedImages.map(\.id)
        guard let name = library.gallery(galleryID)?.name, !ids.isEmpty else { return }
        let bySource = Dictionary(grouping: ids) { session.galleryID(of: $0) }
        let moved = bySource.filter { $0.key != galleryID }.flatMap { source, ids in
            library.transfer(ids, from: source, to: galleryID, copy: false)
        }
        guard !moved.isEmpty else { return }
        offerUndo(
            trPlural(
                "Image moved to “{gallery}”", "{count} images moved to “{gallery}”", moved.count, ["gallery": name]))
    }
}

/// How many copies a Keep a Copy in Library still waits for, and how many were kept.
@MainActor
private final class KeptCount {
    var waiting: Int
    var succeeded = 0

    init(waiting: Int) { self.waiting = waiting }
}
