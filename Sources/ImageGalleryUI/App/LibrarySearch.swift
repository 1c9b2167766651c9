import Foundation
import GalleryCore
import GalleryIO
import GtkKit

/// The library's search index, shared by every window's search bar and the overview: built on a worker at
/// the first search, then kept up to date by the core with each change; searches run on the scheduler.
@MainActor
final class LibrarySearch {
    private let library: GalleryLibrary
    private let scheduler: JobScheduler
    private var index: SearchIndex?
    /// Searches asked for while a worker builds the index.
    private var waiting: [@MainActor (SearchIndex) -> Void] = []

    init(library: GalleryLibrary, scheduler: JobScheduler) {
        self.library = library
        self.scheduler = scheduler
    }

    /// Runs `body` with the index, once a worker has built it from the library's state (the first time).
    func withIndex(_ body: @escaping @MainActor (SearchIndex) -> Void) {
        if let index { return body(index) }
        waiting.append(body)
        guard waiting.count == 1 else { return }
        let scheduler = scheduler
        SearchIndex.build(
            library, offThread: { work, then in scheduler.run(.cpu, .visible, work, then: then) },
            then: { [weak self] index in
                guard let self else { return }
                self.index = index
                let bodies = waiting
                waiting = []
                for body in bodies { body(index) }
            })
    }

    /// Finds `query` on a worker over the index as it is now, and hands the results to `then` on the GTK
    /// thread; nothing comes once `cancellation` is cancelled (a newer query took its place).
    func search(
        _ query: SearchQuery, failed: Set<ImageID> = [], narrowing previous: SearchResults? = nil,
        cancellation: CancellationToken, then: @escaping @Sendable @MainActor (SearchResults) -> Void
    ) {
        withIndex { [scheduler] index in
            let corpus = index.corpus
            scheduler.run(
                .cpu, .visible, cancellation: cancellation,
                { corpus.search(query, failed: failed, narrowing: previous) { cancellation.isCancelled } },
                then: { results in if let results { then(results) } })
        }
    }
}
