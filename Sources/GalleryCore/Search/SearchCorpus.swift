import Foundation

/// The search index as a value: every gallery's entries in sidebar and gallery order. Workers search a
/// copy while the GTK thread keeps the index up to date (arrays are shared until one side writes).
public struct SearchCorpus: Sendable {
    public struct Section: Sendable {
        public var galleryID: String
        public var name: String
        public var entries: SearchEntries
    }

    /// A place in the corpus, before an entry of a section (or past a section's last one).
    public struct Place: Sendable, Equatable {
        public var sectionIndex: Int
        public var position: Int
    }

    public var sections: [Section] = []
    /// Grows with each change of the index that may move entries or change what words and most filters find: results
    /// of one generation may be narrowed in the same one.
    public var generation = 0
    /// Grows with each change of the index, those that only record what images are made of too (a likeness, an
    /// animation, a kept original, measured in the background while the user types): a query that reads those
    /// (`SearchQuery.readsRecords`) narrows only results of the same one.
    public var recordsGeneration = 0

    public init() {}

    /// The most text, in bytes, a key's refinement on the GTK thread (`refine`) may read, the shown results' text
    /// once for each word it looks for: room for the results of a word's first letters in a large library, while the
    /// worst case stays within a small part of a frame.
    public static let refinementBudget = 3 << 19
    /// The longest word, in bytes, that the refinement looks for: the shift-or method holds a word in 64 bits, and a
    /// longer one (pasted, not typed) is compared at each place of its first letter, so is the worker's.
    public static let refinementWordLimit = UInt64.bitWidth

    /// The images matching `query`, grouped by gallery in sidebar order, each group in gallery order; no
    /// group for a gallery without one. `failed` are the images that could not be loaded. `previous`, when
    /// it was found in this generation by a broader query, is searched instead of everything before where it stopped.
    /// The search stops once it has found `limit` images (a screenful is painted without reading the whole library):
    /// the results then say where (`resumePoint`), and narrowing them with the same query finds the rest. A colour
    /// sorts each gallery's images by their share of it, so stops only at the end of a gallery. Returns nil when
    /// `isCancelled` says so before the end.
    public func search(
        _ query: SearchQuery, failed: Set<ImageID> = [], narrowing previous: SearchResults? = nil, limit: Int = .max,
        isCancelled: () -> Bool = { false }
    ) -> SearchResults? {
        guard !query.isEmpty else { return emptyResults(of: query) }
        let limit = max(limit, 1)
        var results = emptyResults(of: query)
        var start = Place(sectionIndex: 0, position: 0)
        if let previous, canNarrow(previous, to: query) {
            let words = words(of: query, notIn: previous.query)
            // A colour's results are not in gallery order within a gallery, where narrowing them could not resume.
            guard
                narrow(
                    previous, lookingFor: words, limit: query.colour == nil ? limit : .max, into: &results,
                    isCancelled: isCancelled)
            else {
                return nil
            }
            guard results.resumePoint == nil, let stopped = previous.resumePoint else { return results }
            start = stopped
        }
        var folding = SearchFolding()
        let words = query.foldedWords(&folding).map(SearchEntry.Word.init)
        let filters = FoldedFilters(query, folding: &folding)
        let scanned = scan(
            from: start, to: nil, query, words: words, filters: filters, failed: failed, limit: limit, into: &results,
            isCancelled: isCancelled)
        return scanned ? results : nil
    }

    /// How many of the section's images `query` finds.
    public func count(_ query: SearchQuery, inSection sectionIndex: Int, failed: Set<ImageID> = []) -> Int {
        let section = sections[sectionIndex]
        guard !query.isEmpty, query.galleryID == nil || query.galleryID == section.galleryID else { return 0 }
        var folding = SearchFolding()
        let words = query.foldedWords(&folding).map(SearchEntry.Word.init)
        let filters = FoldedFilters(query, folding: &folding)
        let entries = section.entries
        let candidates =
            filters.colour.map { entries.runs(mayHolding: $0, within: entries.indices) }
            ?? entries.runs(mayHoldingAll: words.map { TextBlocks.Probe($0.bytes) }, within: entries.indices)
        return entries.positions(candidates.joined(), holdingAll: words, limit: .max) { position in
            entries.passes(query, filters: filters, failed: failed, at: position)
        }.found.count
    }

