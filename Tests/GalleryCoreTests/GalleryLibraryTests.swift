import Foundation
import Testing

@testable import GalleryCore

private func image(_ name: String) -> GalleryImage {
    GalleryImage(id: ImageID(name), url: "https://example.org/\(name).png", aspectRatio: 1.5)
}

/// A library of two galleries, "cats" (c0…c4) and "dogs" (d0…d2), recording saves and changes.
@MainActor private final class Library {
    let library: GalleryLibrary
    var saves: [GalleryState] = []
    var changes: [GalleryLibrary.Change] = []
    private var observation: Observation?

    init(extra: [Gallery] = []) {
        library = GalleryLibrary(
            state: GalleryState(
                galleries: [
                    Gallery(id: "cats", name: "Cats", images: (0..<5).map { image("c\($0)") }),
                    Gallery(id: "dogs", name: "Dogs", images: (0..<3).map { image("d\($0)") }),
                ] + extra))
        library.onSave = { [unowned self] in saves.append($0) }
        observation = library.observe { [unowned self] in changes.append($0) }
    }

    func ids(_ galleryID: String) -> [String] { library.cells(of: galleryID).map(\.id.rawValue) }
    func saved(_ galleryID: String) -> [String]? {
        saves.last?.galleries.first { $0.id == galleryID }?.images.map(\.id.rawValue)
    }
    var names: [String] { library.galleries.map(\.name) }
}

@MainActor @Suite struct GalleryLibraryTests {
    // MARK: Galleries

    @Test func createNamesUniquelyAndUndoes() throws {
        let l = Library()
        let first = l.library.createGallery()
        let second = l.library.createGallery()
        #expect(l.names == ["Cats", "Dogs", "New Gallery", "New Gallery 2"])
        #expect(l.library.history.undoName == "New Gallery")
        #expect(l.saves.last?.galleries.map(\.id) == ["cats", "dogs", first, second])
        #expect(l.library.undo() == [])  // the gallery it touched is gone
        #expect(l.names == ["Cats", "Dogs", "New Gallery"])
        #expect(l.library.redo() == [second])
        #expect(l.names == ["Cats", "Dogs", "New Gallery", "New Gallery 2"])
        #expect(l.library.savedGallery(second)?.images == [])
        let named = l.library.createGallery(named: "  Kitchen   ideas ", at: 0)
        #expect(l.library.galleries.first?.id == named)
        #expect(l.library.galleries.first?.name == "Kitchen ideas")
    }

    @Test func eachGalleryIsFoundWhereItStandsAfterMovesDeletionsAndUndo() {
        let l = Library()
        func expectEachFound() {
            for (index, entry) in l.library.galleries.enumerated() {
                #expect(l.library.galleryIndex(entry.id) == index)
                #expect(l.library.gallery(entry.id)?.name == entry.name)
            }
        }
        let made = (0..<5).map { _ in l.library.createGallery() }
        expectEachFound()
        l.library.moveGallery(made[4], to: 0)
        l.library.moveGallery("cats", to: 6)
        expectEachFound()
        l.library.deleteGallery(made[2])
        #expect(l.library.galleryIndex(made[2]) == nil)
        #expect(l.library.gallery(made[2]) == nil)
        expectEachFound()
        l.library.undo()
        #expect(l.library.galleryIndex(made[2]) != nil)
        expectEachFound()
        #expect(l.library.cells(of: "cats").count == 5)
        #expect(l.library.galleryIndex("nowhere") == nil)
    }

    @Test func anotherComputersNoteIsTakenInAsTheChangeOfItsGalleryAlone() {
        let subject = Library()
        let ours = subject.library.state
        var merged = ours
        merged.galleries[1].images[2].note = "From the laptop"
        merged.galleries[1].images.swapAt(0, 1)
        subject.changes = []
        subject.library.adoptMerge(merged, over: ours)
        #expect(subject.library.state == merged)
        #expect(subject.changes == [.history, .cells(galleryID: "dogs")])
        #expect(subject.library.location(of: ImageID("d1"))?.index == 0)
        #expect(subject.saves.last == merged)
    }

