import Foundation

/// A query's filters as entries compare them, worked out once per search.
struct FoldedFilters {
    /// A folded name, with its bytes for comparing ASCII names byte by byte.
    struct Name {
        let string: String
        let bytes: [UInt8]
        let isASCII: Bool

        init(_ string: String) {
            self.string = string
            bytes = Array(string.utf8)
            isASCII = bytes.allSatisfy { $0 < 0x80 }
        }
    }

    let tag: Name?
    let domain: Name?
    let format: String?
    /// The bounds of the time added, as text and as a record's time.
    let after: (text: String, time: SearchAddedTime)?
    let before: (text: String, time: SearchAddedTime)?
    let colour: ColourMatch?

    init(_ query: SearchQuery, folding: inout SearchFolding) {
        tag = query.tag.map { Name(folding.string($0)) }
        domain = query.domain.map { Name(folding.string($0)) }
        format = query.format?.lowercased()
        after = query.addedAfter.map(ImageOrigin.timestamp).map { ($0, SearchAddedTime($0[...])) }
        before = query.addedBefore.map(ImageOrigin.timestamp).map { ($0, SearchAddedTime($0[...])) }
        colour = query.colour.map(ColourMatch.init)
    }
}
