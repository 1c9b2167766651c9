import Foundation
import GLibKit
import GalleryCore
import GalleryIO
import GtkKit

/// The library's search index, shared by every window's search bar and the overview: built on a worker once launch's
/// first screen is loaded (at once when there are smart galleries), then kept up to date by the core with each change;
/// searches run on the scheduler. It counts each smart gallery's images after each change, for the sidebar, looking
/// again only at the galleries that changed. It holds the index of the library's fingerprints too, built next, which
/// finds the images that look like another.
@MainActor
final class LibrarySearch {
    private let library: GalleryLibrary
    private let scheduler: JobScheduler
    private var index: SearchIndex?
    /// The library's fingerprints, built on workers after the search index (or at an earlier look-up) and after each
    /// change from then on.
    let likeness: LikenessIndex
    /// Searches asked for while a worker builds the index.
    private var waiting: [@MainActor (SearchIndex) -> Void] = []
    private var building = false
    /// How many images each smart gallery finds, by id; none until first counted.
    private(set) var smartCounts: [String: Int] = [:]
    /// How many images each smart gallery finds in each gallery, by their ids, as last counted.
    private var countsByGallery: [String: [String: Int]] = [:]
    /// The galleries whose images changed since their counts were made.
    private var changedGalleries: Set<String> = []
    private let countObservers = Observers<Void>()
    private var counting: CancellationToken?
    /// Each gallery's tags in use by key, as last counted (`tagsInUse`); a gallery whose cells changed since is left out.
    private var tagUsesByGallery: [String: [String: TagUse]] = [:]
    /// How many times each gallery's cells changed: a count made meanwhile is not kept.
    private var tagChanges: [String: Int] = [:]
    private var countQueued = false
    private var observation: Observation?
    /// The images that could not be loaded, for smart galleries that look for them.
    var failedImages: () -> Set<ImageID> = { [] }

    init(library: GalleryLibrary, scheduler: JobScheduler) {
        self.library = library
        self.scheduler = scheduler
        likeness = LikenessIndex(
            library: library,
            offThread: { work, then in scheduler.run(.cpu, .visible, work, then: { _ in then() }) })
        observation = library.observe { [weak self] change in
            switch change {
            case .cells(let galleryID):
                self?.changedGalleries.insert(galleryID)
                // What images are made of (a likeness, an animation) changes no tag.
                if self?.library.onlyRecordsChanged == false {
                    self?.tagUsesByGallery[galleryID] = nil
                    self?.tagChanges[galleryID, default: 0] += 1
                }
                self?.queueCount()
            case .galleries: self?.queueCount()
            case .progress, .placeholdersDiscarded, .history: break
            }
        }
        queueCount()
    }

    /// Calls `handler` each time the smart galleries' counts change.
    func observeSmartCounts(_ handler: @escaping () -> Void) -> Observation { countObservers.add(handler) }

    /// Counts again once every observer of this change has run (the index takes the change up in its own).
    private func queueCount() {
        guard !countQueued, !library.smartGalleries.isEmpty else { return }
        countQueued = true
        MainContext.post { [weak self] in
            guard let self else { return }
            countQueued = false
            countSmartGalleries()
        }
    }

    /// Counts each smart gallery's images in the galleries that changed or were not counted yet (in all of them for
    /// "failed to load", which the library's changes do not tell), on a worker.
    private func countSmartGalleries() {
        counting?.cancel()
        let token = CancellationToken()
        counting = token
        let smart = library.smartGalleries
        let failed = smart.contains { $0.query.failedToLoad } ? failedImages() : []
        let asked = changedGalleries
        withIndex { [weak self, scheduler] index in
            guard let self else { return }
            let corpus = index.corpus
            let known = countsByGallery
            scheduler.run(
                .cpu, .visible, cancellation: token,
                {
                    var counts: [String: [String: Int]] = [:]
                    for gallery in smart {
                        let before = gallery.query.failedToLoad ? nil : known[gallery.id]
                        var byGallery: [String: Int] = [:]
                        for (sectionIndex, section) in corpus.sections.enumerated() {
                            if let count = before?[section.galleryID], !asked.contains(section.galleryID) {
                                byGallery[section.galleryID] = count
                            } else {
                                byGallery[section.galleryID] = corpus.count(
                                    gallery.query, inSection: sectionIndex, failed: failed)
                            }
                        }
                        counts[gallery.id] = byGallery
                    }
                    return counts
                },
                then: { [weak self] counts in
                    guard let self, counting === token else { return }
                    counting = nil
                    countsByGallery = counts
                    changedGalleries.subtract(asked)
                    let totals = counts.mapValues { $0.values.reduce(0, +) }
                    guard totals != smartCounts else { return }
                    smartCounts = totals
                    countObservers.send(())
                })
        }
    }

