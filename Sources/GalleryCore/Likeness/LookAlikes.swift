/// More Like This's bounds: how far a look-alike may be, and how many show.
public enum LookAlikes {
    /// Fingerprints farther apart than this share little more than unrelated pictures do.
    public static let farthestDistance = 20
    /// The most images shown: the nearest, which are the ones worth a look.
    public static let mostShown = 200
}

extension SearchResults {
    /// More Like This as results: the look-alikes found, nearest first, each run of one gallery's images under its
    /// name (`sectionIndex`: the gallery's place in the sidebar, `position`: the image's among its cells).
    public init(lookAlikes found: [(sectionIndex: Int, galleryID: String, name: String, position: Int, id: ImageID)]) {
        // Results found outside the search index: never narrowed, never taken as current.
        self.init(query: SearchQuery(), generation: -1, groups: [])
        for place in found {
            if let last = groups.last, last.galleryID == place.galleryID {
                groups[groups.count - 1].ids.append(place.id)
                groups[groups.count - 1].positions.append(place.position)
            } else {
                groups.append(
                    Group(
                        galleryID: place.galleryID, name: place.name, ids: [place.id], sectionIndex: place.sectionIndex,
                        positions: [place.position]))
            }
        }
    }
}