    /// Looks through the sections from `start` until `end` (nil: the last), for `words` and the filters, appending
    /// what it finds until `results` hold `limit` images; `results.resumePoint` then says where it stopped, or is nil
    /// when it went through to the corpus's end. Without a colour, it stops too before reading more than `budget`
    /// bytes of the texts of the blocks that may hold the words (each text once a word). False when cancelled.
    private func scan(
        from start: Place, to end: Place?, _ query: SearchQuery, words: [SearchEntry.Word], filters: FoldedFilters,
        failed: Set<ImageID>, limit: Int, budget: Int = .max, into results: inout SearchResults,
        isCancelled: () -> Bool
    ) -> Bool {
        let probes = words.map { TextBlocks.Probe($0.bytes) }
        var budget = budget
        var place = start
        while place.sectionIndex < sections.count {
            let section = sections[place.sectionIndex]
            let last = end.map { $0.sectionIndex == place.sectionIndex ? $0.position : section.entries.count }
            if query.galleryID == nil || query.galleryID == section.galleryID {
                if isCancelled() { return false }
                // Each entry is read in place: copying it out (its id, text, tags…) took most of the time.
                let entries = section.entries
                let candidates = place.position..<max(place.position, min(last ?? entries.count, entries.count))
                let found: [Int]
                let examined: Int
                if let colour = filters.colour {
                    // Every entry of the blocks where an image of the colour may be (its results are sorted, so found
                    // whole): those with most of it first, each share's in gallery order (a counting sort: a colour may
                    // find most of the library); narrowing keeps this order.
                    let matching = entries.positions(
                        entries.runs(mayHolding: colour, within: candidates).joined(), holdingAll: words, limit: .max
                    ) { position in
                        entries.passes(query, filters: filters, failed: failed, at: position)
                    }.found
                    var byCoverage = [[Int]](repeating: [], count: ColourMatch.largestCoverage + 1)
                    for position in matching {
                        byCoverage[entries.colourCoverage(colour, at: position)].append(position)
                    }
                    (found, examined) = (byCoverage.reversed().flatMap(\.self), candidates.count)
                } else {
                    // Only the blocks whose texts may hold every word are read; the search stops past the image that
                    // reached the limit, as a reading of every entry would.
                    let wanted = limit - results.count
                    var matching: [Int] = []
                    var stopped = wanted > 0 ? candidates.upperBound : candidates.lowerBound
                    for run in entries.runs(mayHoldingAll: probes, within: candidates) where wanted > 0 {
                        let affordable =
                            budget == .max
                            ? run : Self.prefix(of: run, in: entries, words: words.count, within: &budget)
                        matching +=
                            entries.positions(affordable, holdingAll: words, limit: wanted - matching.count) {
                                position in
                                entries.passes(query, filters: filters, failed: failed, at: position)
                            }.found
                        if matching.count == wanted, let last = matching.last {
                            stopped = last + 1
                            break
                        }
                        if affordable.upperBound < run.upperBound {
                            stopped = affordable.upperBound
                            break
                        }
                    }
                    found = matching
                    examined = stopped - candidates.lowerBound
                }
                results.append(section: place.sectionIndex, of: section, found)
                if examined < candidates.count {
                    results.resumePoint = Place(
                        sectionIndex: place.sectionIndex, position: candidates.lowerBound + examined)
                    return true
                }
                // A colour's gallery is found whole: the next one waits until the rest is asked for.
                if filters.colour != nil, results.count >= limit, place.sectionIndex + 1 < sections.count {
                    results.resumePoint = Place(sectionIndex: place.sectionIndex + 1, position: 0)
                    return true
                }
            }
            if let end, end.sectionIndex == place.sectionIndex {
                results.resumePoint = end
                return true
            }
            place = Place(sectionIndex: place.sectionIndex + 1, position: 0)
        }
        results.resumePoint = nil
        return true
    }

