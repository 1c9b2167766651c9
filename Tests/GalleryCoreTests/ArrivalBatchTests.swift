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

    /// Single drops that end in one pass, in an order other than their cells': each is a step of its own, in the order
    /// they arrived, undone and redone where it stands.
    @Test func singleArrivalsInOnePassAreEachAStepInPlace() throws {
        let l = library()
        let first = try #require(l.insertPlaceholder(in: "cats", at: 1, label: "a"))
        let second = try #require(l.insertPlaceholder(in: "cats", at: 3, label: "b"))
        let last = try #require(l.insertPlaceholder(in: "cats", label: "c"))
        let waiting = try #require(l.insertPlaceholder(in: "cats", at: 0, label: "d"))
        l.fulfillPlaceholders([(last, image("z")), (first, image("x")), (second, image("y"))])
        let landed = [waiting.rawValue, "c0", first.rawValue, "c1", second.rawValue, "c2", last.rawValue]
        #expect(ids(l, "cats") == landed)
        #expect(l.history.undoStack.map(\.name) == ["Add Image", "Add Image", "Add Image"])
        for _ in 0..<3 { l.undo() }
        #expect(ids(l, "cats") == [waiting.rawValue, "c0", "c1", "c2"])
        for _ in 0..<3 { l.redo() }
        #expect(ids(l, "cats") == landed)
        #expect(l.state.galleries[0].images.map(\.id.rawValue) == landed.dropFirst().map(\.self))
    }

    /// What a change of arrivals tells its observers: the cells before the first it changed are as they were, and
    /// the images it brought stand where it says among the others, in the order they had.
    @Test func aLandingSaysWhereItBeganAndWhatArrived() throws {
        let l = library()
        var before = l.cells(of: "cats")
        var heard: [(first: Int, arrived: [GalleryLibrary.ArrivedImage]?)] = []
        let observation = l.observe { change in
            guard case .cells(let galleryID) = change, galleryID == "cats" else { return }
            let after = l.cells(of: "cats")
            #expect(Array(after.prefix(l.firstCellChanged)) == Array(before.prefix(l.firstCellChanged)))
            if let arrived = l.imagesArrived {
                var images = after.compactMap(\.image).map(\.id)
                for arrival in arrived.reversed() {
                    #expect(images[arrival.imageIndex] == arrival.id && after[arrival.cellIndex].id == arrival.id)
                    images.remove(at: arrival.imageIndex)
                }
                #expect(images == before.compactMap(\.image).map(\.id))
            }
            heard.append((l.firstCellChanged, l.imagesArrived))
            before = after
        }
        let ends = try #require(l.insertPlaceholders(in: "cats", labels: ["a", "b"]))
        let middle = try #require(l.insertPlaceholders(in: "cats", at: 2, labels: ["c", "d", "e"]))
        #expect(heard.map { $0.first } == [3, 2])
        l.fulfillPlaceholders([(ends[1], image("x")), (middle[2], image("y")), (middle[0], image("z"))])
        #expect(heard.last?.first == 2)
        #expect(heard.last?.arrived?.map { $0.imageIndex } == [2, 3, 5])
        l.discardPlaceholder(middle[1])
        #expect(heard.last?.first == 3 && heard.last?.arrived == nil)
        l.fulfillPlaceholder(ends[0], with: image("w"))
        #expect(heard.last?.first == 5)
        #expect(heard.last?.arrived?.map { $0.imageIndex } == [5])
        withExtendedLifetime(observation) {}
    }
}
