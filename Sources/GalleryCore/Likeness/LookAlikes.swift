/// More Like This's bounds: how far a look-alike may be, and how many show.
public enum LookAlikes {
    /// Fingerprints farther apart than this share little more than unrelated pictures do.
    public static let farthestDistance = 20
    /// The most images shown: the nearest, which are the ones worth a look.
    public static let mostShown = 200
}

extension SearchResults {
    /// More Like This as results: the images of `galleries` whose fingerprints are within
    /// `LookAlikes.farthestDistance` of `fingerprint`, nearest first (in library order among equals), at most
    /// `LookAlikes.mostShown`, each run of one gallery's images under its name; image `excluded` is left out.
    /// Every fingerprint is read once, in place: a scan costs less than a search of the index this wide.
    public init(
        lookingLike fingerprint: Fingerprint, excluding excluded: ImageID,
        in galleries: [(id: String, name: String, cells: [GalleryCell])]
    ) {
        var byDistance = [[(gallery: Int, position: Int)]](repeating: [], count: LookAlikes.farthestDistance + 1)
        for (galleryNumber, gallery) in galleries.enumerated() {
            let cells = gallery.cells
            for position in cells.indices {
                guard let other = cells[position].image?.likeness?.fingerprint else { continue }
                let distance = fingerprint.distance(to: other)
                if distance <= LookAlikes.farthestDistance { byDistance[distance].append((galleryNumber, position)) }
            }
        }
        // Results found outside the search index: never narrowed, never taken as current.
        self.init(query: SearchQuery(), generation: -1, groups: [])
        let places = byDistance.joined().lazy.filter { galleries[$0.gallery].cells[$0.position].id != excluded }
        for place in places.prefix(LookAlikes.mostShown) {
            let gallery = galleries[place.gallery]
            let id = gallery.cells[place.position].id
            if let last = groups.last, last.galleryID == gallery.id {
                groups[groups.count - 1].ids.append(id)
                groups[groups.count - 1].positions.append(place.position)
            } else {
                groups.append(
                    Group(
                        galleryID: gallery.id, name: gallery.name, ids: [id], sectionIndex: place.gallery,
                        positions: [place.position]))
            }
        }
    }
}
