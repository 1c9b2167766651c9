/// One picture the library holds more than once, as Find Duplicates shows it: its copies, the best first, and
/// what tells them apart.
public struct DuplicateGroup: Sendable, Equatable {
    public struct Member: Sendable, Equatable {
        public var image: GalleryImage
        public var galleryID: String
        public var galleryName: String
    }

    /// What Find Duplicates names of each copy when the copies differ in it.
    public enum Difference: CaseIterable, Sendable {
        case pixelSize, format, byteSize, gallery
    }

    /// The best copy first, the one merging keeps; the others in library order.
    public var members: [Member]

    public var best: Member { members[0] }

    /// What differs among the copies, in `Difference`'s order.
    public var differences: [Difference] {
        Difference.allCases.filter { difference in
            Set(members.map { $0.value(of: difference) }).count > 1
        }
    }

    /// The library's groups of near-duplicates among `galleries` (in sidebar order, each with its cells), in library
    /// order of their first copy; nil once `isCancelled` says so.
    public static func find(
        in galleries: [(id: String, name: String, cells: [GalleryCell])], isCancelled: @Sendable () -> Bool = { false }
    ) -> [DuplicateGroup]? {
        // Where each fingerprint's image stands; only the images of a group are copied out of their cells.
        var places: [(gallery: Int32, cell: Int32)] = []
        var fingerprints: [Fingerprint] = []
        for (galleryNumber, gallery) in galleries.enumerated() {
            for (cellNumber, cell) in gallery.cells.enumerated() {
                guard case .image(let image) = cell.content, let likeness = image.likeness else { continue }
                places.append((Int32(galleryNumber), Int32(cellNumber)))
                fingerprints.append(likeness.fingerprint)
            }
        }
        guard
            let found = NearDuplicateGroups(
                fingerprints, within: Likeness.nearDuplicateDistance, isCancelled: isCancelled)
        else { return nil }
        return found.groups.map { numbers in
            let members = numbers.map { number in
                let gallery = galleries[Int(places[number].gallery)]
                return Member(
                    image: gallery.cells[Int(places[number].cell)].image!, galleryID: gallery.id,
                    galleryName: gallery.name)
            }
            // The first of the best, as a drop's Keep Better chooses.
            let best = members.indices.max { CopyQuality(members[$0].image) < CopyQuality(members[$1].image) }!
            return DuplicateGroup(members: [members[best]] + members.indices.filter { $0 != best }.map { members[$0] })
        }
    }

    /// Merging the group: the best copy kept, the others merged into it.
    public var merge: DuplicateMerge {
        DuplicateMerge(kept: best.image.id, merged: members.dropFirst().map(\.image.id))
    }
}

extension DuplicateGroup.Member {
    /// The copy's value for `difference`, compared among the group; nil when unknown.
    public func value(of difference: DuplicateGroup.Difference) -> String? {
        switch difference {
        case .pixelSize: image.original.map { "\($0.pixelWidth)×\($0.pixelHeight)" }
        case .format: image.original?.format?.uppercased()
        case .byteSize: image.original.map { String($0.byteCount) }
        case .gallery: galleryID
        }
    }
}
