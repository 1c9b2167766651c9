import Foundation
import Testing

@testable import GalleryCore

private func image(_ name: String) -> GalleryImage {
    GalleryImage(id: ImageID(name), url: "file:///photos/\(name).jpg", aspectRatio: 1.5)
}

@MainActor private func library() -> GalleryLibrary {
    GalleryLibrary(
        state: GalleryState(galleries: [
            Gallery(id: "cats", name: "Cats", images: (0..<3).map { image("c\($0)") }),
            Gallery(id: "dogs", name: "Dogs"),
        ]))
}

@MainActor private func ids(_ library: GalleryLibrary, _ galleryID: String) -> [String] {
    library.cells(of: galleryID).map(\.id.rawValue)
}

/// A folder or a file chooser's selection: images that arrive one by one, undone as one step.
@MainActor @Suite struct ArrivalBatchTests {
    @Test func imagesArrivingInAnyOrderAreOneUndoStep() throws {
        let l = library()
        let placeholders = try #require(l.insertPlaceholders(in: "cats", at: 1, labels: ["a", "b", "c", "d"]))
        l.groupArrivals(placeholders)
        // They arrive out of order, over several passes of the main loop; each shows at once.
        l.fulfillPlaceholder(placeholders[2], with: image("x"))
        #expect(l.history.undoStack.isEmpty)
        l.fulfillPlaceholders([(placeholders[0], image("y")), (placeholders[3], image("z"))])
        #expect(l.history.undoStack.isEmpty)
        #expect(l.state.galleries[0].images.count == 6)
        l.fulfillPlaceholder(placeholders[1], with: image("w"))
        #expect(l.history.undoStack.count == 1)
        #expect(l.history.undoName == "Add 4 Images")
        let added = ["c0"] + placeholders.map(\.rawValue) + ["c1", "c2"]
        #expect(ids(l, "cats") == added)
        #expect(l.undo() == ["cats"])
        #expect(ids(l, "cats") == ["c0", "c1", "c2"])
        #expect(l.state.galleries[0].images.map(\.id.rawValue) == ["c0", "c1", "c2"])
        #expect(!l.history.canUndo)
        #expect(l.redo() == ["cats"])
        #expect(ids(l, "cats") == added)
    }

    @Test func aPlaceholderThatFailsOrIsDeletedLeavesTheRestOneStep() throws {
        let l = library()
        let placeholders = try #require(l.insertPlaceholders(in: "dogs", labels: ["a", "b", "c", "d"]))
        l.groupArrivals(placeholders)
        l.fulfillPlaceholder(placeholders[0], with: image("x"))
        l.discardPlaceholder(placeholders[1])  // not an image after all
        l.remove([placeholders[2]], from: "dogs")  // the user gave up waiting
        #expect(l.history.undoStack.isEmpty)
        l.fulfillPlaceholder(placeholders[3], with: image("y"))
        #expect(l.history.undoStack.count == 1)
        #expect(l.history.undoName == "Add 2 Images")
        #expect(ids(l, "dogs") == [placeholders[0].rawValue, placeholders[3].rawValue])
        l.undo()
        #expect(ids(l, "dogs") == [])
    }

    @Test func anImageDeletedBeforeTheBatchEndsIsNotInItsStep() throws {
        let l = library()
        let placeholders = try #require(l.insertPlaceholders(in: "dogs", labels: ["a", "b", "c"]))
        l.groupArrivals(placeholders)
        l.fulfillPlaceholder(placeholders[0], with: image("x"))
        l.remove([placeholders[0]], from: "dogs")
        #expect(l.history.undoName == "Delete Image")
        l.fulfillPlaceholders([(placeholders[1], image("y")), (placeholders[2], image("z"))])
        #expect(l.history.undoName == "Add 2 Images")
        l.undo()
        #expect(ids(l, "dogs") == [])
        l.undo()
        #expect(ids(l, "dogs") == [placeholders[0].rawValue])
    }

    @Test func aBatchWhoseGalleryIsDeletedRecordsNothing() throws {
        let l = library()
        let placeholders = try #require(l.insertPlaceholders(in: "dogs", labels: ["a", "b"]))
        l.groupArrivals(placeholders)
        l.fulfillPlaceholder(placeholders[0], with: image("x"))
        l.deleteGallery("dogs")
        #expect(l.history.undoName == "Delete Gallery")
        #expect(l.fulfillPlaceholder(placeholders[1], with: image("y")) == nil)
        #expect(l.history.undoStack.count == 1)
    }

    @Test func aBatchWhereNothingArrivesRecordsNothing() throws {
        let l = library()
        let placeholders = try #require(l.insertPlaceholders(in: "dogs", labels: ["a", "b"]))
        l.groupArrivals(placeholders)
        placeholders.forEach(l.discardPlaceholder)
        #expect(!l.history.canUndo)
        #expect(ids(l, "dogs") == [])
    }

    @Test func placeholdersOutsideABatchStayAStepEach() throws {
        let l = library()
        let grouped = try #require(l.insertPlaceholders(in: "dogs", labels: ["a", "b"]))
        let alone = try #require(l.insertPlaceholder(in: "dogs", label: "c"))
        l.groupArrivals(grouped)
        l.groupArrivals([grouped[0], alone])  // one already grouped: the other alone is no batch
        l.fulfillPlaceholder(alone, with: image("z"))
        #expect(l.history.undoName == "Add Image")
        l.fulfillPlaceholders([(grouped[0], image("x")), (grouped[1], image("y"))])
        #expect(l.history.undoStack.map(\.name) == ["Add Image", "Add 2 Images"])
    }
}
