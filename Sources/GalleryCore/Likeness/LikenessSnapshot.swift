/// The fingerprints of the library's images at one moment, indexed: each image by its id, found by distance.
public struct LikenessSnapshot: Sendable {
    /// The id of each image the index numbers, in the index's order.
    public let ids: [ImageID]
    public let index: FingerprintIndex

    /// The images of `cells` (gallery by gallery) that have a likeness, indexed.
    public init(_ cells: [[GalleryCell]]) {
        var ids: [ImageID] = []
        var fingerprints: [Fingerprint] = []
        for galleryCells in cells {
            for cell in galleryCells {
                guard let fingerprint = cell.image?.likeness?.fingerprint else { continue }
                ids.append(cell.id)
                fingerprints.append(fingerprint)
            }
        }
        self.ids = ids
        index = FingerprintIndex(fingerprints)
    }

    public static let empty = LikenessSnapshot([])

    /// The images whose fingerprints are at most `distance` from `fingerprint`, nearest first, then in library order.
    public func images(within distance: Int, of fingerprint: Fingerprint) -> [(id: ImageID, distance: Int)] {
        index.numbers(within: distance, of: fingerprint)
            .map { (number: $0, distance: index[$0].distance(to: fingerprint)) }
            .sorted { ($0.distance, $0.number) < ($1.distance, $1.number) }
            .map { (ids[$0.number], $0.distance) }
    }
}
