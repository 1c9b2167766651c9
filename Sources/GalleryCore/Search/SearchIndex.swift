import Foundation

/// Keeps a `SearchCorpus` up to date with the library: a gallery's images are indexed again when its
/// cells change, each image folded again only when it changed, so a search never reads the library.
@MainActor
public final class SearchIndex {
    private unowned let library: GalleryLibrary
    public private(set) var corpus = SearchCorpus()
    private var observation: Observation?
    private let observers = Observers<Void>()

    public init(library: GalleryLibrary) {
        self.library = library
        for gallery in library.galleries {
            corpus.sections.append(
                SearchCorpus.Section(galleryID: gallery.id, name: gallery.name, entries: entries(of: gallery.id, [])))
        }
        observation = library.observe { [weak self] change in self?.apply(change) }
    }

    /// Calls `handler` after every change of the corpus until the returned observation goes.
    public func observe(_ handler: @escaping () -> Void) -> Observation { observers.add(handler) }

    private func apply(_ change: GalleryLibrary.Change) {
        switch change {
        case .cells(let galleryID):
            guard let index = corpus.sections.firstIndex(where: { $0.galleryID == galleryID }) else {
                return apply(.galleries)
            }
            let old = corpus.sections[index].entries
            corpus.sections[index].entries = []
            corpus.sections[index].entries = entries(of: galleryID, old)
        case .galleries:
            let old = Dictionary(uniqueKeysWithValues: corpus.sections.map { ($0.galleryID, $0) })
            corpus.sections = library.galleries.map { gallery in
                SearchCorpus.Section(
                    galleryID: gallery.id, name: gallery.name,
                    entries: entries(of: gallery.id, old[gallery.id]?.entries ?? []))
            }
        case .progress, .placeholdersDiscarded, .history:
            return
        }
        corpus.generation += 1
        observers.send(())
    }

    /// The entries of a gallery's images in order, reusing those of `old` whose image did not change. The
    /// two lists are walked side by side; only where they differ (an image came or went) is an entry looked
    /// up by id.
    private func entries(of galleryID: String, _ old: [SearchEntry]) -> [SearchEntry] {
        var positionByID: [ImageID: Int]?
        var folding = SearchFolding()
        var next = 0
        var result: [SearchEntry] = []
        for cell in library.cells(of: galleryID) {
            guard let image = cell.image else { continue }
            var position: Int? = next < old.count && old[next].id == image.id ? next : nil
            if position == nil {
                if positionByID == nil {
                    positionByID = Dictionary(
                        old.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
                }
                position = positionByID?[image.id]
            }
            if let position, old[position].sourceHash == image.hashValue {
                result.append(old[position])
                next = position + 1
            } else {
                result.append(SearchEntry(image, folding: &folding))
            }
        }
        return result
    }
}
