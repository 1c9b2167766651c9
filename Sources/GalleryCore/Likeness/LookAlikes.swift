/// The images that look like one image, nearest first: More Like This. Every fingerprint is read once (a scan
/// costs less than a search of the index at a distance this wide) and each is put with those at its distance.
public enum LookAlikes {
    /// Fingerprints farther apart than this share little more than unrelated pictures do.
    public static let farthestDistance = 20
    /// The most images shown: the nearest, which are the ones worth a look.
    public static let mostShown = 200

    /// The numbers of `fingerprints` (nil for an image not yet measured) within `farthestDistance` of `fingerprint`,
    /// nearest first, in number order among equals, at most `mostShown`; `excluded` is left out.
    public static func numbers(
        near fingerprint: Fingerprint, among fingerprints: [Fingerprint?], excluding excluded: Int?
    )
        -> [Int]
    {
        var byDistance = [[Int]](repeating: [], count: farthestDistance + 1)
        for (number, other) in fingerprints.enumerated() where number != excluded {
            guard let other else { continue }
            let distance = fingerprint.distance(to: other)
            if distance <= farthestDistance { byDistance[distance].append(number) }
        }
        return Array(byDistance.joined().prefix(mostShown))
    }
}

extension SearchResults {
    /// More Like This as results: the images of `galleries` that look like image `id`, nearest first, each run of
    /// one gallery's images under its name. Empty when the image is gone or not yet measured.
    public init(lookingLike id: ImageID, in galleries: [(id: String, name: String, cells: [GalleryCell])]) {
        var fingerprints: [Fingerprint?] = []
        var places: [(gallery: Int, position: Int, id: ImageID)] = []
        var source: (fingerprint: Fingerprint, number: Int)?
        for (galleryNumber, gallery) in galleries.enumerated() {
            for (position, cell) in gallery.cells.enumerated() {
                guard case .image(let image) = cell.content else { continue }
                if image.id == id, let likeness = image.likeness { source = (likeness.fingerprint, places.count) }
                fingerprints.append(image.likeness?.fingerprint)
                places.append((galleryNumber, position, image.id))
            }
        }
        // Results found outside the search index: never narrowed, never taken as current.
        self.init(query: SearchQuery(), generation: -1, groups: [])
        guard let source else { return }
        for number in LookAlikes.numbers(near: source.fingerprint, among: fingerprints, excluding: source.number) {
            let place = places[number]
            let gallery = galleries[place.gallery]
            if let last = groups.last, last.galleryID == gallery.id {
                groups[groups.count - 1].ids.append(place.id)
                groups[groups.count - 1].positions.append(place.position)
            } else {
                groups.append(
                    Group(
                        galleryID: gallery.id, name: gallery.name, ids: [place.id], sectionIndex: place.gallery,
                        positions: [place.position]))
            }
        }
    }
}
