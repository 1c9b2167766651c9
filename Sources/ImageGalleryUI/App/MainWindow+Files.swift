import Foundation
import GalleryCore
import GtkKit

/// Images from the disk (Add Images…, Add Folder…) and galleries written out (Export Gallery…),
/// through the desktop's file chooser.
extension MainWindow {
    func addFileActions() {
        _ = window.addAction(handlers.named("add-images")) { [weak self] in self?.chooseFilesToAdd(folders: false) }
        _ = window.addAction(handlers.named("add-folder")) { [weak self] in self?.chooseFilesToAdd(folders: true) }
        _ = window.addAction(handlers.named("export")) { [weak self] in
            guard let self else { return }
            chooseExportFolder(for: session.galleryID)
        }
        _ = window.addAction(handlers.named("export-gallery"), parameter: String.self) { [weak self] id in
            self?.chooseExportFolder(for: id)
        }
        exportBanner.onCancel = { [weak self] in self?.exportJob?.cancel() }
    }

    // MARK: Adding

    /// Ctrl+O, the empty state's button: images (or folders of them), added at the end of the
    /// shown gallery in the order chosen, one undo step for all.
    private func chooseFilesToAdd(folders: Bool) {
        let chooser = FileChooser(
            title: folders ? tr("Add Folder") : tr("Add Images"), parent: window,
            purpose: folders ? .selectFolder : .open, acceptLabel: tr("_Add"), folder: FileChooser.picturesFolder)
        chooser.selectsMultiple = true
        if !folders {
            let formats = LocalFiles.pixbufFormats
            chooser.addFilter(
                name: tr("Images"), mimeTypes: formats.flatMap(\.mimeTypes),
                patterns: formats.flatMap(\.extensions).map { "*.\($0)" })
            chooser.addFilter(name: tr("All Files"), patterns: ["*"])
        }
        fileChooser = chooser
        chooser.runChoosingMany { [weak self] paths in
            guard let self else { return }
            fileChooser = nil
            if let paths, !paths.isEmpty {
                add(paths.map { URL(fileURLWithPath: $0).absoluteString }, arrival: folders ? .folder : .file)
            }
        }
    }

    private func add(_ uris: [String], arrival: ImageOrigin.Arrival) {
        let images = uris.map { DroppedImage(url: $0) }
        let end = session.cells.count
        let label = GalleryImage(url: uris[0], aspectRatio: 1).label
        guard let placeholder = session.insertPlaceholder(at: end, label: label) else { return }
        gallery.scrollToCell(at: end)
        startDownloads(images, placeholder: placeholder, arrival: arrival)
    }

    // MARK: Exporting

    /// Export Gallery… (the main menu, a sidebar row's menu): asks where, then writes the folder.
    private func chooseExportFolder(for galleryID: String) {
        guard let name = services.library.gallery(galleryID)?.name else { return }
        guard exportJob == nil else {
            say(tr("An export is already running in this window"))
            return
        }
        let chooser = FileChooser(
            title: tr("Export “{gallery}”", ["gallery": name]), parent: window, purpose: .selectFolder,
            acceptLabel: tr("_Export"), folder: FileChooser.picturesFolder)
        fileChooser = chooser
        chooser.run { [weak self] path in
            guard let self else { return }
            fileChooser = nil
            if let path { export(galleryID, into: URL(fileURLWithPath: path, isDirectory: true)) }
        }
    }

    private func export(_ galleryID: String, into parent: URL) {
        // The gallery as it is now: later changes are not part of this export.
        guard exportJob == nil, let gallery = services.library.savedGallery(galleryID) else { return }
        exportBanner.begin(tr("Exporting “{gallery}”…", ["gallery": gallery.name]), total: gallery.images.count)
        exportJob = services.exporter.export(
            gallery, into: parent, fallbackName: tr("Gallery"),
            progress: { [weak self] done, total in
                self?.exportBanner.update(done: done, total: total)
            },
            completion: { [weak self] outcome in
                self?.exportEnded(gallery.name, outcome)
            })
    }

    private func exportEnded(_ name: String, _ outcome: GalleryExporter.Outcome) {
        exportJob = nil
        exportBanner.end()
        switch outcome {
        case .exported(let folder, 0, _):
            say(tr("“{gallery}” exported to {folder}", ["gallery": name, "folder": folder.path]), seconds: 10)
        case .exported(let folder, let missing, let reason):
            say(
                trPlural(
                    "“{gallery}” exported to {folder}, without {count} image that could not be loaded ({reason})",
                    "“{gallery}” exported to {folder}, without {count} images that could not be loaded (first: {reason})",
                    missing, ["gallery": name, "folder": folder.path, "reason": reason ?? ""]), seconds: nil)
        case .cancelled:
            say(tr("Export of “{gallery}” cancelled; nothing was written", ["gallery": name]))
        case .failed(let reason):
            say(
                tr("Couldn’t export “{gallery}”: {reason}. Nothing was written.", ["gallery": name, "reason": reason]),
                seconds: nil)
        }
    }
}