    @Test func anImageMovedToAnotherGalleryElsewhereIsFoundThere() {
        let subject = Library()
        let ours = subject.library.state
        var merged = ours
        merged.galleries[1].images.append(merged.galleries[0].images.remove(at: 2))
        subject.library.adoptMerge(merged, over: ours)
        #expect(subject.library.state == merged)
        #expect(subject.library.location(of: ImageID("c2"))?.galleryID == "dogs")
        #expect(subject.ids("cats") == ["c0", "c1", "c3", "c4"])
    }

    @Test func renameTrimsIgnoresBlankAndUndoes() {
        let l = Library()
        #expect(l.library.renameGallery("cats", to: "  Kittens "))
        #expect(l.names == ["Kittens", "Dogs"])
        #expect(!l.library.renameGallery("cats", to: "   "))
        #expect(!l.library.renameGallery("cats", to: "Kittens"))
        #expect(!l.library.renameGallery("nope", to: "X"))
        #expect(l.library.history.undoName == "Rename Gallery")
        #expect(l.library.undo() == ["cats"])
        #expect(l.names == ["Cats", "Dogs"])
        #expect(l.saves.last?.galleries[0].name == "Cats")
        l.library.redo()
        #expect(l.names == ["Kittens", "Dogs"])
    }

    @Test func deleteKeepsTheLastAndUndoRestoresImagesInPlace() {
        let l = Library()
        l.library.remove([ImageID("d1")], from: "dogs")
        #expect(l.library.deleteGallery("dogs"))
        #expect(l.names == ["Cats"])
        #expect(!l.library.canDeleteGallery)
        #expect(!l.library.deleteGallery("cats"))
        #expect(l.saves.last?.galleries.map(\.id) == ["cats"])
        #expect(l.library.undo() == ["dogs"])
        #expect(l.names == ["Cats", "Dogs"])
        #expect(l.ids("dogs") == ["d0", "d2"])
        #expect(l.library.undo() == ["dogs"])
        #expect(l.ids("dogs") == ["d0", "d1", "d2"])
        #expect(l.saved("dogs") == ["d0", "d1", "d2"])
        l.library.redo()
        l.library.redo()
        #expect(l.names == ["Cats"])
    }

    @Test func deletingAGalleryGivesUpItsPlaceholders() throws {
        let l = Library()
        let p = try #require(l.library.insertPlaceholder(in: "dogs", label: "slow.png"))
        l.changes = []
        l.library.deleteGallery("dogs")
        #expect(l.changes.contains(.placeholdersDiscarded([p])))
        // The download finishes later: it has nowhere to land and nothing changes.
        #expect(l.library.fulfillPlaceholder(p, with: image("late")) == nil)
        l.library.undo()
        #expect(l.ids("dogs") == ["d0", "d1", "d2"])
    }

