import Foundation

/// The search index as a value: every gallery's entries in sidebar and gallery order. Workers search a
/// copy while the GTK thread keeps the index up to date (arrays are shared until one side writes).
public struct SearchCorpus: Sendable {
    public struct Section: Sendable {
        public var galleryID: String
        public var name: String
        public var entries: [SearchEntry]
    }

    public var sections: [Section] = []
    /// Grows with each change of the index: results of one generation may be narrowed in the same one.
    public var generation = 0

    public init() {}

    /// The images matching `query`, grouped by gallery in sidebar order, each group in gallery order; no
    /// group for a gallery without one. `failed` are the images that could not be loaded. `previous`, when
    /// it was found in this generation by a broader query, is searched instead of everything. Returns nil
    /// when `isCancelled` says so before the end.
    public func search(
        _ query: SearchQuery, failed: Set<ImageID> = [], narrowing previous: SearchResults? = nil,
        isCancelled: () -> Bool = { false }
    ) -> SearchResults? {
        guard !query.isEmpty else { return SearchResults(query: query, generation: generation, groups: []) }
        var folding = SearchFolding()
        let words = query.foldedWords(&folding)
        let tag = query.tag.map { folding.string($0) }
        let domain = query.domain.map { folding.string($0) }
        let after = query.addedAfter.map(ImageOrigin.timestamp)
        let before = query.addedBefore.map(ImageOrigin.timestamp)
        // Positions are only valid in the generation they were found in.
        let narrowed = previous.flatMap { previous in
            previous.generation == generation && query.narrows(previous.query) ? previous : nil
        }
        var candidates: [Int: [Int]] = [:]
        for group in narrowed?.groups ?? [] { candidates[group.sectionIndex] = group.positions }
        var groups: [SearchResults.Group] = []
        for (sectionIndex, section) in sections.enumerated()
        where query.galleryID == nil || query.galleryID == section.galleryID {
            if isCancelled() { return nil }
            // Each entry is read in place: copying it out of the array (its id, text, tags…) took most of the time.
            func matches(_ position: Int) -> Bool {
                section.entries[position].passes(
                    query, tag: tag, domain: domain, after: after, before: before, failed: failed)
                    && section.entries[position].containsAll(words)
            }
            let found =
                narrowed == nil
                ? section.entries.indices.filter(matches) : (candidates[sectionIndex] ?? []).filter(matches)
            if !found.isEmpty {
                groups.append(
                    SearchResults.Group(
                        galleryID: section.galleryID, name: section.name, ids: found.map { section.entries[$0].id },
                        sectionIndex: sectionIndex, positions: found))
            }
        }
        return SearchResults(query: query, generation: generation, groups: groups)
    }
}

extension SearchEntry {
    fileprivate func passes(
        _ query: SearchQuery, tag: String?, domain: String?, after: String?, before: String?, failed: Set<ImageID>
    ) -> Bool {
        if let tag, !tags.contains(where: { $0 == tag || $0.hasPrefix(tag + "/") }) { return false }
        if let domain, !domains.contains(where: { $0 == domain || $0.hasSuffix("." + domain) }) { return false }
        if let after, !(added.map { $0 >= after } ?? false) { return false }
        if let before, !(added.map { $0 < before } ?? false) { return false }
        if let orientation = query.orientation, self.orientation != orientation { return false }
        if let format = query.format, self.format != format.lowercased() { return false }
        if query.hasNote, !hasNote { return false }
        if query.failedToLoad, !failed.contains(id) { return false }
        return true
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

    public var ids: [ImageID] { groups.flatMap(\.ids) }
}
