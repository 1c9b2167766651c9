import Foundation

/// What a search asks: words that must all be found (in any field, as plain text: `.*` is two
/// characters), and filters beside them. Empty words and no filter match nothing: there is nothing to look for.
public struct SearchQuery: Hashable, Sendable {
    public var text: String
    /// Only this gallery's images.
    public var galleryID: String?
    /// Images with this tag or a tag nested in it (`colour` takes `colour/red`).
    public var tag: String?
    /// Images whose address, link or page is on this host or under it (`example.org` takes `cdn.example.org`).
    public var domain: String?
    public var addedAfter: Date?
    public var addedBefore: Date?
    public var orientation: SearchEntry.Orientation?
    public var format: String?
    /// Only images that failed to load (which the app, not the library, knows: see `SearchCorpus.search`).
    public var failedToLoad = false
    public var hasNote = false
    /// Only images that move (their header says so: `GalleryImage.animation`).
    public var isAnimated = false
    /// Images of which a meaningful share is of this colour, those with more of it first.
    public var colour: SearchColour?

    public init(text: String = "", galleryID: String? = nil, tag: String? = nil, domain: String? = nil) {
        self.text = text
        self.galleryID = galleryID
        self.tag = tag
        self.domain = domain
    }

    /// Whether there is nothing to look for.
    public var isEmpty: Bool {
        var filters = self
        filters.text = ""
        return text.allSatisfy(\.isWhitespace) && filters == SearchQuery(galleryID: galleryID)
    }

    /// Whether what it finds depends on what images are made of, which is recorded in the background (a likeness's
    /// colours, whether it moves, a kept original's format), not only on their words and the user's edits.
    public var readsRecords: Bool { colour != nil || isAnimated || format != nil }

    /// The query's words folded, for `SearchEntry.containsAll`.
    func foldedWords(_ folding: inout SearchFolding) -> [[UInt8]] {
        text.split(whereSeparator: \.isWhitespace).map { folding.bytes(String($0)) }.filter { !$0.isEmpty }
    }

    /// Whether everything this query finds is among what `broader` found: the same filters, and each of
    /// `broader`'s words inside one of this query's (typing on narrows a search).
    public func narrows(_ broader: SearchQuery) -> Bool {
        var sameFilters = self
        sameFilters.text = broader.text
        guard sameFilters == broader else { return false }
        var folding = SearchFolding()
        let words = foldedWords(&folding)
        return broader.foldedWords(&folding).allSatisfy { old in words.contains { new in new.holds(old) } }
    }
}

extension [UInt8] {
    /// Whether `word`'s bytes stand somewhere in these, in a row.
    func holds(_ word: [UInt8]) -> Bool {
        guard word.count <= count else { return false }
        return (0...(count - word.count)).contains { self[$0..<$0 + word.count].elementsEqual(word) }
    }
}
