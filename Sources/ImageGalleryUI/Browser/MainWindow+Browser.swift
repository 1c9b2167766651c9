import GalleryCore
import GtkKit

/// What the browser extension sends lands in the gallery this window shows.
extension MainWindow {
    /// Images sent from the browser: added at the end of the shown gallery as a drop there adds them (fetched,
    /// the page's bytes used when fetching fails), and the toast says where, with a way to see them.
    func addFromBrowser(_ images: [DroppedImage]) {
        guard let first = images.first else { return }
        let library = services.library
        let galleryID = session.galleryID
        guard let name = library.gallery(galleryID)?.name else { return }
        let end = library.cells(of: galleryID).count
        let label = first.url.map { GalleryImage(url: $0, aspectRatio: 1).label } ?? tr("Image")
        guard let placeholder = library.insertPlaceholder(in: galleryID, at: end, label: label) else { return }
        if !session.isShowingResults { gallery.scrollToCell(at: end) }
        startDownloads(images, placeholder: placeholder, arrival: .drop)
        toast.show(
            trPlural(
                "{count} image added to “{gallery}”", "{count} images added to “{gallery}”", images.count,
                ["gallery": name]),
            actionLabel: tr("_Show"), seconds: 10,
            action: { [weak self] in self?.showFromBrowser(galleryID) })
    }

    /// The gallery the browser's images went to, in this window brought to the front.
    private func showFromBrowser(_ galleryID: String) {
        present()
        guard services.library.gallery(galleryID) != nil else { return }
        session.show(galleryID)
        gallery.scrollToCell(at: max(0, services.library.cells(of: galleryID).count - 1))
    }
}
