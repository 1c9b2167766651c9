import GalleryCore
import GtkKit

/// What every window shares: the document and what serves it.
@MainActor
struct AppServices {
    let application: Application
    let library: GalleryLibrary
    let loader: ImageLoader
    let downloader: DropDownloader
    let cellDrags: CellDrags
    let windowSizes: WindowSizeStore
    let exporter: GalleryExporter
    /// The search index every window's search bar and the overview ask.
    let search: LibrarySearch
    /// Where the app keeps everything, resolved at start.
    let paths: LibraryPaths
}
