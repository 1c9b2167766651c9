import Foundation
import Testing

@testable import GalleryCore

private func image(_ id: String, note: String? = nil, tags: [String] = []) -> GalleryImage {
    var image = GalleryImage(id: ImageID(id), url: "https://e.org/\(id).png", aspectRatio: 1)
    image.note = note
    image.tags = tags
    return image
}

private func images(_ ids: String) -> [GalleryImage] { ids.split(separator: " ").map { image(String($0)) } }

/// Two galleries, G (a b c d) and K (k1 k2), as both computers last shared them.
private let base = GalleryState(galleries: [
    Gallery(id: "g", name: "G", images: ["a", "b", "c", "d"].map { image($0) }),
    Gallery(id: "k", name: "K", images: ["k1", "k2"].map { image($0) }),
])

/// The merge each computer makes of the other's file: both must be the same.
private func mergedBothWays(_ one: GalleryState, _ other: GalleryState, base: GalleryState = base) -> GalleryState {
    let merged = GalleryState.merged(base: base, theirs: one, ours: other)
    let converse = GalleryState.merged(base: base, theirs: other, ours: one)
    #expect(merged == converse, "the two computers merge differently")
    return merged
}

private func ids(_ state: GalleryState, _ galleryID: String) -> [String] {
    state.galleries.first { $0.id == galleryID }?.images.map(\.id.rawValue) ?? []
}

private func edited(_ edit: (inout GalleryState) -> Void) -> GalleryState {
    var state = base
    edit(&state)
    return state
}

@Suite("Two computers' edits merged")
struct SyncMergeTests {
    @Test func imagesAddedOnBothSidesAreAllIn() {
        let one = edited { $0.galleries[0].images.append(image("x")) }
        let other = edited {
            $0.galleries[0].images.insert(image("y"), at: 0)
            $0.galleries[1].images.append(image("z"))
        }
        let merged = mergedBothWays(one, other)
        #expect(ids(merged, "g") == ["y", "a", "b", "c", "d", "x"])
        #expect(ids(merged, "k") == ["k1", "k2", "z"])
    }

    @Test func aMoveOnOneSideAndADeleteOnTheOtherAreBothKept() {
        let one = edited { $0.galleries[0].images = images("d a b c") }
        let other = edited { $0.galleries[0].images.remove(at: 1) }  // b deleted
        #expect(ids(mergedBothWays(one, other), "g") == ["d", "a", "c"])
    }

    @Test func concurrentReordersOfOneGalleryKeepEachSidesMoves() {
        let one = edited { $0.galleries[0].images = images("b c d a") }
        let other = edited { $0.galleries[0].images = images("c a b d") }  // c first
        #expect(ids(mergedBothWays(one, other), "g") == ["c", "b", "d", "a"])
    }

    @Test func aCopyIntoAnotherGalleryAndANoteOnTheOriginalAreBothKept() {
        let one = edited { state in
            var copy = state.galleries[0].images[0]
            copy.id = ImageID("a-copy")
            state.galleries[1].images.append(copy)
        }
        let other = edited { $0.galleries[0].images[0].note = "the first" }
        let merged = mergedBothWays(one, other)
        #expect(ids(merged, "k") == ["k1", "k2", "a-copy"])
        #expect(merged.galleries[0].images[0].note == "the first")
    }

    @Test func anImageMovedToAnotherGalleryTakesTheOtherSidesNoteAlong() {
        let one = edited { state in
            let moved = state.galleries[0].images.remove(at: 2)  // c into K
            state.galleries[1].images.append(moved)
        }
        let other = edited { $0.galleries[0].images[2].note = "kept for the light" }
        let merged = mergedBothWays(one, other)
        #expect(ids(merged, "g") == ["a", "b", "d"])
        #expect(ids(merged, "k") == ["k1", "k2", "c"])
        #expect(merged.galleries[1].images[2].note == "kept for the light")
    }

    @Test func notesWrittenOnBothSidesAreBothKept() {
        let one = edited { $0.galleries[0].images[0].note = "from the laptop" }
        let other = edited { $0.galleries[0].images[0].note = "from the desktop" }
        #expect(mergedBothWays(one, other).galleries[0].images[0].note == "from the desktop\n\nfrom the laptop")
    }

    @Test func tagsAddedOnOneSideAndRemovedOnTheOtherAreBothApplied() {
        let tagged = edited { $0.galleries[0].images[0].tags = ["red", "sea"] }
        var one = tagged
        one.galleries[0].images[0].tags.append("night")
        var other = tagged
        other.galleries[0].images[0].tags.removeAll { $0 == "red" }
        #expect(mergedBothWays(one, other, base: tagged).galleries[0].images[0].tags == ["sea", "night"])
    }

