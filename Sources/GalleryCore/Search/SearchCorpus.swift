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
        let candidates: [String: Set<ImageID>]? =
            previous.flatMap { previous in
                previous.generation == generation && query.narrows(previous.query) ? previous : nil
            }.map { Dictionary(uniqueKeysWithValues: $0.groups.map { ($0.galleryID, Set($0.ids)) }) }
        var groups: [SearchResults.Group] = []
        for section in sections where query.galleryID == nil || query.galleryID == section.galleryID {
            if isCancelled() { return nil }
            let wanted = candidates.map { $0[section.galleryID] ?? [] }
            if wanted?.isEmpty == true { continue }
            let ids = section.entries.lazy.filter { entry in
                wanted.map { $0.contains(entry.id) } ?? true
                    && Self.passes(entry, query, tag: tag, domain: domain, failed: failed)
                    && entry.containsAll(words)
            }.map(\.id)
            if !ids.isEmpty {
                groups.append(SearchResults.Group(galleryID: section.galleryID, name: section.name, ids: Array(ids)))
            }
        }
        return SearchResults(query: query, generation: generation, groups: groups)
    }

    private static func passes(
        _ entry: SearchEntry, _ query: SearchQuery, tag: String?, domain: String?, failed: Set<ImageID>
    ) -> Bool {
        if let tag, !entry.tags.contains(where: { $0 == tag || $0.hasPrefix(tag + "/") }) { return false }
        if let domain, !entry.domains.contains(where: { $0 == domain || $0.hasSuffix("." + domain) }) { return false }
        if let after = query.addedAfter, !(entry.added.map { $0 >= after } ?? false) { return false }
        if let before = query.addedBefore, !(entry.added.map { $0 < before } ?? false) { return false }
        if let orientation = query.orientation, entry.orientation != orientation { return false }
        if let format = query.format, entry.format != format.lowercased() { return false }
        if query.hasNote, !entry.hasNote { return false }
        if query.failedToLoad, !failed.contains(entry.id) { return false }
        return true
    }
}

/// What a search found: per gallery, in sidebar order, the matching images in gallery order.
public struct SearchResults: Sendable, Equatable {
    public struct Group: Sendable, Equatable {
        public var galleryID: String
        public var name: String
        public var ids: [ImageID]
    }

    public var query: SearchQuery
    public var generation: Int
    public var groups: [Group]

    public var count: Int { groups.reduce(0) { $0 + $1.ids.count } }
    public var ids: [ImageID] { groups.flatMap(\.ids) }
}
