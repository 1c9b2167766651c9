import Foundation
import Testing

@testable import GalleryCore

private func image(_ name: String, ratio: Double = 1.5) -> GalleryImage {
    GalleryImage(id: ImageID(name), url: "file:///pictures/\(name).jpg", aspectRatio: ratio)
}

private func names(_ count: Int) -> [String] { (0..<count).map { "i\($0)" } }

private func ids(_ list: String...) -> [ImageID] { list.map(ImageID.init) }

/// A library and one window's session over its first gallery, as one window edits it.
@MainActor private final class Controller {
    let library: GalleryLibrary
    let session: GallerySession

    init(state: GalleryState) {
        library = GalleryLibrary(state: state)
        session = GallerySession(library: library)
    }

    var cells: [GalleryCell] { Array(session.cells) }
    var state: GalleryState { library.state }
    var history: UndoHistory { library.history }
    var selection: Set<ImageID> { session.selection }
    func index(of id: ImageID) -> Int? { session.index(of: id) }
    func ordered(_ ids: Set<ImageID>) -> [ImageID] { session.ordered(ids) }
    func select(_ id: ImageID, mode: GallerySession.SelectionMode) { session.select(id, mode: mode) }
    func selectAll() { session.selectAll() }
    func clearSelection() { session.clearSelection() }
    @discardableResult func move(_ ids: [ImageID], toInsertionIndex index: Int) -> Bool {
        session.move(ids, toInsertionIndex: index)
    }
    @discardableResult func remove(_ ids: Set<ImageID>) -> [GalleryCell] { session.remove(ids) }
    func insertPlaceholder(at index: Int, label: String) -> ImageID {
        session.insertPlaceholder(at: index, label: label)!
    }
    func updatePlaceholder(_ id: ImageID, progress: Double?) { library.updatePlaceholder(id, progress: progress) }
    func relabelPlaceholder(_ id: ImageID, label: String) { library.relabelPlaceholder(id, label: label) }
    func fulfillPlaceholder(_ id: ImageID, with image: GalleryImage) { library.fulfillPlaceholder(id, with: image) }
    func discardPlaceholder(_ id: ImageID) { library.discardPlaceholder(id) }
    func correctAspectRatio(of id: ImageID, to ratio: Double) { library.correctAspectRatio(of: id, to: ratio) }
    func undo() { library.undo() }
    func redo() { library.redo() }
}

/// One window's session over a gallery of images named i0, i1, …, recording its callbacks.
@MainActor private final class Fixture {
    let controller: Controller
    var saves: [GalleryState] = []
    var changes: [GallerySession.Change] = []

    init(count: Int = 10, extraGallery: Bool = false) {
        var galleries = [Gallery(id: "shown", name: "Shown", images: names(count).map { image($0) })]
        if extraGallery { galleries.append(Gallery(id: "other", name: "Other", images: [image("o1")])) }
        controller = Controller(state: GalleryState(galleries: galleries))
        controller.library.onSave = { [unowned self] in saves.append($0) }
        // History changes come with every recorded step; these tests follow the cells.
        controller.session.onChange = { [unowned self] in if $0 != .history { changes.append($0) } }
    }

    /// Cell ids in order, placeholders included.
    var order: [String] { controller.cells.map(\.id.rawValue) }
    /// Ids of the real images, in order.
    var images: [String] { controller.cells.compactMap(\.image).map(\.id.rawValue) }
    /// Ids in the state that would be saved.
    var stateImages: [String] { controller.state.galleries[0].images.map(\.id.rawValue) }
    var lastSavedImages: [String]? { saves.last.map { $0.galleries[0].images.map(\.id.rawValue) } }

    /// The saved state follows the cells (placeholders left out), and the last save is that state.
    func expectConsistent(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(stateImages == images, sourceLocation: sourceLocation)
        #expect(saves.last == controller.state, sourceLocation: sourceLocation)
        #expect(lastSavedImages == images, sourceLocation: sourceLocation)
        #expect(
            controller.state.galleries[0].images == controller.cells.compactMap(\.image),
            sourceLocation: sourceLocation)
    }

    func move(_ list: [String], to index: Int) -> Bool {
        controller.move(list.map(ImageID.init), toInsertionIndex: index)
    }
}

@MainActor @Suite struct SessionEditingTests {
    // MARK: Initial state