    /// Runs `body` with the index, once a worker has built it from the library's cells (the first time).
    func withIndex(_ body: @escaping @MainActor (SearchIndex) -> Void) {
        if let index { return body(index) }
        waiting.append(body)
        buildIndex()
    }

    /// Builds the index on a worker, a piece at a time: in the background (after launch's first screen, so the
    /// first keys typed find it ready), or at once, piece by piece, from when a search waits for it.
    func buildIndex() {
        guard index == nil, !building else { return }
        building = true
        let scheduler = scheduler
        SearchIndex.build(
            library,
            offThread: { [weak self] work, then in
                let priority: JobPriority = self?.waiting.isEmpty ?? true ? .background : .visible
                scheduler.run(.cpu, priority, work, then: { _ in then() })
            },
            then: { [weak self] index in
                guard let self else { return }
                self.index = index
                building = false
                #if StallLog
                    StallLog.note("index-built")
                #endif
                let bodies = waiting
                waiting = []
                for body in bodies { body(index) }
                // Then the fingerprints' index, so that More Like This finds it ready too.
                likeness.build()
            })
    }

    /// The tags in use, each with its name folded, worked out on workers from the galleries' cells as they are now:
    /// each gallery not counted since it changed is counted in a job of its own, so that a search asked meanwhile
    /// waits for one gallery's count at most, not the library's.
    func tagsInUse(then: @escaping @Sendable @MainActor ([(name: String, folded: String)]) -> Void) {
        guard let galleryID = library.galleries.first(where: { tagUsesByGallery[$0.id] == nil })?.id else {
            let counted = library.galleries.compactMap { tagUsesByGallery[$0.id] }
            scheduler.run(
                .cpu, .background,
                {
                    var folding = SearchFolding()
                    return GalleryLibrary.tagsInUse(merging: counted).map { ($0.name, folding.string($0.name)) }
                }, then: then)
            return
        }
        let cells = library.cells(of: galleryID)
        let changes = tagChanges[galleryID, default: 0]
        scheduler.run(
            .cpu, .background, { GalleryLibrary.tagUses(among: cells) },
            then: { [weak self] uses in
                guard let self else { return }
                // A gallery that changed meanwhile is counted again.
                if tagChanges[galleryID, default: 0] == changes, library.gallery(galleryID) != nil {
                    tagUsesByGallery[galleryID] = uses
                }
                tagsInUse(then: then)
            })
    }

    /// Whether `results` were found in the index of the library as it is now.
    func isCurrent(_ results: SearchResults) -> Bool { index?.corpus.generation == results.generation }

    /// `shown` narrowed to `query` on this thread, at once, when the index is built and that is sure to be quick
    /// (`SearchCorpus.refine`); nil when the search is a worker's.
    func refine(_ shown: SearchResults, to query: SearchQuery, limit: Int) -> SearchResults? {
        index?.corpus.refine(shown, to: query, limit: limit)
    }

    /// `query`'s first `limit` images found on this thread, at once, when the index is built and the text blocks
    /// say that is quick (`SearchCorpus.searchWithinBudget`); nil when the search is a worker's.
    func searchWithinBudget(_ query: SearchQuery, limit: Int) -> SearchResults? {
        index?.corpus.searchWithinBudget(query, limit: limit)
    }

    /// More Like This: the library's images that look like image `id`, nearest first, found on a worker in the index
    /// of fingerprints and handed to `then` on the GTK thread; nothing comes once `cancellation` is cancelled.
    func lookAlikes(
        of id: ImageID, cancellation: CancellationToken,
        then: @escaping @Sendable @MainActor (SearchResults) -> Void
    ) {
        guard let (galleryID, index) = library.location(of: id),
            let fingerprint = library.cells(of: galleryID)[index].image?.likeness?.fingerprint
        else { return then(SearchResults(lookAlikes: [])) }
        likeness.lookAlikes(of: fingerprint, excluding: id) { results in
            if !cancellation.isCancelled { then(results) }
        }
    }

    /// Finds `query` (its first `limit` images) on a worker over the index as it is now, and hands the results to
    /// `then` on the GTK thread; nothing comes once `cancellation` is cancelled (a newer query took its place).
    func search(
        _ query: SearchQuery, failed: Set<ImageID> = [], narrowing previous: SearchResults? = nil, limit: Int = .max,
        cancellation: CancellationToken, then: @escaping @Sendable @MainActor (SearchResults) -> Void
    ) {
        withIndex { [scheduler] index in
            let corpus = index.corpus
            scheduler.run(
                .cpu, .visible, cancellation: cancellation,
                {
                    corpus.search(query, failed: failed, narrowing: previous, limit: limit) {
                        cancellation.isCancelled
                    }
                },
                then: { results in if let results { then(results) } })
        }
    }
}
