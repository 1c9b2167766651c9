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

    /// Builds the index of a large library without holding the GTK thread: the galleries' cells as they are now
    /// are indexed `piece` images at a time, each piece on a worker (`offThread` runs it and hands its result
    /// back here, where the next piece is asked for), so a worker is never held long and each piece may be asked
    /// at the priority of the moment. Only the galleries that changed meanwhile are looked at again here.
    public static func build(
        _ library: GalleryLibrary, piece: Int = 1_000,
        offThread:
            @escaping @MainActor (
                _ work: @escaping @Sendable () -> [SearchEntry], _ then: @escaping @MainActor ([SearchEntry]) -> Void
            ) -> Void,
        then: @escaping @MainActor (SearchIndex) -> Void
    ) {
        let galleries = library.galleries.map { (entry: $0, cells: library.cells(of: $0.id)) }
        let changes = ChangeLog()
        changes.observation = library.observe { change in
            switch change {
            case .cells(let galleryID): changes.galleries.insert(galleryID)
            case .galleries: changes.listChanged = true
            case .progress, .placeholdersDiscarded, .history: break
            }
        }
        var built = SearchCorpus()
        func index(gallery: Int, from start: Int, onto entries: [SearchEntry]) {
            guard gallery < galleries.count else {
                changes.observation = nil
                // A gallery deleted and brought back meanwhile published no cells: every gallery is compared then.
                let unchanged =
                    changes.listChanged ? [] : Set(galleries.map(\.entry.id)).subtracting(changes.galleries)
                return then(SearchIndex(library: library, built: built, unchanged: unchanged))
            }
            let (entry, cells) = galleries[gallery]
            let end = min(start + piece, cells.count)
            offThread(
                {
                    var entries = entries
                    var folding = SearchFolding()
                    for cell in cells[start..<end] {
                        guard let image = cell.image else { continue }
                        entries.append(SearchEntry(image, folding: &folding))
                    }
                    return entries
                },
                { entries in
                    guard end == cells.count else { return index(gallery: gallery, from: end, onto: entries) }
                    built.sections.append(SearchCorpus.Section(galleryID: entry.id, name: entry.name, entries: entries))
                    index(gallery: gallery + 1, from: 0, onto: [])
                })
        }
        index(gallery: 0, from: 0, onto: [])
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