    @Test func initialCellsFollowTheFirstGallery() {
        let f = Fixture(count: 3, extraGallery: true)
        #expect(f.order == ["i0", "i1", "i2"])
        #expect(f.controller.cells.allSatisfy { !$0.isPlaceholder })
        #expect(f.controller.state.galleries[0].id == "shown")
        #expect(f.controller.selection.isEmpty)
        #expect(!f.controller.history.canUndo)
        #expect(!f.controller.history.canRedo)
        #expect(f.controller.index(of: ImageID("i2")) == 2)
        #expect(f.controller.index(of: ImageID("nope")) == nil)
        #expect(f.controller.ordered(Set(ids("i2", "i0", "zz"))) == ids("i0", "i2"))
    }

    @Test func emptyStateBecomesInitial() {
        let controller = Controller(state: GalleryState(galleries: []))
        #expect(controller.state.galleries.count == 1)
        #expect(controller.cells.isEmpty)
    }

    @Test func otherGalleriesAreKeptInSavedState() {
        let f = Fixture(count: 3, extraGallery: true)
        #expect(f.move(["i0"], to: 2))
        #expect(f.saves.count == 1)
        #expect(f.saves[0].galleries.count == 2)
        #expect(f.saves[0].galleries[1] == Gallery(id: "other", name: "Other", images: [image("o1")]))
        #expect(f.saves[0].version == GalleryState.currentVersion)
    }

    // MARK: Moving

    @Test func moveOneForward() {
        let f = Fixture()
        #expect(f.move(["i2"], to: 5))
        #expect(f.order == ["i0", "i1", "i3", "i4", "i5", "i2", "i6", "i7", "i8", "i9"])
        #expect(f.saves.count == 1)
        #expect(f.changes == [.cells])
        #expect(f.controller.history.undoName == "Move Image")
        f.expectConsistent()
    }

    @Test func moveOneBackward() {
        let f = Fixture()
        #expect(f.move(["i7"], to: 1))
        #expect(f.order == ["i0", "i7", "i1", "i2", "i3", "i4", "i5", "i6", "i8", "i9"])
        f.expectConsistent()
    }

    @Test func moveSparseSelectionToStart() {
        let f = Fixture()
        // The order given does not matter: they keep their display order.
        #expect(f.move(["i7", "i1", "i4"], to: 0))
        #expect(f.order == ["i1", "i4", "i7", "i0", "i2", "i3", "i5", "i6", "i8", "i9"])
        #expect(f.controller.history.undoName == "Move 3 Images")
        f.expectConsistent()
    }

    @Test func moveSparseSelectionToEndClampsIndex() {
        let f = Fixture()
        #expect(f.move(["i1", "i4", "i7"], to: 100))
        #expect(f.order == ["i0", "i2", "i3", "i5", "i6", "i8", "i9", "i1", "i4", "i7"])
        f.expectConsistent()
        // Exactly the end of the list without them (7) is the same place.
        let g = Fixture()
        #expect(g.move(["i1", "i4", "i7"], to: 7))
        #expect(g.order == f.order)
        // A negative index is the start.
        let h = Fixture()
        #expect(h.move(["i4"], to: -3))
        #expect(h.order == ["i4", "i0", "i1", "i2", "i3", "i5", "i6", "i7", "i8", "i9"])
    }

    @Test func moveSparseSelectionIntoTheMiddle() {
        let f = Fixture()
        // Without them: i0 i2 i3 | i5 i6 i8 i9 — index 3 is before i5.
        #expect(f.move(["i1", "i4", "i7"], to: 3))
        #expect(f.order == ["i0", "i2", "i3", "i1", "i4", "i7", "i5", "i6", "i8", "i9"])
        f.expectConsistent()
    }

    @Test func moveGroupAcrossItself() {
        // Contiguous group i3 i4 i5; without it: i0 i1 i2 i6 | i7 i8 i9.
        let f = Fixture()
        #expect(f.move(["i3", "i4", "i5"], to: 4))
        #expect(f.order == ["i0", "i1", "i2", "i6", "i3", "i4", "i5", "i7", "i8", "i9"])

        // Sparse group i2 i6 dropped inside its own span; without it: i0 i1 i3 | i4 i5 i7 i8 i9.
        let g = Fixture()
        #expect(g.move(["i2", "i6"], to: 3))
        #expect(g.order == ["i0", "i1", "i3", "i2", "i6", "i4", "i5", "i7", "i8", "i9"])
        g.controller.undo()
        #expect(g.order == names(10))

        // Gathering a sparse group where its first member is.
        let h = Fixture()
        #expect(h.move(["i2", "i6"], to: 2))
        #expect(h.order == ["i0", "i1", "i2", "i6", "i3", "i4", "i5", "i7", "i8", "i9"])
    }

