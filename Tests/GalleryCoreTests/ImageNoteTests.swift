import Foundation
import Testing

@testable import GalleryCore

/// A library of two galleries, "cats" (c0…c3, c1 with an origin) and "dogs" (d0), recording saves.
@MainActor private final class Library {
    let library: GalleryLibrary
    var saves: [GalleryState] = []
    static let origin = ImageOrigin(
        arrival: .drop, added: "2026-11-26T22:40:00Z", link: "https://cats.test/post", altText: "A cat")

    init() {
        var images = (0..<4).map {
            GalleryImage(id: ImageID("c\($0)"), url: "https://cats.test/\($0).png", aspectRatio: 1)
        }
        images[1].origin = Self.origin
        library = GalleryLibrary(
            state: GalleryState(galleries: [
                Gallery(id: "cats", name: "Cats", images: images),
                Gallery(
                    id: "dogs", name: "Dogs",
                    images: [GalleryImage(id: ImageID("d0"), url: "https://d.test/0.png", aspectRatio: 1)]),
            ]))
        library.onSave = { [unowned self] in saves.append($0) }
    }

    func image(_ id: String) -> GalleryImage? {
        guard let (galleryID, index) = library.location(of: ImageID(id)) else { return nil }
        return library.cells(of: galleryID)[index].image
    }
    func savedImages(_ galleryID: String) -> [GalleryImage] {
        saves.last?.galleries.first { $0.id == galleryID }?.images ?? []
    }
}

@MainActor @Suite struct ImageNoteTests {
    @Test func aNoteIsOneSavedUndoableStep() {
        let l = Library()
        #expect(l.library.setNote("For the kitchen\nwall", of: ImageID("c1")))
        #expect(l.image("c1")?.note == "For the kitchen\nwall")
        #expect(l.library.history.undoName == "Edit Note")
        #expect(l.savedImages("cats")[1].note == "For the kitchen\nwall")
        #expect(l.savedImages("cats")[1].origin == Library.origin)
        #expect(l.library.setNote("Bathroom", of: ImageID("c1")))
        #expect(l.library.undo() == ["cats"])
        #expect(l.image("c1")?.note == "For the kitchen\nwall")
        #expect(l.library.undo() == ["cats"])
        #expect(l.image("c1")?.note == nil)
        #expect(l.savedImages("cats")[1].note == nil)
        #expect(l.library.redo() == ["cats"])
        #expect(l.image("c1")?.note == "For the kitchen\nwall")
    }

    @Test func anUnchangedOrBlankNoteChangesNothing() {
        let l = Library()
        #expect(!l.library.setNote("   \n ", of: ImageID("c0")))
        #expect(!l.library.setNote(nil, of: ImageID("c0")))
        #expect(!l.library.setNote("x", of: ImageID("nobody")))
        #expect(l.saves.isEmpty)
        #expect(l.library.setNote("x", of: ImageID("c0")))
        #expect(!l.library.setNote("x", of: ImageID("c0")))
        #expect(l.library.setNote(" \n", of: ImageID("c0")))
        #expect(l.image("c0")?.note == nil)
        #expect(l.saves.count == 2)
    }

    @Test func reorderingAndDeletingKeepTheNoteAndOrigin() {
        let l = Library()
        l.library.setNote("keep", of: ImageID("c1"))
        #expect(l.library.move([ImageID("c1")], in: "cats", toInsertionIndex: 3))
        #expect(l.image("c1")?.note == "keep")
        l.library.undo()
        #expect(l.image("c1")?.note == "keep")
        l.library.remove([ImageID("c1")], from: "cats")
        #expect(l.image("c1") == nil)
        l.library.undo()
        #expect(l.image("c1")?.note == "keep")
        #expect(l.image("c1")?.origin == Library.origin)
        l.library.redo()
        l.library.undo()
        #expect(l.savedImages("cats").map(\.note) == [nil, "keep", nil, nil])
    }

    @Test func movingToAnotherGalleryCarriesThemThroughUndoAndRedo() {
        let l = Library()
        l.library.setNote("keep", of: ImageID("c1"))
        l.library.transfer([ImageID("c1")], from: "cats", to: "dogs", copy: false)
        #expect(l.library.location(of: ImageID("c1"))?.galleryID == "dogs")
        #expect(l.savedImages("dogs").last?.note == "keep")
        #expect(l.savedImages("dogs").last?.origin == Library.origin)
        l.library.undo()
        #expect(l.library.location(of: ImageID("c1"))?.galleryID == "cats")
        #expect(l.image("c1")?.note == "keep")
        l.library.redo()
        #expect(l.image("c1")?.note == "keep")
        // A note written after the move is undone on its own, where the image is now.
        l.library.setNote("changed", of: ImageID("c1"))
        l.library.undo()
        #expect(l.image("c1")?.note == "keep")
    }

    @Test func aCopyHasItsOwnNoteFromThenOn() throws {
        let l = Library()
        l.library.setNote("keep", of: ImageID("c1"))
        let copy = try #require(l.library.transfer([ImageID("c1")], from: "cats", to: "dogs", copy: true).first)
        #expect(l.image(copy.rawValue)?.note == "keep")
        #expect(l.image(copy.rawValue)?.origin == Library.origin)
        l.library.setNote("the copy's", of: copy)
        #expect(l.image("c1")?.note == "keep")
        l.library.undo()
        l.library.undo()
        #expect(l.image(copy.rawValue) == nil)
        l.library.redo()
        #expect(l.image(copy.rawValue)?.note == "keep")
    }
}

@Suite struct GalleryImageFieldsTests {
    @Test func fieldsSetAndClearedLeaveTheImageAsItWas() {
        let plain = GalleryImage(id: ImageID("a"), url: "https://a.test/a.png", aspectRatio: 1.5)
        var edited = plain
        edited.note = "keep"
        edited.tags.append("cats")
        edited.unknownFields["later"] = RawJSON(.string("x"))
        #expect(edited != plain)
        #expect(
            edited.note == "keep" && edited.tags == ["cats"] && edited.unknownFields == ["later": RawJSON(.string("x"))]
        )
        edited.note = nil
        edited.tags = []
        edited.unknownFields = [:]
        #expect(edited == plain)
        #expect(edited.hashValue == plain.hashValue)
    }

    @Test func aCopyChangedLeavesTheOriginalAlone() {
        var first = GalleryImage(id: ImageID("a"), url: "https://a.test/a.png", aspectRatio: 1)
        first.note = "first"
        var second = first
        second.note = "second"
        second.tags = ["b"]
        #expect(first.note == "first" && first.tags.isEmpty)
        #expect(second.note == "second" && second.tags == ["b"])
    }
}