    @Test func aDeleteAgainstAnEditOfTheSameImageKeepsTheEditedImage() {
        let one = edited { $0.galleries[0].images.remove(at: 0) }
        let other = edited { $0.galleries[0].images[0].note = "do not lose me" }
        let merged = mergedBothWays(one, other)
        #expect(ids(merged, "g") == ["a", "b", "c", "d"])
        #expect(merged.galleries[0].images[0].note == "do not lose me")
        // What the app records by itself (the image's kept original, its shape) saves nothing from a delete.
        let recorded = edited { $0.galleries[0].images[0].aspectRatio = 1.5 }
        #expect(ids(mergedBothWays(one, recorded), "g") == ["b", "c", "d"])
    }

    @Test func aKeptOriginalRecordedOnOneSideAndANoteAndTagsOnTheOtherAllReachTheImage() {
        let original = KeptOriginal(
            sha256: String(repeating: "a", count: 64), byteCount: 3, pixelWidth: 2, pixelHeight: 1, format: "png")
        let one = edited { state in
            state.galleries[0].images[1].original = original
            state.galleries[0].images[1].origin = ImageOrigin(arrival: .drop, page: "https://e.org/page")
        }
        let other = edited { state in
            state.galleries[0].images[1].note = "the harbour"
            state.galleries[0].images[1].tags = ["sea"]
        }
        let image = mergedBothWays(one, other).galleries[0].images[1]
        #expect(image.original == original)
        #expect(image.origin?.page == "https://e.org/page")
        #expect(image.note == "the harbour")
        #expect(image.tags == ["sea"])
    }

    @Test func theLineageAnOlderVersionWroteIsReadAndLeftOutWithTheNewImageFieldsKept() throws {
        var state = base
        state.galleries[0].images[0].note = "n"
        state.galleries[0].images[0].tags = ["t"]
        state.galleries[0].images[0].origin = ImageOrigin(arrival: .paste)
        var stamped = state
        stamped.unknownFields[StateFileFormat.revisionField] = RawJSON(.string("r2"))
        stamped.unknownFields[StateFileFormat.ancestorsField] = RawJSON(.array([.string("r1")]))
        let read = try StateFileFormat.decode(StateFileFormat.encode(stamped))
        #expect(read == stamped)
        #expect(Lineage.withoutLineage(read) == state)
    }

    @Test func galleriesCreatedOnBothSidesAreBothInTheSameOrder() {
        let one = edited { $0.galleries.append(Gallery(id: "n1", name: "Laptop's")) }
        let other = edited { $0.galleries.append(Gallery(id: "n2", name: "Desktop's")) }
        let merged = mergedBothWays(one, other).galleries.map(\.id)
        #expect(merged.count == 4 && Set(merged) == ["g", "k", "n1", "n2"] && merged.starts(with: ["g", "k"]))
    }

    @Test func aRenameAndAReorderOfGalleriesAreBothKept() {
        let one = edited { $0.galleries[0].name = "Sea" }
        let other = edited { $0.galleries.reverse() }
        let merged = mergedBothWays(one, other)
        #expect(merged.galleries.map(\.name) == ["K", "Sea"])
    }

    @Test func twoRenamesOfOneGalleryEndTheSameOnBothSides() {
        let one = edited { $0.galleries[0].name = "Sea" }
        let other = edited { $0.galleries[0].name = "Ocean" }
        #expect(["Sea", "Ocean"].contains(mergedBothWays(one, other).galleries[0].name))
    }

    @Test func aGalleryDeletedOnOneSideGoesUnlessTheOtherChangedIt() {
        let deleted = edited { $0.galleries.remove(at: 1) }
        let untouched = edited { $0.galleries[0].images.append(image("x")) }
        #expect(mergedBothWays(deleted, untouched).galleries.map(\.id) == ["g"])
        let changed = edited { $0.galleries[1].images.append(image("k3")) }
        #expect(ids(mergedBothWays(deleted, changed), "k") == ["k1", "k2", "k3"])
    }

    @Test func withNoCommonStateEverythingEitherSideHasIsKept() {
        let one = GalleryState(galleries: [Gallery(id: "g", name: "G", images: [image("a"), image("b")])])
        let other = GalleryState(galleries: [Gallery(id: "g", name: "G", images: [image("b"), image("c")])])
        let merged = GalleryState.merged(theirs: one, ours: other)
        #expect(merged == GalleryState.merged(theirs: other, ours: one))
        #expect(Set(ids(merged, "g")) == ["a", "b", "c"])
    }

    @Test func whatCameInIsSaidInASentence() {
        let after = edited { $0.galleries[0].images += (0..<12).map { image("new\($0)") } }
        #expect(IncomingChanges(before: base, after: after).message == "12 images added on another computer")
        let one = edited { $0.galleries[0].images.removeFirst() }
        #expect(IncomingChanges(before: base, after: one).message == "1 image deleted on another computer")
    }
}