    @Test func aHundredImagesDroppedTogetherAreOneLayoutAndOneSaveEachWay() throws {
        let l = Library()
        l.changes = []
        let placeholders = try #require(
            l.library.insertPlaceholders(in: "dogs", at: 1, labels: (0..<100).map { "p\($0).png" }))
        #expect(placeholders.count == 100 && Set(placeholders).count == 100)
        #expect(l.changes == [.cells(galleryID: "dogs")])
        #expect(l.ids("dogs") == ["d0"] + placeholders.map(\.rawValue) + ["d1", "d2"])
        let savesBefore = l.saves.count
        l.changes = []
        // Half of them arrive in one pass of the main loop, one of them twice; one placeholder is unknown.
        let arrivals = placeholders.prefix(50).map { ($0, image("x\($0.rawValue)")) }
        let touched = l.library.fulfillPlaceholders(arrivals + [arrivals[0], (ImageID("absent"), image("y"))])
        #expect(touched == ["dogs"])
        #expect(l.saves.count == savesBefore + 1)
        #expect(l.changes.filter { $0 == .cells(galleryID: "dogs") }.count == 1)
        #expect(l.saved("dogs") == ["d0"] + placeholders.prefix(50).map(\.rawValue) + ["d1", "d2"])
        // Each image is still its own undo step.
        l.library.undo()
        #expect(l.saved("dogs") == ["d0"] + placeholders.prefix(49).map(\.rawValue) + ["d1", "d2"])
    }

    @Test func reorderGalleriesAndUndo() {
        let l = Library(extra: [Gallery(id: "birds", name: "Birds")])
        #expect(l.library.moveGallery("birds", to: 0))
        #expect(l.names == ["Birds", "Cats", "Dogs"])
        #expect(!l.library.moveGallery("birds", to: 0))
        #expect(l.library.moveGallery("cats", to: 99))
        #expect(l.names == ["Birds", "Dogs", "Cats"])
        l.library.undo()
        l.library.undo()
        #expect(l.names == ["Cats", "Dogs", "Birds"])
        l.library.redo()
        #expect(l.names == ["Birds", "Cats", "Dogs"])
        #expect(l.saves.last?.galleries.map(\.id) == ["birds", "cats", "dogs"])
    }

    // MARK: Between galleries

    @Test func moveToAnotherGalleryIsOneStepUndoneInBoth() {
        let l = Library()
        let arrived = l.library.transfer([ImageID("c3"), ImageID("c1")], from: "cats", to: "dogs", copy: false)
        #expect(arrived.map(\.rawValue) == ["c1", "c3"])
        #expect(l.ids("cats") == ["c0", "c2", "c4"])
        #expect(l.ids("dogs") == ["d0", "d1", "d2", "c1", "c3"])
        #expect(l.saved("cats") == ["c0", "c2", "c4"])
        #expect(l.saved("dogs") == ["d0", "d1", "d2", "c1", "c3"])
        #expect(l.library.history.undoName == "Move 2 Images to “Dogs”")
        #expect(l.library.history.undoStack.count == 1)
        #expect(Set(l.library.undo()) == ["cats", "dogs"])
        #expect(l.ids("cats") == ["c0", "c1", "c2", "c3", "c4"])
        #expect(l.ids("dogs") == ["d0", "d1", "d2"])
        #expect(l.saved("cats") == ["c0", "c1", "c2", "c3", "c4"])
        l.library.redo()
        #expect(l.ids("dogs") == ["d0", "d1", "d2", "c1", "c3"])
    }

    @Test func moveAtAnInsertionPointAmongPlaceholders() throws {
        let l = Library()
        let p = try #require(l.library.insertPlaceholder(in: "dogs", at: 1, label: "p"))
        // Cells of dogs: d0, p, d1, d2; insert before d1 (cell index 2).
        l.library.transfer([ImageID("c0")], from: "cats", to: "dogs", atInsertionIndex: 2, copy: false)
        #expect(l.ids("dogs") == ["d0", p.rawValue, "c0", "d1", "d2"])
        l.library.discardPlaceholder(p)
        l.library.undo()
        #expect(l.ids("dogs") == ["d0", "d1", "d2"])
        l.library.redo()
        #expect(l.ids("dogs") == ["d0", "c0", "d1", "d2"])
    }

    @Test func copyMakesNewIdsWithTheSameURLs() throws {
        let l = Library()
        let arrived = l.library.transfer([ImageID("c0")], from: "cats", to: "dogs", atInsertionIndex: 0, copy: true)
        let copy = try #require(arrived.first)
        #expect(copy != ImageID("c0"))
        #expect(l.ids("cats") == ["c0", "c1", "c2", "c3", "c4"])
        #expect(l.ids("dogs") == [copy.rawValue, "d0", "d1", "d2"])
        #expect(l.library.cells(of: "dogs")[0].image?.url == "https://example.org/c0.png")
        #expect(l.library.history.undoName == "Copy Image to “Dogs”")
        #expect(l.library.undo() == ["dogs"])
        #expect(l.ids("dogs") == ["d0", "d1", "d2"])
    }

    @Test func nothingToTransfer() {
        let l = Library()
        #expect(l.library.transfer([ImageID("c0")], from: "cats", to: "cats", copy: false).isEmpty)
        #expect(l.library.transfer([ImageID("zz")], from: "cats", to: "dogs", copy: false).isEmpty)
        #expect(l.library.transfer([ImageID("c0")], from: "cats", to: "gone", copy: false).isEmpty)
        #expect(!l.library.history.canUndo)
        #expect(l.saves.isEmpty)
    }

    // MARK: Downloads

    @Test func downloadLandsInItsGalleryWhateverIsShown() throws {
        let l = Library()
        let session = GallerySession(library: l.library, galleryID: "cats")
        let p = try #require(session.insertPlaceholder(at: 2, label: "slow.png"))
        session.show("dogs")
        l.library.move([ImageID("c4")], in: "cats", toInsertionIndex: 0)
        l.library.updatePlaceholder(p, progress: 0.5)
        #expect(l.library.fulfillPlaceholder(p, with: image("new")) == "cats")
        #expect(l.ids("cats") == ["c4", "c0", "c1", p.rawValue, "c2", "c3"])
        #expect(l.saved("cats") == ["c4", "c0", "c1", p.rawValue, "c2", "c3"])
        #expect(l.ids("dogs") == ["d0", "d1", "d2"])
        #expect(session.galleryID == "dogs")
    }

    @Test func removingAPlaceholderGivesItUp() throws {
        let l = Library()
        let p = try #require(l.library.insertPlaceholder(in: "cats", label: "p"))
        l.library.remove([p], from: "cats")
        #expect(l.changes.contains(.placeholdersDiscarded([p])))
        #expect(l.library.fulfillPlaceholder(p, with: image("late")) == nil)
        #expect(!l.library.history.canUndo)
    }

    @Test func aspectRatioIsCorrectedInWhicheverGalleryHoldsTheImage() {
        let l = Library()
        l.library.correctAspectRatio(of: ImageID("d2"), to: 0.5)
        #expect(l.library.savedGallery("dogs")?.images[2].aspectRatio == 0.5)
        #expect(l.saves.count == 1)
    }

    // MARK: Observers and sessions

    @Test func everyObserverHearsAndCancelledOnesStop() {
        let l = Library()
        var heard = 0
        var observation: Observation? = l.library.observe { _ in heard += 1 }
        l.library.renameGallery("cats", to: "A")
        let afterOne = heard
        #expect(afterOne > 0)
        observation = nil
        _ = observation
        l.library.renameGallery("cats", to: "B")
        #expect(heard == afterOne)
        #expect(l.changes.filter { $0 == .galleries }.count == 2)
    }

    @Test func twoSessionsOnOneGalleryStayInSync() {
        let l = Library()
        let first = GallerySession(library: l.library, galleryID: "cats")
        let second = GallerySession(library: l.library, galleryID: "cats")
        var secondChanges: [GallerySession.Change] = []
        second.onChange = { secondChanges.append($0) }
        second.select(ImageID("c1"), mode: .replace)
        secondChanges = []
        first.remove([ImageID("c1")])
        #expect(second.cells.map(\.id.rawValue) == ["c0", "c2", "c3", "c4"])
        #expect(second.selection.isEmpty)
        #expect(secondChanges.contains(.cells))
    }

    @Test func aSessionWhoseGalleryIsDeletedShowsItsNeighbour() {
        let l = Library(extra: [Gallery(id: "birds", name: "Birds")])
        let session = GallerySession(library: l.library, galleryID: "dogs")
        var changes: [GallerySession.Change] = []
        session.onChange = { changes.append($0) }
        session.select(ImageID("d0"), mode: .replace)
        l.library.deleteGallery("dogs")
        #expect(session.galleryID == "birds")
        #expect(session.selection.isEmpty)
        #expect(changes.contains(.shownGallery))
        l.library.deleteGallery("birds")
        #expect(session.galleryID == "cats")
    }

    @Test func closedSessionsHearNothing() {
        let l = Library()
        let session = GallerySession(library: l.library)
        var heard = 0
        session.onChange = { _ in heard += 1 }
        session.close()
        l.library.move([ImageID("c0")], in: "cats", toInsertionIndex: 3)
        #expect(heard == 0)
    }

    // MARK: Loading

    @Test func shownGalleryAtLaunchIsTheOneShownLastOrTheFirst() {
        var state = GalleryState(
            galleries: [Gallery(id: "a", name: "A"), Gallery(id: "b", name: "B")], shownGalleryID: "b")
        #expect(GalleryLibrary(state: state).initialGalleryID == "b")
        #expect(GallerySession(library: GalleryLibrary(state: state)).galleryID == "b")
        state.shownGalleryID = "deleted"
        #expect(GalleryLibrary(state: state).initialGalleryID == "a")
        let empty = GalleryLibrary(state: GalleryState(galleries: [], shownGalleryID: "x"))
        #expect(empty.galleries.count == 1)
        #expect(empty.initialGalleryID == empty.galleries[0].id)
    }

    @Test func noteShownGallerySavesOnlyRealChanges() {
        let l = Library()
        // The gallery the file opens with: nothing to remember, nothing written.
        l.library.noteShownGallery("cats")
        #expect(l.saves.isEmpty)
        l.library.noteShownGallery("dogs")
        l.library.noteShownGallery("dogs")
        l.library.noteShownGallery("nope")
        #expect(l.saves.count == 1)
        #expect(l.saves.last?.shownGalleryID == "dogs")
        l.library.deleteGallery("dogs")
        #expect(l.saves.last?.shownGalleryID == nil)
    }

    @Test func duplicateIdsAreRepairedSoNoEditAliasesTwoImages() throws {
        let twin = GalleryImage(id: ImageID("same"), url: "https://e.org/a.png", aspectRatio: 1)
        var other = twin
        other.url = "https://e.org/b.png"
        let library = GalleryLibrary(
            state: GalleryState(galleries: [
                Gallery(id: "g", name: "G", images: [twin, other]),
                Gallery(id: "g", name: "H", images: [twin]),
            ]))
        let ids = library.state.galleries.flatMap { $0.images.map(\.id) }
        #expect(Set(ids).count == 3)
        #expect(Set(library.galleries.map(\.id)).count == 2)
        let first = library.state.galleries[0]
        // Select the second, move it, undo: both images keep their own address.
        library.move([first.images[1].id], in: first.id, toInsertionIndex: 0)
        library.undo()
        #expect(library.savedGallery(first.id)?.images.map(\.url) == ["https://e.org/a.png", "https://e.org/b.png"])
    }

    @Test func oldStateFilesLoadUnchanged() throws {
        let old = Data(
            """
            {"galleries":[{"id":"g1","images":[{"aspectRatio":1.5,"id":"i1","url":"https://e.org/1.png"}],"name":"Gallery"}],"version":1}
            """.utf8)
        let state = try StateStore.decode(old)
        #expect(state.shownGalleryID == nil)
        #expect(state.sidebarVisible == nil)
        let library = GalleryLibrary(state: state)
        #expect(library.initialGalleryID == "g1")
        #expect(library.sidebarVisible)
        let encoded = StateStore.encode(state)
        #expect(!String(decoding: encoded, as: UTF8.self).contains("shownGalleryID"))
    }

    @Test func sidebarVisibilityIsRemembered() {
        let l = Library()
        #expect(l.library.sidebarVisible)
        l.library.sidebarVisible = false
        l.library.sidebarVisible = false
        #expect(l.saves.count == 1)
        #expect(l.saves.last?.sidebarVisible == false)
    }
}