    @Test func noOpMoveReturnsFalseAndRecordsNothing() {
        let f = Fixture()
        #expect(!f.move(["i3", "i4", "i5"], to: 3))  // already there
        #expect(!f.move(["i9"], to: 9))
        #expect(!f.move(["i9"], to: 50))  // clamped to where it is
        #expect(!f.move(["i0"], to: -1))
        #expect(!f.move([], to: 0))
        #expect(!f.move(["unknown"], to: 0))
        #expect(f.order == names(10))
        #expect(!f.controller.history.canUndo)
        #expect(f.saves.isEmpty)
        #expect(f.changes.isEmpty)
    }

    @Test func moveIgnoresUnknownAndDuplicateIds() {
        let f = Fixture()
        #expect(f.move(["nope", "i5", "i5"], to: 0))
        #expect(f.order == ["i5", "i0", "i1", "i2", "i3", "i4", "i6", "i7", "i8", "i9"])
        #expect(f.controller.history.undoName == "Move Image")
        f.controller.undo()
        #expect(f.order == names(10))
    }

    @Test(arguments: [
        (["i2"], 5), (["i7"], 1), (["i1", "i4", "i7"], 0), (["i1", "i4", "i7"], 100),
        (["i1", "i4", "i7"], 3), (["i3", "i4", "i5"], 4), (["i2", "i6"], 3), (["i0", "i9"], 4),
    ])
    func undoAndRedoOfMoveRestoreExactOrder(moving: [String], to index: Int) {
        let f = Fixture()
        #expect(f.move(moving, to: index))
        let after = f.order
        #expect(after != names(10))
        f.controller.undo()
        #expect(f.order == names(10))
        f.expectConsistent()
        #expect(f.controller.history.canRedo)
        #expect(!f.controller.history.canUndo)
        f.controller.redo()
        #expect(f.order == after)
        f.expectConsistent()
        f.controller.undo()
        #expect(f.order == names(10))
        #expect(f.saves.count == 4)
    }

    @Test func successiveMovesUndoInReverse() {
        let f = Fixture(count: 6)
        var snapshots = [f.order]
        #expect(f.move(["i0"], to: 5))
        snapshots.append(f.order)
        #expect(f.move(["i3", "i5"], to: 0))
        snapshots.append(f.order)
        #expect(f.move(["i1"], to: 4))
        snapshots.append(f.order)
        for expected in snapshots.reversed().dropFirst() {
            f.controller.undo()
            #expect(f.order == expected)
        }
        #expect(!f.controller.history.canUndo)
        for expected in snapshots.dropFirst() {
            f.controller.redo()
            #expect(f.order == expected)
        }
        f.expectConsistent()
    }

    // MARK: Undo around placeholders

    @Test func undoMoveAfterAPlaceholderArrivedBeforeIt() throws {
        let f = Fixture(count: 6)
        #expect(f.move(["i4"], to: 0))
        #expect(f.order == ["i4", "i0", "i1", "i2", "i3", "i5"])
        let p = f.controller.insertPlaceholder(at: 0, label: "download")
        f.controller.undo()
        // The saved images are exactly as before the move; the placeholder is still first.
        #expect(f.images == names(6))
        #expect(f.order == [p.rawValue] + names(6))
        f.expectConsistent()
        f.controller.redo()
        #expect(f.images == ["i4", "i0", "i1", "i2", "i3", "i5"])
        f.expectConsistent()
    }

    @Test func undoMoveAfterAPlaceholderArrivedAfterIt() throws {
        let f = Fixture(count: 6)
        #expect(f.move(["i1", "i3"], to: 4))
        #expect(f.order == ["i0", "i2", "i4", "i5", "i1", "i3"])
        let p = f.controller.insertPlaceholder(at: 6, label: "download")
        f.controller.undo()
        #expect(f.images == names(6))
        #expect(f.order == names(6) + [p.rawValue])
        f.expectConsistent()
    }

    @Test func undoMoveWithAPlaceholderInTheMiddle() throws {
        let f = Fixture(count: 6)
        #expect(f.move(["i0", "i5"], to: 2))
        #expect(f.order == ["i1", "i2", "i0", "i5", "i3", "i4"])
        let p = f.controller.insertPlaceholder(at: 3, label: "download")
        #expect(f.order == ["i1", "i2", "i0", p.rawValue, "i5", "i3", "i4"])
        f.controller.undo()
        #expect(f.images == names(6))
        #expect(f.controller.cells.count == 7)
        f.expectConsistent()
    }

    @Test func redoMoveAfterAPlaceholderArrived() throws {
        let f = Fixture(count: 6)
        #expect(f.move(["i0"], to: 3))
        let moved = f.order
        #expect(moved == ["i1", "i2", "i3", "i0", "i4", "i5"])
        f.controller.undo()
        _ = f.controller.insertPlaceholder(at: 0, label: "download")
        f.controller.redo()
        #expect(f.images == moved)
        f.expectConsistent()
    }

