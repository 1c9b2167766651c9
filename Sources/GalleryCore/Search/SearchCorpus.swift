import Foundation

/// The search index as a value: every gallery's entries in sidebar and gallery order. Workers search a
/// copy while the GTK thread keeps the index up to date (arrays are shared until one side writes).
public struct SearchCorpus: Sendable {
    public struct Section: Sendable {
        public var galleryID: String
        public var name: String
        public var entries: SearchEntries
    }

    public var sections: [Section] = []
    /// Grows with each change of the index: results of one generation may be narrowed in the same one.
    public var generation = 0

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
    /// it was found in this generation by a broader query, is searched instead of everything. Returns nil
    /// when `isCancelled` says so before the end.
    public func search(
        _ query: SearchQuery, failed: Set<ImageID> = [], narrowing previous: SearchResults? = nil,
        isCancelled: () -> Bool = { false }
    ) -> SearchResults? {
        guard !query.isEmpty else { return SearchResults(query: query, generation: generation, groups: []) }
        if let previous, canNarrow(previous, to: query) {
            return narrow(
                previous, to: query, lookingFor: words(of: query, notIn: previous.query), isCancelled: isCancelled)
        }
        var folding = SearchFolding()
        let words = query.foldedWords(&folding).map(SearchEntry.Word.init)
        let filters = FoldedFilters(query, folding: &folding)
        var results = SearchResults(query: query, generation: generation, groups: [])
        for (sectionIndex, section) in sections.enumerated()
        where query.galleryID == nil || query.galleryID == section.galleryID {
            if isCancelled() { return nil }
            // Each entry is read in place: copying it out (its id, text, tags…) took most of the time.
            let entries = section.entries
            var found = entries.positions(entries.indices, holdingAll: words) { position in
                entries.passes(query, filters: filters, failed: failed, at: position)
            }
            if let colour = filters.colour {
                // Those with most of the colour first, each share's in gallery order (a counting sort: a colour may
                // find most of the library); narrowing keeps this order.
                var byCoverage = [[Int]](repeating: [], count: ColourMatch.largestCoverage + 1)
                for position in found { byCoverage[entries.colourCoverage(colour, at: position)].append(position) }
                found = byCoverage.reversed().flatMap(\.self)
            }
            results.append(section: sectionIndex, of: section, found)
        }
        return results
    }

    /// `shown` narrowed to `query` on the calling thread, when `query` narrows it (as typing on does) and that reads
    /// at most `refinementBudget` bytes, so that a key's results show with its letter; nil otherwise, and then the
    /// search is a worker's. Gives what `search` would, in the same order.
    public func refine(_ shown: SearchResults, to query: SearchQuery) -> SearchResults? {
        guard !query.isEmpty, canNarrow(shown, to: query) else { return nil }
        let words = words(of: query, notIn: shown.query)
        guard words.allSatisfy({ $0.bytes.count <= Self.refinementWordLimit }),
            shown.textBytes * words.count <= Self.refinementBudget
        else { return nil }
        return narrow(shown, to: query, lookingFor: words, isCancelled: { false })
    }

    /// Whether `query` finds only among `previous`: results of this generation (positions are only valid in the
    /// generation they were found in), of a query with something to look for, which `query` narrows, without the
    /// "failed to load" filter (the loader's failures may have grown since, which the generation does not count).
    private func canNarrow(_ previous: SearchResults, to query: SearchQuery) -> Bool {
        previous.generation == generation && !previous.query.isEmpty && !query.failedToLoad
            && query.narrows(previous.query)
    }

    /// The words of `query` that no word of `broader` holds, folded: the images `broader` found hold its words, so
    /// hold any part of them too.
    private func words(of query: SearchQuery, notIn broader: SearchQuery) -> [SearchEntry.Word] {
        var folding = SearchFolding()
        let known = broader.foldedWords(&folding)
        return query.foldedWords(&folding).filter { word in !known.contains { $0.holds(word) } }.map(
            SearchEntry.Word.init)
    }

    /// Looks among `previous`'s images only (each passes the same filters), for `words` only.
    private func narrow(
        _ previous: SearchResults, to query: SearchQuery, lookingFor words: [SearchEntry.Word], isCancelled: () -> Bool
    ) -> SearchResults? {
        var results = SearchResults(query: query, generation: generation, groups: [])
        for group in previous.groups {
            if isCancelled() { return nil }
            let section = sections[group.sectionIndex]
            results.append(
                section: group.sectionIndex, of: section,
                words.isEmpty
                    ? group.positions : section.entries.positions(group.positions, holdingAll: words) { _ in true })
        }
        return results
    }
}

extension SearchResults {
    /// Adds the group of `section`'s entries at `found`, if there are any.
    fileprivate mutating func append(section sectionIndex: Int, of section: SearchCorpus.Section, _ found: [Int]) {
        guard !found.isEmpty else { return }
        groups.append(
            Group(
                galleryID: section.galleryID, name: section.name, ids: found.map { section.entries.id(at: $0) },
                sectionIndex: sectionIndex, positions: found))
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
    public var groups: [Group]
    /// The indexed text of every image found, in bytes: what narrowing them reads at most.
    public internal(set) var textBytes = 0

    public var ids: [ImageID] { groups.flatMap(\.ids) }
}
