import Foundation

/// Keeps a `SearchCorpus` up to date with the library: a gallery's images are indexed again when its
/// cells change, each image folded again only when it changed, so a search never reads the library.
@MainActor
public final class SearchIndex {
    private unowned let library: GalleryLibrary
    public private(set) var corpus = SearchCorpus()
    private var observation: Observation?

    /// Indexes the library on this thread.
    public convenience init(library: GalleryLibrary) {
        self.init(library: library, built: SearchCorpus(), unchanged: [])
    }

    /// Takes up `built`, a corpus of the library as it was: the sections of `unchanged` galleries as they
    /// are, the others indexed again where their images changed.
    private init(library: GalleryLibrary, built: SearchCorpus, unchanged: Set<String>) {
        self.library = library
        let old = Dictionary(built.sections.map { ($0.galleryID, $0.entries) }, uniquingKeysWith: { first, _ in first })
        for gallery in library.galleries {
            let entries =
                unchanged.contains(gallery.id) ? old[gallery.id] ?? [] : entries(of: gallery.id, old[gallery.id] ?? [])
            corpus.sections.append(SearchCorpus.Section(galleryID: gallery.id, name: gallery.name, entries: entries))
        }
        observation = library.observe { [weak self] change in self?.apply(change) }
    }

    /// Builds the index of a large library without holding the GTK thread: `offThread` runs the folding on a
    /// worker and hands its corpus back here, where only the galleries that changed meanwhile are looked at again.
    public static func build(
        _ library: GalleryLibrary,
        offThread: (_ work: @escaping @Sendable () -> SearchCorpus, _ then: @escaping @MainActor (SearchCorpus) -> Void)
            -> Void,
        then: @escaping @MainActor (SearchIndex) -> Void
    ) {
        let state = library.state
        let changes = ChangeLog()
        changes.observation = library.observe { change in
            switch change {
            case .cells(let galleryID): changes.galleries.insert(galleryID)
            case .galleries: changes.listChanged = true
            case .progress, .placeholdersDiscarded, .history: break
            }
        }
        let takeUp: @MainActor (SearchCorpus) -> Void = { built in
            changes.observation = nil
            // A gallery deleted and brought back meanwhile published no cells: every gallery is compared then.
            let unchanged =
                changes.listChanged ? [] : Set(state.galleries.map(\.id)).subtracting(changes.galleries)
            then(SearchIndex(library: library, built: built, unchanged: unchanged))
        }
        offThread({ SearchCorpus(state: state) }, takeUp)
    }

    /// The galleries whose cells changed while a worker built the corpus.
    private final class ChangeLog {
        var galleries: Set<String> = []
        var listChanged = false
        var observation: Observation?
    }

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