    @Test func undoMoveThatIncludedAPlaceholderSinceDiscarded() throws {
        let f = Fixture(count: 6)
        let p = f.controller.insertPlaceholder(at: 0, label: "download")
        #expect(f.controller.move([p, ImageID("i3")], toInsertionIndex: 100))
        #expect(f.order == ["i0", "i1", "i2", "i4", "i5", p.rawValue, "i3"])
        f.controller.discardPlaceholder(p)
        f.controller.undo()
        #expect(f.order == names(6))
        f.expectConsistent()
    }

    @Test func movingOnlyAPlaceholderIsNotAnEdit() throws {
        let f = Fixture(count: 3)
        let p = f.controller.insertPlaceholder(at: 0, label: "p")
        f.changes = []
        #expect(f.controller.move([p], toInsertionIndex: 2))
        #expect(f.order == ["i0", "i1", p.rawValue, "i2"])
        #expect(f.changes == [.cells])
        #expect(f.saves.isEmpty)
        #expect(!f.controller.history.canUndo)
        // An image hopping over a placeholder changes no saved order either.
        #expect(f.move(["i1"], to: 2))
        #expect(f.order == ["i0", p.rawValue, "i1", "i2"])
        #expect(f.saves.isEmpty)
        #expect(!f.controller.history.canUndo)
        // A mixed move is recorded for its images only.
        #expect(f.controller.move([p, ImageID("i2")], toInsertionIndex: 0))
        #expect(f.order == [p.rawValue, "i2", "i0", "i1"])
        #expect(f.controller.history.undoName == "Move Image")
        f.expectConsistent()
        f.controller.undo()
        #expect(f.images == ["i0", "i1", "i2"])
        f.expectConsistent()
    }

    @Test func undoRemoveAfterAPlaceholderArrivedBeforeThem() throws {
        let f = Fixture(count: 6)
        f.controller.remove(Set(ids("i2", "i4")))
        let p = f.controller.insertPlaceholder(at: 0, label: "download")
        f.controller.undo()
        #expect(f.images == names(6))
        #expect(f.order == [p.rawValue] + names(6))
        f.expectConsistent()
        f.controller.redo()
        #expect(f.images == ["i0", "i1", "i3", "i5"])
        f.expectConsistent()
    }

    @Test func redoOfAFulfilledPlaceholderAfterAnotherPlaceholderWent() throws {
        let f = Fixture(count: 2)
        let p1 = f.controller.insertPlaceholder(at: 0, label: "one")
        let p2 = f.controller.insertPlaceholder(at: 2, label: "two")
        #expect(f.order == [p1.rawValue, "i0", p2.rawValue, "i1"])
        f.controller.fulfillPlaceholder(p2, with: image("new"))
        #expect(f.images == ["i0", p2.rawValue, "i1"])
        f.controller.undo()
        #expect(f.images == ["i0", "i1"])
        f.controller.discardPlaceholder(p1)
        f.controller.redo()
        #expect(f.order == ["i0", p2.rawValue, "i1"])
        f.expectConsistent()
    }

    // MARK: Removing

    @Test func removeThenUndoRestoresOriginalIndices() {
        let f = Fixture()
        f.controller.select(ImageID("i4"), mode: .replace)
        f.controller.select(ImageID("i1"), mode: .toggle)
        let removed = f.controller.remove(Set(ids("i8", "i1", "i4", "missing")))
        #expect(removed.map(\.id.rawValue) == ["i1", "i4", "i8"])
        #expect(f.order == ["i0", "i2", "i3", "i5", "i6", "i7", "i9"])
        #expect(f.controller.selection.isEmpty)
        #expect(f.controller.history.undoName == "Delete 3 Images")
        f.expectConsistent()

        f.controller.undo()
        #expect(f.order == names(10))
        #expect(f.controller.cells.compactMap(\.image) == names(10).map { image($0) })
        f.expectConsistent()

        f.controller.redo()
        #expect(f.order == ["i0", "i2", "i3", "i5", "i6", "i7", "i9"])
        f.expectConsistent()
        #expect(f.saves.count == 3)
    }

    @Test func removeEverythingAndUndo() {
        let f = Fixture(count: 4)
        f.controller.remove(Set(ids("i0", "i1", "i2", "i3")))
        #expect(f.order.isEmpty)
        #expect(f.stateImages.isEmpty)
        f.controller.undo()
        #expect(f.order == names(4))
        f.expectConsistent()
    }

