import GalleryCore
import GtkKit

/// What the browser extension sends lands in the gallery this window shows.
extension MainWindow {
    /// Images sent from the browser: added at the end of the shown gallery as a drop there adds them (fetched,
    /// the page's bytes used when fetching fails); once they are in, the toast says where, with a way to see them.
    func addFromBrowser(_ images: [DroppedImage]) {
        guard let first = images.first else { return }
        let library = services.library
        let galleryID = session.galleryID
        let end = library.cells(of: galleryID).count
        let label = first.url.map { GalleryImage(url: $0, aspectRatio: 1).label } ?? tr("Image")
        guard let placeholder = library.insertPlaceholder(in: galleryID, at: end, label: label) else { return }
        if !session.isShowingResults { gallery.scrollToCell(at: end) }
        startDownloads(images, placeholder: placeholder, arrival: .drop) { [weak self] ids in self?.tellAdded(ids) }
    }
}
