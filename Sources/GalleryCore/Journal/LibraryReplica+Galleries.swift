extension LibraryReplica {
    /// The galleries `entry` changes the images of, as this replica holds them before it is taken in: where each image
    /// it names is placed now, and where it is placed to. Nil when it changes more than images (a gallery, a setting).
    func galleriesTouched(by entry: JournalEntry) -> Set<String>? {
        var touched = Set<String>()
        for change in entry.changes {
            let id: ImageID
            switch change {
            case .addImage(let image): id = image.id
            case .setImageField(let image, _, _): id = image
            case .placeImage(let image, let placement):
                id = image
                if let gallery = placement?.gallery { touched.insert(gallery) }
            case .setGalleryField, .placeGallery, .setGalleryDeleted, .setSetting: return nil
            }
            if let gallery = images[id]?.placement?.value?.gallery { touched.insert(gallery) }
        }
        return touched
    }

    /// Takes `entry` in, noting the galleries it changes the images of in `touched` (nil once an entry changes more
    /// than images) and the images it names in `named`: what `state(updating:touched:named:)` makes again.
    mutating func apply(_ entry: JournalEntry, touched: inout Set<String>?, named: inout Set<ImageID>) {
        if touched != nil, let galleries = galleriesTouched(by: entry) {
            touched?.formUnion(galleries)
            named.formUnion(entry.changes.compactMap(\.imageID))
        } else {
            touched = nil
        }
        apply(entry)
    }

    /// `state` made from `previous`, this replica's `state` before the entries that touched `touched` and named the
    /// images `named` were taken in: only the touched galleries are made again, so another computer's edit costs its
    /// galleries, not the library, and the others keep their arrays. Nil when a touched gallery may have come or
    /// gone (a deleted one, or one `previous` does not show): then only `state` tells.
    func state(updating previous: GalleryState, touched: Set<String>, named: Set<ImageID>) -> GalleryState? {
        var result = previous
        var found = Set<String>()
        for index in result.galleries.indices where touched.contains(result.galleries[index].id) {
            let galleryID = result.galleries[index].id
            guard let gallery = galleries[galleryID], gallery.key != nil, gallery.isDeleted?.value != true else {
                return nil
            }
            found.insert(galleryID)
            var members: [(key: String, image: GalleryImage)] = []
            var seen = Set<ImageID>()
            for id in result.galleries[index].images.map(\.id) + named where seen.insert(id).inserted {
                guard let record = images[id], let placement = record.placement, let place = placement.value,
                    place.gallery == galleryID, gallery.shows(placedAt: placement.stamp), let image = record.image
                else { continue }
                members.append((place.key, image))
            }
            result.galleries[index].images =
                members
                .sorted { ($0.key, $0.image.id.rawValue) < ($1.key, $1.image.id.rawValue) }.map(\.image)
        }
        // A touched gallery that did not show: it still does not when it has no place in the sidebar.
        for galleryID in touched.subtracting(found) where galleries[galleryID]?.key != nil { return nil }
        return result
    }
}