    @Test func removeOfNothingDoesNothing() {
        let f = Fixture(count: 3)
        #expect(f.controller.remove(Set(ids("x"))).isEmpty)
        #expect(f.controller.remove([]).isEmpty)
        #expect(f.saves.isEmpty)
        #expect(f.changes.isEmpty)
        #expect(!f.controller.history.canUndo)
    }

    @Test func removeSingleNamesTheEdit() {
        let f = Fixture(count: 3)
        f.controller.remove([ImageID("i1")])
        #expect(f.controller.history.undoName == "Delete Image")
        f.controller.undo()
        #expect(f.controller.history.redoName == "Delete Image")
        #expect(f.controller.history.undoName == nil)
    }

    @Test func newEditClearsRedo() {
        let f = Fixture(count: 5)
        #expect(f.move(["i0"], to: 4))
        f.controller.remove([ImageID("i2")])
        f.controller.undo()
        #expect(f.controller.history.canRedo)
        #expect(f.move(["i4"], to: 0))
        #expect(!f.controller.history.canRedo)
        let order = f.order
        let saves = f.saves.count
        f.controller.redo()  // nothing to redo
        #expect(f.order == order)
        #expect(f.saves.count == saves)
        // Two undos go back through the new move and the first one.
        f.controller.undo()
        f.controller.undo()
        #expect(f.order == names(5))
        #expect(!f.controller.history.canUndo)
        f.controller.undo()  // nothing to undo
        #expect(f.order == names(5))
    }

