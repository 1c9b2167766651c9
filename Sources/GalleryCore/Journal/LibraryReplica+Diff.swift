extension LibraryReplica {
    /// Where items of one order go in another: new position keys for the items that need one (by index in the new
    /// order), and how many items at each end kept their places.
    struct KeyAssignment {
        var newKeys: [(index: Int, key: String)] = []
        var prefix = 0
        var suffix = 0
    }

    /// The few changes that make `old` into `new`; `old` must be this replica's `state` (the library before the
    /// edit). The work is proportional to what changed: galleries are compared first (equal arrays that share their
    /// storage compare at once), and in a changed gallery only the images between its unchanged ends; an image
    /// moved there gets one key between its new neighbours', the others (a longest run of them in their old order)
    /// keep theirs.
    public func changes(from old: GalleryState, to new: GalleryState) -> [JournalChange] {
        var changes: [JournalChange] = []
        if !Self.sameSettings(old, new) {
            let before = JournalFields.stateFields(old)
            let after = JournalFields.stateFields(new)
            for name in Set(before.keys).union(after.keys).sorted() where before[name] != after[name] {
                changes.append(.setSetting(name: name, value: after[name]))
            }
        }
        guard old.galleries != new.galleries else { return changes }
        let oldGalleries = Dictionary(old.galleries.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for (index, key) in Self.assignKeys(old: old.galleries, new: new.galleries, id: \.id, key: key(ofGallery:))
            .newKeys
        {
            changes.append(.placeGallery(new.galleries[index].id, key: key))
        }
        var left: [ImageID: (image: GalleryImage, galleryDeleted: Bool)] = [:]
        var arrivals: [GalleryImage] = []
        for gallery in new.galleries {
            let before = oldGalleries[gallery.id]
            let fieldsBefore = before.map(JournalFields.galleryFields) ?? [:]
            if before?.name != gallery.name || before?.unknownFields != gallery.unknownFields {
                let fieldsAfter = JournalFields.galleryFields(gallery)
                for name in Set(fieldsBefore.keys).union(fieldsAfter.keys).sorted()
                where fieldsBefore[name] != fieldsAfter[name] {
                    changes.append(.setGalleryField(gallery.id, name: name, value: fieldsAfter[name]))
                }
            }
            // Back (an undo), or shown though deleted (another computer placed images in it after): kept from now
            // on, even emptied, as the window shows it.
            if galleries[gallery.id]?.isDeleted?.value == true {
                changes.append(.setGalleryDeleted(gallery.id, false))
            }
            let oldImages = before?.images ?? []
            guard oldImages != gallery.images else { continue }
            let assignment = Self.assignKeys(old: oldImages, new: gallery.images, id: \.id, key: key(of:))
            for (index, key) in assignment.newKeys {
                changes.append(
                    .placeImage(gallery.images[index].id, JournalChange.ImagePlacement(gallery: gallery.id, key: key)))
            }
            let ends =
                Array(zip(oldImages.prefix(assignment.prefix), gallery.images.prefix(assignment.prefix)))
                + zip(oldImages.suffix(assignment.suffix), gallery.images.suffix(assignment.suffix))
            for (imageBefore, imageAfter) in ends where imageBefore != imageAfter {
                changes += Self.fieldChanges(imageBefore, imageAfter)
            }
            var middle = Dictionary(
                oldImages[assignment.prefix..<oldImages.count - assignment.suffix].map { ($0.id, $0) },
                uniquingKeysWith: { first, _ in first })
            for image in gallery.images[assignment.prefix..<gallery.images.count - assignment.suffix] {
                if let imageBefore = middle.removeValue(forKey: image.id) {
                    changes += Self.fieldChanges(imageBefore, image)
                } else {
                    arrivals.append(image)
                }
            }
            for (id, image) in middle { left[id] = (image, false) }
        }
        let newGalleryIDs = Set(new.galleries.map(\.id))
        for gallery in old.galleries where !newGalleryIDs.contains(gallery.id) {
            // Its images are hidden by the deletion itself, one change whatever their number.
            changes.append(.setGalleryDeleted(gallery.id, true))
            for image in gallery.images { left[image.id] = (image, true) }
        }
        for image in arrivals {
            if let (imageBefore, _) = left.removeValue(forKey: image.id) {
                changes += Self.fieldChanges(imageBefore, image)
            } else if let imageBefore = images[image.id]?.image {
                // Back from a deletion (an undo): its fields are still here.
                changes += Self.fieldChanges(imageBefore, image)
            } else {
                changes.append(.addImage(image))
            }
        }
        for (id, leaver) in left.sorted(by: { $0.key.rawValue < $1.key.rawValue }) where !leaver.galleryDeleted {
            changes.append(.placeImage(id, nil))
        }
        return changes
    }

    private static func sameSettings(_ old: GalleryState, _ new: GalleryState) -> Bool {
        old.version == new.version && old.shownGalleryID == new.shownGalleryID
            && old.sidebarVisible == new.sidebarVisible && old.playAnimations == new.playAnimations
            && old.smartGalleries == new.smartGalleries && old.unknownFields == new.unknownFields
    }

    /// One change for each field that differs.
    static func fieldChanges(_ before: GalleryImage, _ after: GalleryImage) -> [JournalChange] {
        guard before != after else { return [] }
        let fieldsBefore = JournalFields.imageFields(before)
        let fieldsAfter = JournalFields.imageFields(after)
        return Set(fieldsBefore.keys).union(fieldsAfter.keys).sorted().compactMap { name in
            fieldsBefore[name] == fieldsAfter[name]
                ? nil : .setImageField(after.id, name: name, value: fieldsAfter[name])
        }
    }

    /// Keys for `new` (items of `old` reordered, some gone, some added; `key` gives an old item's key): the items
    /// of a longest run in their old order keep their keys, and each other run of items gets keys between the keys
    /// of the items around it. Two neighbours with one key (two computers placed items at one spot) have no key
    /// between them: the later one then gets a new key too.
    static func assignKeys<Element, ID: Hashable>(
        old: [Element], new: [Element], id: (Element) -> ID, key: (ID) -> String?
    ) -> KeyAssignment {
        var assignment = KeyAssignment()
        let shortest = min(old.count, new.count)
        while assignment.prefix < shortest, id(old[assignment.prefix]) == id(new[assignment.prefix]),
            key(id(new[assignment.prefix])) != nil
        {
            assignment.prefix += 1
        }
        while assignment.suffix < shortest - assignment.prefix,
            id(old[old.count - 1 - assignment.suffix]) == id(new[new.count - 1 - assignment.suffix]),
            key(id(new[new.count - 1 - assignment.suffix])) != nil
        {
            assignment.suffix += 1
        }
        let newMiddle = assignment.prefix..<new.count - assignment.suffix
        var oldPositions: [ID: Int] = [:]
        for index in assignment.prefix..<old.count - assignment.suffix { oldPositions[id(old[index])] = index }
        let positions = new[newMiddle].map { element in key(id(element)) == nil ? nil : oldPositions[id(element)] }
        var keeps = [Bool](repeating: true, count: new.count)
        for index in newMiddle { keeps[index] = false }
        for index in LongestIncreasingSubsequence.indices(positions) { keeps[newMiddle.lowerBound + index] = true }

        var low: String? = assignment.prefix > 0 ? key(id(new[assignment.prefix - 1])) : nil
        var index = assignment.prefix
        while index < new.count {
            if keeps[index], let kept = key(id(new[index])), low.map({ kept >= $0 }) ?? true {
                low = kept
                index += 1
                // The rest are the unmoved end, in their old order.
                if index >= newMiddle.upperBound { break }
                continue
            }
            let start = index
            index += 1
            while index < new.count, !keeps[index] || low.map({ key(id(new[index]))! <= $0 }) ?? false { index += 1 }
            let high = index < new.count ? key(id(new[index])) : nil
            let keys = PositionKey.keys(index - start, between: low, high)
            guard keys.allSatisfy({ $0.utf8.count <= PositionKey.maximumLength }) else {
                // Keys grown long (thousands of inserts at one spot): the whole order gets even keys again.
                return KeyAssignment(newKeys: PositionKey.evenlySpaced(new.count).enumerated().map { ($0, $1) })
            }
            for (offset, newKey) in keys.enumerated() { assignment.newKeys.append((start + offset, newKey)) }
            low = keys.last
        }
        return assignment
    }

    /// Whether taking `change` in would change no value: another computer's change this replica took in, found
    /// again in an edit made on a library from before it. A place is never held: its key is made anew.
    public func holds(_ change: JournalChange) -> Bool {
        switch change {
        case .addImage(let image): return images[image.id]?.base?.value == image
        case .setImageField(let id, let name, let value):
            guard let image = images[id]?.image else { return false }
            var set = image
            return JournalFields.setImageField(name, to: value, in: &set) && set == image
        case .setGalleryField(let id, let name, let value):
            return galleries[id].map { $0.fields[name]?.value == value } ?? false
        case .setGalleryDeleted(let id, let isDeleted):
            return galleries[id]?.isDeleted.map { $0.value == isDeleted } ?? !isDeleted
        case .setSetting(let name, let value): return settings[name].map { $0.value == value } ?? (value == nil)
        case .placeImage, .placeGallery: return false
        }
    }
}