    /// `shown` narrowed to `query` on the calling thread, when `query` narrows it (as typing on does) and that reads
    /// at most `refinementBudget` bytes, so that a key's results show with its letter; nil otherwise, and then the
    /// search is a worker's. Gives what `search` would with the same `limit`, in the same order.
    public func refine(_ shown: SearchResults, to query: SearchQuery, limit: Int = .max) -> SearchResults? {
        guard !query.isEmpty, canNarrow(shown, to: query) else { return nil }
        let limit = query.colour == nil ? max(limit, 1) : .max
        let words = words(of: query, notIn: shown.query)
        guard words.allSatisfy({ $0.bytes.count <= Self.refinementWordLimit }),
            shown.textBytes * words.count <= Self.refinementBudget
        else { return nil }
        var results = emptyResults(of: query)
        guard narrow(shown, lookingFor: words, limit: limit, into: &results, isCancelled: { false }) else { return nil }
        guard results.resumePoint == nil, let stopped = shown.resumePoint else { return results }
        // `shown` stopped short: the rest of the library is looked through for the whole query, as far as the budget
        // left goes; the results count only when they reach `limit` within it.
        var folding = SearchFolding()
        let allWords = query.foldedWords(&folding).map(SearchEntry.Word.init)
        guard allWords.allSatisfy({ $0.bytes.count <= Self.refinementWordLimit }) else { return nil }
        var budget = Self.refinementBudget - shown.textBytes * words.count
        var end = stopped
        while budget > 0, end.sectionIndex < sections.count {
            let entries = sections[end.sectionIndex].entries
            if end.position < entries.count {
                budget -= entries.textCount(at: end.position) * max(allWords.count, 1)
                end.position += 1
            } else {
                end = Place(sectionIndex: end.sectionIndex + 1, position: 0)
            }
        }
        let filters = FoldedFilters(query, folding: &folding)
        _ = scan(
            from: stopped, to: end.sectionIndex < sections.count ? end : nil, query, words: allWords,
            filters: filters, failed: [], limit: limit, into: &results, isCancelled: { false })
        guard results.resumePoint == nil || results.count >= limit else { return nil }
        return results
    }

    /// The first positions of `run` whose texts, read once for each of `words` words, fit in `budget`, which they
    /// take from it.
    private static func prefix(
        of run: Range<Int>, in entries: SearchEntries, words: Int, within budget: inout Int
    ) -> Range<Int> {
        var end = run.lowerBound
        while end < run.upperBound {
            let cost = entries.textCount(at: end) * max(words, 1)
            guard cost <= budget else { break }
            budget -= cost
            end += 1
        }
        return run.lowerBound..<end
    }

    /// `query` searched from the start on the calling thread, when its first `limit` images (or all it finds) are
    /// found reading at most `refinementBudget` bytes of the texts of the blocks that may hold its words: a word's
    /// first letters, found in most images, or a word found in few or none (its blocks are few). So the first key of
    /// a word shows its results with its letter, as the keys that narrow them do (`refine`). Nil otherwise, and then
    /// the search is a worker's; nil too for a colour (sorted over whole galleries), the images that failed to load
    /// (the caller's to tell) and a word longer than `refinementWordLimit`. Gives what `search` would with the same
    /// `limit`.
    public func searchWithinBudget(_ query: SearchQuery, limit: Int) -> SearchResults? {
        guard !query.isEmpty, query.colour == nil, !query.failedToLoad else { return nil }
        var folding = SearchFolding()
        let words = query.foldedWords(&folding).map(SearchEntry.Word.init)
        guard words.allSatisfy({ $0.bytes.count <= Self.refinementWordLimit }) else { return nil }
        let limit = max(limit, 1)
        var results = emptyResults(of: query)
        _ = scan(
            from: Place(sectionIndex: 0, position: 0), to: nil, query, words: words,
            filters: FoldedFilters(query, folding: &folding), failed: [], limit: limit,
            budget: Self.refinementBudget, into: &results, isCancelled: { false })
        guard results.resumePoint == nil || results.count >= limit else { return nil }
        return results
    }