    @Test func historyLimitDropsOldestEntries() {
        let f = Fixture(count: 3)
        for n in 0..<205 { #expect(f.move(["i0"], to: n % 2 == 0 ? 2 : 0)) }
        #expect(f.controller.history.undoStack.count == 200)
    }

    // MARK: Selection

    @Test func selectionReplaceToggleExtend() {
        let f = Fixture()
        let c = f.controller
        c.select(ImageID("i2"), mode: .replace)
        #expect(c.selection == Set(ids("i2")))
        c.select(ImageID("i5"), mode: .extend)
        #expect(c.selection == Set(ids("i2", "i3", "i4", "i5")))
        // The anchor stays at i2: extending backwards replaces the range.
        c.select(ImageID("i0"), mode: .extend)
        #expect(c.selection == Set(ids("i0", "i1", "i2")))
        c.select(ImageID("i7"), mode: .toggle)
        #expect(c.selection == Set(ids("i0", "i1", "i2", "i7")))
        // Toggle moved the anchor to i7.
        c.select(ImageID("i9"), mode: .extend)
        #expect(c.selection == Set(ids("i7", "i8", "i9")))
        c.select(ImageID("i8"), mode: .toggle)
        #expect(c.selection == Set(ids("i7", "i9")))
        c.select(ImageID("i3"), mode: .replace)
        #expect(c.selection == Set(ids("i3")))
        c.select(ImageID("i3"), mode: .extend)
        #expect(c.selection == Set(ids("i3")))
        #expect(f.changes == Array(repeating: .selection, count: 8))
        #expect(f.saves.isEmpty)
        #expect(!c.history.canUndo)
    }

    @Test func extendWithoutAnchorReplaces() {
        let f = Fixture()
        f.controller.select(ImageID("i4"), mode: .extend)
        #expect(f.controller.selection == Set(ids("i4")))
        // … and sets the anchor.
        f.controller.select(ImageID("i6"), mode: .extend)
        #expect(f.controller.selection == Set(ids("i4", "i5", "i6")))
    }

    @Test func extendFollowsTheAnchorAfterAMove() {
        let f = Fixture()
        f.controller.select(ImageID("i2"), mode: .replace)
        #expect(f.move(["i2"], to: 8))  // i2 is now at index 8
        f.controller.select(ImageID("i9"), mode: .extend)
        #expect(f.controller.selection == Set(ids("i2", "i9")))
    }

    @Test func selectAllAndClear() {
        let f = Fixture(count: 4)
        let p = f.controller.insertPlaceholder(at: 1, label: "x")
        f.changes = []
        f.controller.selectAll()
        #expect(f.controller.selection == Set(ids("i0", "i1", "i2", "i3") + [p]))
        f.controller.clearSelection()
        #expect(f.controller.selection.isEmpty)
        f.controller.clearSelection()  // already empty: no notification
        #expect(f.changes == [.selection, .selection])
        // After clearing, extend has no anchor.
        f.controller.select(ImageID("i3"), mode: .extend)
        #expect(f.controller.selection == Set(ids("i3")))
    }

    // MARK: Placeholders

    @Test func placeholderIsInsertedAtIndexAndNeverSaved() throws {
        let f = Fixture(count: 4)
        let p = f.controller.insertPlaceholder(at: 2, label: "cat.png")
        #expect(f.order == ["i0", "i1", p.rawValue, "i2", "i3"])
        let cell = try #require(f.controller.cells.first { $0.id == p })
        #expect(cell.isPlaceholder)
        #expect(cell.content == .placeholder(label: "cat.png", progress: nil))
        #expect(cell.aspectRatio == 1)
        #expect(f.changes == [.cells])
        #expect(f.saves.isEmpty)
        #expect(!f.controller.history.canUndo)
        #expect(f.stateImages == names(4))

        // Clamped indices.
        let first = f.controller.insertPlaceholder(at: -4, label: "a")
        let last = f.controller.insertPlaceholder(at: 99, label: "b")
        #expect(f.order.first == first.rawValue)
        #expect(f.order.last == last.rawValue)
        #expect(Set([p, first, last]).count == 3)

        // Saving after an edit leaves every placeholder out.
        #expect(f.move(["i0"], to: 100))
        #expect(f.stateImages == ["i1", "i2", "i3", "i0"])
        #expect(f.controller.cells.count == 7)
        f.expectConsistent()
    }

    @Test func placeholderProgress() throws {
        let f = Fixture(count: 2)
        let p = f.controller.insertPlaceholder(at: 1, label: "big.jpg")
        f.changes = []
        f.controller.updatePlaceholder(p, progress: 0.25)
        f.controller.updatePlaceholder(p, progress: 0.25)  // unchanged: no notification
        f.controller.updatePlaceholder(p, progress: nil)
        f.controller.updatePlaceholder(ImageID("i0"), progress: 0.5)  // not a placeholder
        f.controller.updatePlaceholder(ImageID("gone"), progress: 0.5)
        #expect(f.changes == [.progress(p), .progress(p)])
        f.controller.updatePlaceholder(p, progress: 0.75)
        #expect(f.controller.cells[1].content == .placeholder(label: "big.jpg", progress: 0.75))
        #expect(f.controller.cells[0].image == image("i0"))
        #expect(f.saves.isEmpty)
    }

    @Test func fulfillKeepsThePlaceholdersCurrentPosition() throws {
        let f = Fixture(count: 4)
        let p = f.controller.insertPlaceholder(at: 2, label: "new.png")
        #expect(f.move(["i0"], to: 100))
        #expect(f.order == ["i1", p.rawValue, "i2", "i3", "i0"])
        f.controller.remove([ImageID("i1")])
        #expect(f.order == [p.rawValue, "i2", "i3", "i0"])
        let saves = f.saves.count
        f.controller.fulfillPlaceholder(
            p,
            with: GalleryImage(
                id: ImageID("ignored"), url: "https://x/new.png",
                aspectRatio: 0.5))
        #expect(f.order == [p.rawValue, "i2", "i3", "i0"])
        let cell = try #require(f.controller.cells.first)
        #expect(cell.image == GalleryImage(id: p, url: "https://x/new.png", aspectRatio: 0.5))
        #expect(!cell.isPlaceholder)
        #expect(cell.aspectRatio == 0.5)
        #expect(f.saves.count == saves + 1)
        #expect(f.stateImages == [p.rawValue, "i2", "i3", "i0"])
        #expect(f.controller.history.undoName == "Add Image")
        f.expectConsistent()

        // Undo takes the image away, redo puts it back where it was.
        f.controller.undo()
        #expect(f.order == ["i2", "i3", "i0"])
        f.expectConsistent()
        f.controller.redo()
        #expect(f.order == [p.rawValue, "i2", "i3", "i0"])
        f.expectConsistent()
        // Further undos: the remove, then the move.
        f.controller.undo()
        f.controller.undo()
        #expect(f.order == ["i1", "i2", "i3", "i0"])
        f.controller.undo()
        #expect(f.order == ["i0", "i1", "i2", "i3"])
        f.expectConsistent()
    }

    @Test func fulfillOnlyAppliesToPlaceholders() {
        let f = Fixture(count: 2)
        f.controller.fulfillPlaceholder(ImageID("i0"), with: image("x"))
        f.controller.fulfillPlaceholder(ImageID("absent"), with: image("y"))
        #expect(f.controller.cells.compactMap(\.image) == [image("i0"), image("i1")])
        #expect(f.saves.isEmpty)
        #expect(!f.controller.history.canUndo)
        let p = f.controller.insertPlaceholder(at: 0, label: "p")
        f.controller.fulfillPlaceholder(p, with: image("z"))
        f.controller.fulfillPlaceholder(p, with: image("again"))  // already an image
        #expect(f.controller.cells[0].image?.url == "file:///pictures/z.jpg")
        #expect(f.saves.count == 1)
    }

    @Test func discardRemovesPlaceholderWithoutSaveOrUndo() {
        let f = Fixture(count: 3)
        #expect(f.move(["i0"], to: 3))
        let p = f.controller.insertPlaceholder(at: 1, label: "fails")
        f.controller.select(p, mode: .toggle)
        f.controller.select(ImageID("i2"), mode: .toggle)
        let saves = f.saves.count
        let undoDepth = f.controller.history.undoStack.count
        f.changes = []
        f.controller.discardPlaceholder(p)
        #expect(f.order == ["i1", "i2", "i0"])
        #expect(f.controller.selection == Set(ids("i2")))
        #expect(f.saves.count == saves)
        #expect(f.controller.history.undoStack.count == undoDepth)
        #expect(f.changes == [.cells])
        // Discarding a real image or an unknown id does nothing.
        f.controller.discardPlaceholder(ImageID("i1"))
        f.controller.discardPlaceholder(p)
        #expect(f.order == ["i1", "i2", "i0"])
        #expect(f.changes == [.cells])
        // The move before it still undoes.
        f.controller.undo()
        #expect(f.order == ["i0", "i1", "i2"])
    }

    @Test func removingAPlaceholderRecordsNoUndo() {
        let f = Fixture(count: 2)
        let p = f.controller.insertPlaceholder(at: 1, label: "p")
        let removed = f.controller.remove([p])
        #expect(removed.map(\.id) == [p])
        #expect(f.order == ["i0", "i1"])
        #expect(!f.controller.history.canUndo)
        // Mixed: only the image is undoable.
        let q = f.controller.insertPlaceholder(at: 0, label: "q")
        f.controller.remove([q, ImageID("i1")])
        #expect(f.order == ["i0"])
        #expect(f.controller.history.undoName == "Delete Image")
        f.controller.undo()
        #expect(f.order == ["i0", "i1"])
        f.expectConsistent()
    }

    // MARK: Saving

    @Test func onSaveFollowsEverySavedEdit() {
        let f = Fixture(count: 5)
        #expect(f.move(["i4"], to: 0))
        #expect(f.saves.count == 1)
        f.expectConsistent()
        f.controller.remove([ImageID("i1")])
        #expect(f.saves.count == 2)
        f.expectConsistent()
        f.controller.undo()
        #expect(f.saves.count == 3)
        f.expectConsistent()
        f.controller.redo()
        #expect(f.saves.count == 4)
        f.expectConsistent()
        let p = f.controller.insertPlaceholder(at: 2, label: "p")
        #expect(f.saves.count == 4)
        f.controller.updatePlaceholder(p, progress: 0.5)
        #expect(f.saves.count == 4)
        f.controller.fulfillPlaceholder(p, with: image("n"))
        #expect(f.saves.count == 5)
        f.expectConsistent()
        f.controller.select(ImageID("i0"), mode: .replace)
        #expect(f.saves.count == 5)
        f.controller.correctAspectRatio(of: ImageID("i0"), to: 2)
        #expect(f.saves.count == 6)
        f.expectConsistent()
        #expect(f.lastSavedImages == ["i4", "i0", p.rawValue, "i2", "i3"])
    }

    // MARK: Aspect ratio

    @Test func correctAspectRatio() throws {
        let f = Fixture(count: 3)
        f.controller.correctAspectRatio(of: ImageID("i1"), to: 0.8)
        #expect(f.controller.cells[1].image?.aspectRatio == 0.8)
        #expect(f.controller.cells[1].aspectRatio == 0.8)
        #expect(f.controller.state.galleries[0].images[1].aspectRatio == 0.8)
        #expect(f.saves.count == 1)
        #expect(f.changes == [.cells])
        #expect(!f.controller.history.canUndo)
        f.expectConsistent()

        // Too small a difference, nonsense values, placeholders and unknown ids: nothing.
        f.controller.correctAspectRatio(of: ImageID("i1"), to: 0.803)
        for bad in [0.0, -1.0, .nan, .infinity] { f.controller.correctAspectRatio(of: ImageID("i0"), to: bad) }
        let p = f.controller.insertPlaceholder(at: 0, label: "p")
        f.controller.correctAspectRatio(of: p, to: 3)
        f.controller.correctAspectRatio(of: ImageID("none"), to: 3)
        #expect(f.saves.count == 1)
        #expect(f.controller.cells.compactMap(\.image).map(\.aspectRatio) == [1.5, 0.8, 1.5])
        #expect(f.controller.cells[0].aspectRatio == 1)
    }

    @Test func displayAspectRatioOfAbsurdValuesIsSquare() {
        #expect(GalleryCell(id: ImageID("a"), content: .image(image("a", ratio: 0))).aspectRatio == 1)
        #expect(GalleryCell(id: ImageID("a"), content: .image(image("a", ratio: 500))).aspectRatio == 1)
        #expect(GalleryCell(id: ImageID("a"), content: .image(image("a", ratio: .nan))).aspectRatio == 1)
        #expect(GalleryCell(id: ImageID("a"), content: .image(image("a", ratio: 2.5))).aspectRatio == 2.5)
    }
}

@MainActor @Suite struct PlaceholderLabelTests {
    @Test func relabelNamesThePlaceholderWithoutSavingIt() throws {
        let controller = Controller(state: GalleryState(galleries: [Gallery(name: "G")]))
        var saves = 0
        controller.library.onSave = { _ in saves += 1 }
        let id = controller.insertPlaceholder(at: 0, label: "image")
        controller.relabelPlaceholder(id, label: "cat.png")
        #expect(controller.cells.first?.content == .placeholder(label: "cat.png", progress: nil))
        #expect(saves == 0)
        #expect(controller.state.galleries[0].images.isEmpty)
    }
}

@Suite struct ImageLabelTests {
    @Test func labelIsTheFileName() {
        #expect(GalleryImage(url: "https://example.org/photos/cat%20one.png", aspectRatio: 1).label == "cat one.png")
        #expect(GalleryImage(url: "data:image/png;base64,AAAA", aspectRatio: 1).label == "Embedded image")
    }

