import GalleryCore
import GtkKit

extension MainWindow {
    /// Opens the picker for images a browser found on a page; Add puts the chosen ones at the end of
    /// the gallery this window shows.
    func pickImages(from capture: PageCapture) {
        let end = session.cells.count
        // Translators: what a page's images are called in the gallery while the user chooses among them.
        guard let placeholder = session.insertPlaceholder(at: end, label: capture.pageTitle ?? tr("page")) else {
            return
        }
        gallery.scrollToCell(at: end)
        pickImages(from: capture, into: placeholder, arrival: .drop)
    }

    /// Opens the picker for a page whose address was dropped or pasted where `placeholder` stands: the chosen
    /// images take its place (the toast says so once they are in), and nothing chosen takes it away.
    func pickImages(from capture: PageCapture, into placeholder: ImageID, arrival: ImageOrigin.Arrival) {
        let library = services.library
        pagePicker?.window.close()
        let picker = PagePicker(
            capture: capture, parent: window, pipeline: services.loader.pipeline, library: library,
            scale: gallery.canvas.scaleFactor)
        let shown = picker.capture
        var added = false
        picker.onAdd = { [weak self] images in
            added = true
            guard let self else { return }
            if library.location(of: placeholder) == nil {
                // Deleted while the user chose: the images go where a paste would put them.
                guard let fresh = session.insertPlaceholder(at: session.cells.count, label: tr("page")) else { return }
                startDownloads(images.map(shown.dropped), placeholder: fresh, arrival: arrival) { [weak self] ids in
                    self?.tellAdded(ids)
                }
            } else {
                startDownloads(images.map(shown.dropped), placeholder: placeholder, arrival: arrival) {
                    [weak self] ids in self?.tellAdded(ids)
                }
            }
        }
        picker.onClosed = { [weak self, weak picker] in
            if !added { library.discardPlaceholder(placeholder) }
            if let self, self.pagePicker === picker { self.pagePicker = nil }
        }
        pagePicker = picker
        picker.present()
    }
}
