import Foundation
import Synchronization

/// Keeps a `SearchCorpus` up to date with the library: when a gallery's cells change, its entries follow in place,
/// only the images that came or changed folded again, so a search never reads the library and an edit costs the index
/// about the edit's size.
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
            var entries = old[gallery.id] ?? SearchEntries()
            if !unchanged.contains(gallery.id) { entries.follow(library.cells(of: gallery.id), changed: nil) }
            corpus.sections.append(SearchCorpus.Section(galleryID: gallery.id, name: gallery.name, entries: entries))
        }
        observation = library.observe { [weak self] change in self?.apply(change) }
    }

    /// Builds the index of a large library without holding the GTK thread: the galleries' cells as they are now
    /// are indexed `piece` images at a time, each piece on a worker (`offThread` runs it and calls its `then` back
    /// here, where the next piece is asked for), so a worker is never held long and each piece may be asked at the
    /// priority of the moment. The room a gallery's entries take is counted first, in larger pieces, and made at
    /// once; its entries stay with the workers until its last piece, each piece appending to them in place (handed
    /// back and forth, each piece had copied them). Only the galleries that changed meanwhile are looked at again
    /// here.
    public static func build(
        _ library: GalleryLibrary, piece: Int = 1_000,
        offThread:
            @escaping @MainActor (_ work: @escaping @Sendable () -> Void, _ then: @escaping @MainActor () -> Void) ->
            Void,
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
        let building = GalleryBuild()
        var built = SearchCorpus()
        // Counting the room an image's entry takes costs about a tenth of making it: its pieces are larger.
        let countingPiece = piece * 8
        func count(gallery: Int, from start: Int) {
            guard gallery < galleries.count else {
                changes.observation = nil
                // A gallery deleted and brought back meanwhile published no cells: every gallery is compared then.
                let unchanged =
                    changes.listChanged ? [] : Set(galleries.map(\.entry.id)).subtracting(changes.galleries)
                return then(SearchIndex(library: library, built: built, unchanged: unchanged))
            }
            let cells = galleries[gallery].cells
            let end = min(start + countingPiece, cells.count)
            offThread(
                {
                    building.state.withLock { state in
                        for cell in cells[start..<end] {
                            guard let image = cell.image else { continue }
                            state.count += 1
                            state.bytes += SearchEntries.estimatedByteCount(of: image)
                        }
                    }
                },
                { end == cells.count ? index(gallery: gallery, from: 0) : count(gallery: gallery, from: end) })
        }
        func index(gallery: Int, from start: Int) {
            let (entry, cells) = galleries[gallery]
            let end = min(start + piece, cells.count)
            offThread(
                {
                    building.state.withLock { state in
                        if start == 0 { state.entries.reserveCapacity(adding: state.count, bytes: state.bytes) }
                        var folding = SearchFolding()
                        for cell in cells[start..<end] {
                            guard let image = cell.image else { continue }
                            state.entries.append(image, folding: &folding)
                        }
                        if end == cells.count { state.entries.releaseUnusedRoom() }
                    }
                },
                {
                    guard end == cells.count else { return index(gallery: gallery, from: end) }
                    let entries = building.state.withLock { state in
                        var taken = GalleryBuild.State()
                        swap(&taken, &state)
                        return taken.entries
                    }
                    built.sections.append(SearchCorpus.Section(galleryID: entry.id, name: entry.name, entries: entries))
                    count(gallery: gallery + 1, from: 0)
                })
        }
        count(gallery: 0, from: 0)
    }

    /// What the workers hold of the gallery they index: the room its images' entries take, counted first, then the
    /// entries, appended to in place in that room.
    private final class GalleryBuild: Sendable {
        struct State {
            var count = 0
            var bytes = 0
            var entries = SearchEntries()
        }

        let state = Mutex(State())
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
            let cells = library.cells(of: galleryID)
            // Images arrived in their placeholders, nothing else changed: their entries alone are written and put in.
            if let arrived = library.imagesArrived,
                library.imageCount(of: galleryID) == corpus.sections[index].entries.count + arrived.count,
                case let landed = arrived.compactMap({ arrival in
                    cells[arrival.cellIndex].id == arrival.id
                        ? cells[arrival.cellIndex].image.map { (position: arrival.imageIndex, image: $0) } : nil
                }),
                landed.count == arrived.count, corpus.sections[index].entries.insert(landed)
            {
                break
            }
            // Images changed where they stand, none arrived: their entries alone are written again.
            if let inPlace = library.cellsChangedInPlace, library.imagesArrived == nil {
                if library.onlyMeasuresChanged, corpus.sections[index].entries.recordMeasures(inPlace, of: cells) {
                    corpus.recordsGeneration += 1
                    return
                }
                switch corpus.sections[index].entries.rewrite(inPlace, of: cells) {
                case .recordsOnly:
                    // Results shown stay narrowable as the user types on while the background records images.
                    corpus.recordsGeneration += 1
                    return
                case .entries:
                    break
                case .notInPlace:
                    corpus.sections[index].entries.follow(cells, changed: library.imagesChanged)
                }
            } else {
                corpus.sections[index].entries.follow(cells, changed: library.imagesChanged)
            }
        case .galleries:
            // A gallery's images change with a change of its cells: here only galleries come, go, move or are renamed,
            // and only those new to the index (one brought back by an undo) are indexed.
            var old = Dictionary(
                corpus.sections.map { ($0.galleryID, $0.entries) }, uniquingKeysWith: { first, _ in first })
            corpus.sections = library.galleries.map { gallery in
                var entries = SearchEntries()
                if let kept = old.removeValue(forKey: gallery.id) {
                    entries = kept
                } else {
                    entries.follow(library.cells(of: gallery.id), changed: nil)
                }
                return SearchCorpus.Section(galleryID: gallery.id, name: gallery.name, entries: entries)
            }
        case .progress, .placeholdersDiscarded, .history:
            return
        }
        corpus.generation += 1
        corpus.recordsGeneration += 1
    }
}
