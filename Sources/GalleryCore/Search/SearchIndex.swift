import Foundation
import Synchronization

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
                unchanged.contains(gallery.id)
                ? old[gallery.id] ?? SearchEntries() : entries(of: gallery.id, old[gallery.id] ?? SearchEntries())
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
            let old = corpus.sections[index].entries
            corpus.sections[index].entries = SearchEntries()
            corpus.sections[index].entries = entries(of: galleryID, old, changed: library.imagesChanged)
        case .galleries:
            // A gallery's images change with a change of its cells: here only galleries come, go, move or are renamed,
            // and only those new to the index (one brought back by an undo) are indexed.
            var old = Dictionary(
                corpus.sections.map { ($0.galleryID, $0.entries) }, uniquingKeysWith: { first, _ in first })
            corpus.sections = library.galleries.map { gallery in
                let entries = old.removeValue(forKey: gallery.id) ?? entries(of: gallery.id, SearchEntries())
                return SearchCorpus.Section(galleryID: gallery.id, name: gallery.name, entries: entries)
            }
        case .progress, .placeholdersDiscarded, .history:
            return
        }
        corpus.generation += 1
    }

    /// The entries of a gallery's images in order, reusing those of `old` whose image did not change: those not
    /// named in `changed`, or when it is nil those whose image hashes as it did. The two lists are walked side by side;
    /// only where they differ (an image came or went) is an entry looked up by id. What is reused is found first, so
    /// that the entries are made room for at once.
    private func entries(of galleryID: String, _ old: SearchEntries, changed: Set<ImageID>? = nil) -> SearchEntries {
        let cells = library.cells(of: galleryID)
        var positionByID: [ImageID: Int]?
        var next = 0
        // For each image, where its unchanged entry stands in `old`, or -1.
        var reused: [Int] = []
        reused.reserveCapacity(cells.count)
        var bytes = 0
        for cell in cells {
            guard let image = cell.image else { continue }
            var position: Int? = next < old.count && old.id(at: next) == image.id ? next : nil
            if position == nil {
                if positionByID == nil {
                    positionByID = Dictionary(
                        old.indices.map { (old.id(at: $0), $0) }, uniquingKeysWith: { first, _ in first })
                }
                position = positionByID?[image.id]
            }
            if let position,
                changed.map({ !$0.contains(image.id) }) ?? (old.sourceHash(at: position) == image.hashValue)
            {
                reused.append(position)
                bytes += old.byteCount(at: position)
                next = position + 1
            } else {
                reused.append(-1)
                bytes += SearchEntries.estimatedByteCount(of: image)
            }
        }
        var result = SearchEntries()
        result.reserveCapacity(adding: reused.count, bytes: bytes)
        var folding = SearchFolding()
        var index = 0
        for cell in cells {
            guard let image = cell.image else { continue }
            if reused[index] >= 0 {
                result.append(reused[index], of: old)
            } else {
                result.append(image, folding: &folding)
            }
            index += 1
        }
        result.releaseUnusedRoom()
        return result
    }
}
