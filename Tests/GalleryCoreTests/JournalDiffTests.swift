import Testing

@testable import GalleryCore

/// A library of 50,000 images in two galleries, with notes, tags and origins, carried over.
private let large: (state: GalleryState, replica: LibraryReplica) = {
    let images = (0..<50_000).map { index in
        var image = GalleryImage(
            id: ImageID(RandomID.make()), url: "https://cdn\(index % 97).example.org/photos/\(index).jpg",
            aspectRatio: 1.5)
        image.note = index % 3 == 0 ? "note \(index)" : nil
        image.tags = ["colour/red", "set\(index % 50)"]
        image.origin = ImageOrigin(arrival: .drop, added: "2026-11-26T22:40:00Z", altText: "photo \(index)")
        return image
    }
    let state = GalleryState(galleries: [
        Gallery(name: "Photos", images: Array(images.prefix(45_000))),
        Gallery(name: "Kitchen", images: Array(images.suffix(5_000))),
    ])
    return (state, LibraryReplica(carryingOver: state, by: "alpha"))
}()

@Suite("An edit's journal entry is the size of the edit")
struct JournalDiffTests {
    /// The entry an edit of the large library writes (the random edits of `JournalConvergenceTests` check that
    /// such entries make their edits).
    private func entry(_ edit: (inout GalleryState) -> Void) -> (changes: Int, bytes: Int) {
        var new = large.state
        edit(&new)
        let changes = large.replica.changes(from: large.state, to: new)
        let entry = JournalEntry(stamp: JournalStamp(counter: 2, computer: RandomID.make()), changes: changes)
        return (changes.count, JournalLog.record(entry).count)
    }

    @Test func aMoveATagANoteEachWriteOneSmallChange() {
        let edits: [(String, (inout GalleryState) -> Void)] = [
            ("move", { $0.galleries[0].images.insert($0.galleries[0].images.remove(at: 100), at: 40_000) }),
            ("move to the start", { $0.galleries[0].images.insert($0.galleries[0].images.removeLast(), at: 0) }),
            ("move to another gallery", { $0.galleries[1].images.insert($0.galleries[0].images.remove(at: 7), at: 3) }),
            ("tag", { $0.galleries[0].images[30_000].tags.append("cats/grey") }),
            ("note", { $0.galleries[1].images[4_000].note = "For the kitchen wall" }),
            ("delete", { $0.galleries[0].images.remove(at: 12_345) }),
            ("rename", { $0.galleries[1].name = "Kitchen ideas" }),
            ("delete a gallery", { $0.galleries.remove(at: 1) }),
            ("sidebar", { $0.sidebarVisible = false }),
        ]
        for (name, edit) in edits {
            let (changes, bytes) = entry(edit)
            #expect(changes == 1, "\(name)")
            #expect(bytes <= 300, "\(name): \(bytes) bytes")
        }
        let (changes, bytes) = entry {
            $0.galleries[0].images.insert(GalleryImage(url: "https://e.org/new.png", aspectRatio: 1), at: 20_000)
        }
        #expect(changes == 2 && bytes <= 400)
    }

    @Test func aReorderOfManyImagesWritesOneKeyForEachImageMoved() {
        let (changes, _) = entry { state in
            let moved = state.galleries[0].images[1_000..<1_010]
            state.galleries[0].images.removeSubrange(1_000..<1_010)
            state.galleries[0].images.insert(contentsOf: moved, at: 30_000)
        }
        #expect(changes == 10)
    }

    @Test func entriesMadeBeforeTheyAreTakenInAreTheOnesACommitMakes() {
        var new = large.state
        new.galleries[1].images += (0..<20_000).map { GalleryImage(url: "https://e.org/\($0).png", aspectRatio: 1) }
        new.galleries[0].images.removeFirst()
        let changes = large.replica.changes(from: large.state, to: new)
        let entries = large.replica.entries(committing: changes, by: "beta")
        #expect(entries.count > 1, "a large edit is written in several entries")
        var committed = large.replica
        #expect(committed.commit(changes, by: "beta") == entries)
        var applied = large.replica
        for entry in entries { applied.apply(entry) }
        #expect(applied == committed)
        #expect(applied.state == new)
    }
}