    @Test func controlCharactersNeverReachTheLabel() {
        #expect(GalleryImage(url: "https://example.org/a%00b.png", aspectRatio: 1).label == "a%00b.png")
        #expect(GalleryImage(url: "https://example.org/line%0Abreak.png", aspectRatio: 1).label == "line%0Abreak.png")
        #expect(!GalleryImage(url: "https://example.org/%00", aspectRatio: 1).label.contains("\u{0}"))
    }

    @Test func plainAddressesReadFromTheirBytesAreLabelledAsURLComponentsLabelsThem() {
        let hash = String(repeating: "ab12", count: 16)
        let addresses = [
            "https://example.org/photos/cat.png", "https://example.org/photos/cat.png?size=large#top",
            "https://example.org/photos/", "https://example.org", "https://user:pw@example.org:8080",
            "https://example.org:8080/a/b//", "file:///home/u/Pictures/holiday.jpeg", "file:///",
            "file:///home/u/.local/share/image-gallery/imported/\(hash).png", "http://h/\(hash)", "http://h/.hidden",
            "http://h/..two.dots", "ftp://h/x.y.z", "svn+ssh://h/img.png", "http://h/a;b=c/d.png",
            "HTTPS://EXAMPLE.ORG/X.PNG",
        ]
        for address in addresses {
            let plain = ImageSourceLabel.plainLabel(for: address)
            #expect(plain != nil, "\(address)")
            #expect(plain == ImageSourceLabel.parsedLabel(for: address), "\(address)")
        }
        for address in [
            "https://example.org/cat%20one.png", "https://example.org/a b.png", "https://[::1]/x.png", "no-scheme.png",
            "mailto:someone@example.org", "https://example.org/photos/ch\u{E2}teau.png", "1http://h/x.png",
        ] {
            #expect(ImageSourceLabel.plainLabel(for: address) == nil, "\(address)")
        }
    }

    @Test func importedBytesAreNotLabelledByTheirHash() {
        let hash = String(repeating: "ab12", count: 16)
        #expect(
            GalleryImage(url: "file:///home/u/.local/share/image-gallery/imported/\(hash).png", aspectRatio: 1).label
                == "Imported image")
    }
}

@MainActor @Suite struct UndoSerialTests {
    @Test func eachStepHasItsOwnSerialAndUndoExposesThePreviousOne() throws {
        let images = (0..<3).map { GalleryImage(id: ImageID("s\($0)"), url: "https://e.org/\($0).png", aspectRatio: 1) }
        let controller = Controller(state: GalleryState(galleries: [Gallery(name: "G", images: images)]))
        #expect(controller.history.latestSerial == nil)
        controller.move([ImageID("s0")], toInsertionIndex: 2)
        let first = try #require(controller.history.latestSerial)
        controller.move([ImageID("s1")], toInsertionIndex: 2)
        let second = try #require(controller.history.latestSerial)
        #expect(first != second)
        controller.undo()
        #expect(controller.history.latestSerial == first)
        controller.redo()
        #expect(controller.history.latestSerial == second)
    }
}
