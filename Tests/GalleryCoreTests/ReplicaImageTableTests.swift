import Testing

@testable import GalleryCore

/// `count` images added in two galleries, each in an entry of its own, then a note on every third, every fifth moved
/// to the other gallery and every seventh deleted, each by another computer.
private func entries(count: Int) -> [JournalEntry] {
    var entries: [JournalEntry] = []
    for number in 0..<count {
        let id = ImageID("image-\(number)")
        let image = GalleryImage(id: id, url: "https://e.org/\(number).png", aspectRatio: 1.5)
        let place = JournalChange.ImagePlacement(gallery: "g\(number % 2)", key: "k\(number)")
        entries.append(
            JournalEntry(
                stamp: JournalStamp(counter: UInt64(number + 1), computer: "alpha"),
                changes: [.addImage(image), .placeImage(id, place)]))
        let later = UInt64(count + number + 1)
        if number % 3 == 0 {
            entries.append(
                JournalEntry(
                    stamp: JournalStamp(counter: later, computer: "bravo"),
                    changes: [.setImageField(id, name: "note", value: RawJSON(.string("note \(number)")))]))
        }
        if number % 5 == 0 {
            let moved = JournalChange.ImagePlacement(gallery: "g\((number + 1) % 2)", key: "m\(number)")
            entries.append(
                JournalEntry(
                    stamp: JournalStamp(counter: later, computer: "charlie"), changes: [.placeImage(id, moved)]))
        }
        if number % 7 == 0 {
            entries.append(
                JournalEntry(stamp: JournalStamp(counter: later, computer: "delta"), changes: [.placeImage(id, nil)]))
        }
    }
    return entries
}

private func replica(_ entries: some Sequence<JournalEntry>) -> LibraryReplica {
    var replica = LibraryReplica()
    for entry in entries { replica.apply(entry) }
    return replica
}

/// Four galleries of 260 images carried over: a snapshot of five records (the table, then a section a gallery). An
/// array grown one append at a time would hold room for 2,048 of their 1,040.
private func fourGalleries() -> LibraryReplica {
    let galleries = (0..<4).map { gallery in
        Gallery(
            id: "gallery-\(gallery)", name: "G\(gallery)",
            images: (0..<260).map { GalleryImage(url: "https://e.org/\(gallery)/\($0).png", aspectRatio: 1) })
    }
    return LibraryReplica(carryingOver: GalleryState(galleries: galleries), by: "alpha")
}

@Suite("The replica's table of images")
struct ReplicaImageTableTests {
    @Test func imagesTakenInInAnotherOrderMakeAnEqualReplicaThatHashesAlike() {
        let made = entries(count: 300)
        let forward = replica(made)
        let backward = replica(made.reversed())
        #expect(forward.images.map(\.id) != backward.images.map(\.id), "the tables hold their images in one order")
        #expect(forward == backward)
        #expect(forward.hashValue == backward.hashValue)
        #expect(Set([forward, backward]).count == 1)
        // Merged either way, or into itself, it is the same replica.
        var merged = backward
        merged.merge(forward)
        let again = merged
        merged.merge(again)
        #expect(merged == forward && merged.images.count == 300)
    }

    @Test func replicasThatDifferInOneRegisterOrOneImageAreNotEqual() {
        let made = entries(count: 300)
        let forward = replica(made)
        var noted = replica(made.reversed())
        noted.apply(
            JournalEntry(
                stamp: JournalStamp(counter: 10_000, computer: "alpha"),
                changes: [.setImageField(ImageID("image-17"), name: "note", value: RawJSON(.string("later")))]))
        #expect(noted != forward)
        #expect(noted.hashValue != forward.hashValue)
        let fewer = replica(made.filter { $0.changes.first?.imageID != ImageID("image-17") })
        #expect(fewer.images.count == 299)
        #expect(fewer != forward)
        // As many images, one of them another.
        var other = fewer
        other.apply(
            JournalEntry(
                stamp: JournalStamp(counter: 1, computer: "alpha"),
                changes: [.setImageField(ImageID("someone-else"), name: "note", value: nil)]))
        #expect(other.images.count == forward.images.count)
        #expect(other != forward)
    }

    @Test func everyImageIsFoundAsTheTableGrowsAndNoOtherIs() {
        var table = ReplicaImageTable()
        for number in 0..<5_000 {
            let place = JournalChange.ImagePlacement(gallery: "g", key: "k\(number)")
            table.modify(ImageID("image-\(number)")) {
                $0.mergePlacement(JournalRegister(stamp: JournalStamp(counter: 1, computer: "alpha"), value: place))
            }
        }
        #expect(table.count == 5_000)
        #expect((0..<5_000).allSatisfy { table[ImageID("image-\($0)")]?.placement?.value?.key == "k\($0)" })
        #expect((5_000..<6_000).allSatisfy { table[ImageID("image-\($0)")] == nil })
        #expect(table.map(\.id) == (0..<5_000).map { ImageID("image-\($0)") })
        // Changed in place: no image added.
        table.modify(ImageID("image-42")) { $0.placement = nil }
        #expect(table.count == 5_000 && table[ImageID("image-42")]?.placement == nil)
    }

    @Test func aSnapshotReadHoldsNoRoomBeyondItsImages() throws {
        let replica = fourGalleries()
        let read = try #require(JournalSnapshot.decode(JournalSnapshot(replica: replica, covers: [:]).encoded))
        #expect(read.replica == replica)
        #expect(read.replica.images.count == 1_040)
        #expect(read.replica.images.capacity <= 1_040 + 1_040 / 16)
    }

    @Test func theRestOfALaunchTakingInTheShownGalleryHoldsNoRoomBeyondItsImages() throws {
        let replica = fourGalleries()
        let bytes = JournalSnapshot(replica: replica, covers: [:]).encoded
        let found = bytes.withUnsafeBufferPointer { JournalRecord.read($0, from: 0, limit: JournalSnapshot.limit) }
        let contents = try #require(
            bytes.withUnsafeBufferPointer {
                JournalSnapshot.readContents(UnsafeBufferPointer(rebasing: $0[found.payloads[0]]))
            })
        func read(_ sections: [Int]) -> LibraryReplica {
            var read = contents
            read.reserveImages(ofSections: sections)
            for index in sections {
                let isRead = bytes.withUnsafeBufferPointer {
                    JournalSnapshot.readSection(
                        UnsafeBufferPointer(rebasing: $0[found.payloads[index + 1]]), contents.sections[index],
                        of: &read)
                }
                #expect(isRead)
            }
            return read.snapshot.replica
        }
        // As a launch reads it: the shown gallery first, then the rest, which takes the shown one in.
        let shown = read([2])
        var rest = read([0, 1, 3])
        #expect(shown.images.capacity <= 260 + 260 / 16)
        rest.merge(shown)
        #expect(rest == replica)
        #expect(rest.images.capacity <= 1_040 + 1_040 / 16)
    }
}