    private func emptyResults(of query: SearchQuery) -> SearchResults {
        SearchResults(query: query, generation: generation, recordsGeneration: recordsGeneration, groups: [])
    }

    /// Whether `query` finds only among `previous` before where it stopped: results of this generation (positions are
    /// only valid in the generation they were found in), and of the same records when the query reads them, of a
    /// query with something to look for, which `query` narrows, without the "failed to load" filter (the loader's
    /// failures may have grown since, which the generation does not count).
    private func canNarrow(_ previous: SearchResults, to query: SearchQuery) -> Bool {
        previous.generation == generation
            && (previous.recordsGeneration == recordsGeneration || !query.readsRecords) && !previous.query.isEmpty
            && !query.failedToLoad && query.narrows(previous.query)
    }

    /// The words of `query` that no word of `broader` holds, folded: the images `broader` found hold its words, so
    /// hold any part of them too.
    private func words(of query: SearchQuery, notIn broader: SearchQuery) -> [SearchEntry.Word] {
        var folding = SearchFolding()
        let known = broader.foldedWords(&folding)
        return query.foldedWords(&folding).filter { word in !known.contains { $0.holds(word) } }.map(
            SearchEntry.Word.init)
    }

    /// Looks among `previous`'s images only (each passes the same filters), for `words` only, until `results` hold
    /// `limit`; `results.resumePoint` then says where it stopped. False when cancelled.
    private func narrow(
        _ previous: SearchResults, lookingFor words: [SearchEntry.Word], limit: Int,
        into results: inout SearchResults, isCancelled: () -> Bool
    ) -> Bool {
        for group in previous.groups {
            if isCancelled() { return false }
            let section = sections[group.sectionIndex]
            let (found, examined) =
                words.isEmpty && group.positions.count <= limit - results.count
                ? (group.positions, group.positions.count)
                : section.entries.positions(group.positions, holdingAll: words, limit: limit - results.count) { _ in
                    true
                }
            results.append(section: group.sectionIndex, of: section, found)
            if examined < group.positions.count {
                // What stands before the first candidate left was not among `previous`'s images, so is no match.
                results.resumePoint = Place(sectionIndex: group.sectionIndex, position: group.positions[examined])
                return true
            }
        }
        return true
    }
}

extension SearchResults {
    /// Adds `found` of `section`'s entries to the results, to the last group when it is the section's.
    fileprivate mutating func append(section sectionIndex: Int, of section: SearchCorpus.Section, _ found: [Int]) {
        guard !found.isEmpty else { return }
        let ids = found.map { section.entries.id(at: $0) }
        if let last = groups.indices.last, groups[last].sectionIndex == sectionIndex {
            groups[last].ids += ids
            groups[last].positions += found
        } else {
            groups.append(
                Group(
                    galleryID: section.galleryID, name: section.name, ids: ids, sectionIndex: sectionIndex,
                    positions: found))
        }
        for position in found { textBytes += section.entries.textCount(at: position) }
    }
}

/// What a search found: per gallery, in sidebar order, the matching images in gallery order.
public struct SearchResults: Sendable, Equatable {
    public struct Group: Sendable, Equatable {
        public var galleryID: String
        public var name: String
        public var ids: [ImageID]
        /// Where the group's section and entries stand in the corpus of `generation`, for narrowing.
        var sectionIndex: Int
        var positions: [Int]
    }

    public var query: SearchQuery
    public var generation: Int
    /// The corpus's `recordsGeneration` when they were found.
    public var recordsGeneration = 0
    public var groups: [Group]
    /// The indexed text of every image found, in bytes: what narrowing them reads at most.
    public internal(set) var textBytes = 0
    /// Where the search stopped once it had found its limit: nil when it looked at every image.
    public internal(set) var resumePoint: SearchCorpus.Place?

    /// Whether every image was looked at: the results are all there are.
    public var isComplete: Bool { resumePoint == nil }

    public var ids: [ImageID] { groups.flatMap(\.ids) }

    /// How many images were found.
    public var count: Int { groups.reduce(0) { $0 + $1.ids.count } }
}
