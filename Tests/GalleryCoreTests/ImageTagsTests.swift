import Foundation
import Testing

@testable import GalleryCore

/// A library of two galleries, "cats" (c0…c3) and "dogs" (d0, d1), recording saves.
@MainActor private final class Library {
    let library: GalleryLibrary
    var saves: [GalleryState] = []

    init(tags: [String: [String]] = [:]) {
        func image(_ id: String) -> GalleryImage {
            var image = GalleryImage(id: ImageID(id), url: "https://t.test/\(id).png", aspectRatio: 1)
            image.tags = tags[id] ?? []
            return image
        }
        library = GalleryLibrary(
            state: GalleryState(galleries: [
                Gallery(id: "cats", name: "Cats", images: (0..<4).map { image("c\($0)") }),
                Gallery(id: "dogs", name: "Dogs", images: (0..<2).map { image("d\($0)") }),
            ]))
        library.onSave = { [unowned self] in saves.append($0) }
    }

    func tags(_ id: String) -> [String]? {
        guard let (galleryID, index) = library.location(of: ImageID(id)) else { return nil }
        return library.cells(of: galleryID)[index].image?.tags
    }
    func savedTags(_ id: String) -> [String]? {
        saves.last?.galleries.flatMap(\.images).first { $0.id == ImageID(id) }?.tags
    }
    var uses: [String: Int] { Dictionary(uniqueKeysWithValues: library.tagsInUse().map { ($0.name, $0.count) }) }
}

private func ids(_ names: String...) -> [ImageID] { names.map(ImageID.init) }

@MainActor @Suite struct ImageTagsTests {
    @Test func tagsAddedToSeveralImagesAreOneSavedStep() {
        let l = Library(tags: ["c1": ["red"]])
        #expect(l.library.addTags(["  Red ", "cat", "kitchen  wall"], to: ids("c0", "c1", "c2")))
        #expect(l.tags("c0") == ["Red", "cat", "kitchen wall"])
        // c1 had "red" already: no second spelling of it.
        #expect(l.tags("c1") == ["red", "cat", "kitchen wall"])
        #expect(l.tags("c3") == [])
        #expect(l.savedTags("c2") == ["Red", "cat", "kitchen wall"])
        #expect(l.saves.count == 1)
        #expect(l.library.history.undoStack.count == 1)
        #expect(l.library.history.undoName == "Add 3 Tags")
        #expect(l.library.undo() == ["cats"])
        #expect(l.tags("c0") == [] && l.tags("c1") == ["red"] && l.tags("c2") == [])
        #expect(l.savedTags("c1") == ["red"])
        l.library.redo()
        #expect(l.tags("c2") == ["Red", "cat", "kitchen wall"])
    }

    @Test func tagsRemovedFromSeveralImagesAreOneStepAndUndoBringsThemBack() {
        let l = Library(tags: ["c0": ["a", "b"], "c1": ["B"], "d0": ["b", "c"]])
        #expect(l.library.removeTags(["b"], from: ids("c0", "c1", "d0")))
        #expect(l.tags("c0") == ["a"] && l.tags("c1") == [] && l.tags("d0") == ["c"])
        #expect(l.library.history.undoStack.count == 1)
        #expect(l.library.history.undoName == "Remove Tag")
        #expect(Set(l.library.undo()) == ["cats", "dogs"])
        #expect(l.tags("c0") == ["a", "b"] && l.tags("c1") == ["B"] && l.tags("d0") == ["b", "c"])
        #expect(l.savedTags("d0") == ["b", "c"])
    }

    @Test func badInputChangesNothing() {
        let l = Library(tags: ["c0": ["a"]])
        #expect(!l.library.addTags(["", "  ", "/", " / "], to: ids("c0")))
        #expect(!l.library.addTags(["A"], to: ids("c0")))
        #expect(!l.library.addTags(["x"], to: ids("nobody")))
        #expect(!l.library.removeTags(["zzz", ""], from: ids("c0")))
        #expect(!l.library.renameTag("a", to: "  "))
        #expect(!l.library.renameTag("", to: "b"))
        #expect(!l.library.renameTag("nope", to: "b"))
        #expect(!l.library.renameTag("a", to: " a "))
        #expect(l.saves.isEmpty && !l.library.history.canUndo)
        #expect(TagName.clean(" colour /  dark   red/ ") == "colour/dark red")
        #expect(TagName.clean("a\n\tb") == "a b")
    }

    @Test func renamingAParentRenamesItsNestedTagsEverywhere() {
        let l = Library(tags: ["c0": ["colour/red", "cat"], "c1": ["Colour"], "d0": ["colour/blue/dark", "colours"]])
        #expect(l.uses["colour"] == 3 && l.uses["colour/red"] == 1 && l.uses["colour/blue"] == 1)
        #expect(l.library.renameTag("colour", to: "hue"))
        #expect(l.tags("c0") == ["hue/red", "cat"])
        #expect(l.tags("c1") == ["hue"])
        // "colours" is another tag, not one nested in "colour".
        #expect(l.tags("d0") == ["hue/blue/dark", "colours"])
        #expect(l.savedTags("d0") == ["hue/blue/dark", "colours"])
        #expect(l.library.history.undoName == "Rename Tag")
        #expect(l.library.history.undoStack.count == 1)
        l.library.undo()
        #expect(l.tags("c0") == ["colour/red", "cat"] && l.tags("d0") == ["colour/blue/dark", "colours"])
        // A nested tag alone, and a change of case only.
        #expect(l.library.renameTag("colour/red", to: "hue/red"))
        #expect(l.tags("c0") == ["hue/red", "cat"] && l.tags("c1") == ["Colour"])
        #expect(l.library.renameTag("cat", to: "Cat"))
        #expect(l.tags("c0") == ["hue/red", "Cat"])
    }

    @Test func mergingOntoATagInUseLeavesNoDuplicate() {
        let l = Library(tags: ["c0": ["kitty", "Cat"], "c1": ["kitty"], "c2": ["cat/black"]])
        #expect(l.library.renameTag("kitty", to: "cat"))
        #expect(l.library.history.undoName == "Merge Tags")
        #expect(l.tags("c0") == ["cat"])
        #expect(l.tags("c1") == ["cat"])
        #expect(l.tags("c2") == ["cat/black"])
        #expect(l.uses == ["cat": 3, "cat/black": 1])
        l.library.undo()
        #expect(l.tags("c0") == ["kitty", "Cat"] && l.tags("c1") == ["kitty"])
    }

    @Test func tagsInUseAndOfASelectionCountImages() {
        let l = Library(tags: ["c0": ["b", "a/x"], "c1": ["A", "b"], "d1": ["a/y", "a/x"]])
        let uses = l.library.tagsInUse()
        #expect(uses.map(\.name) == ["a", "a/x", "a/y", "b"])
        #expect(uses.map(\.count) == [3, 2, 1, 2])
        let some = l.library.tags(of: ids("c0", "c1", "c2"))
        // A selection's own tags, without their parents.
        #expect(some.map(\.name) == ["A", "a/x", "b"])
        #expect(some.map(\.count) == [1, 1, 2])
        #expect(l.library.isTagInUse("A/X") && l.library.isTagInUse("a") && !l.library.isTagInUse("x"))
    }

    @Test func tagsTravelWithMovesAndCopies() throws {
        let l = Library(tags: ["c1": ["keep", "a/b"]])
        l.library.transfer(ids("c1"), from: "cats", to: "dogs", copy: false)
        #expect(l.tags("c1") == ["keep", "a/b"])
        #expect(l.saves.last?.galleries[1].images.last?.tags == ["keep", "a/b"])
        l.library.undo()
        #expect(l.library.location(of: ImageID("c1"))?.galleryID == "cats")
        #expect(l.tags("c1") == ["keep", "a/b"])
        let copy = try #require(l.library.transfer(ids("c1"), from: "cats", to: "dogs", copy: true).first)
        #expect(l.tags(copy.rawValue) == ["keep", "a/b"])
        // From then on each has its own.
        l.library.addTags(["copy"], to: [copy])
        #expect(l.tags("c1") == ["keep", "a/b"])
        #expect(l.uses["keep"] == 2 && l.uses["copy"] == 1)
        l.library.removeTags(["keep"], from: ids("c1"))
        l.library.undo()
        l.library.undo()
        l.library.undo()
        #expect(l.tags(copy.rawValue) == nil)
        l.library.redo()
        #expect(l.tags(copy.rawValue) == ["keep", "a/b"])
    }

    @Test func aLongTagAndTenThousandTagsAreFine() {
        let l = Library()
        let long = String(repeating: "é", count: 1000)
        let many = (0..<10_000).map { "tag \($0)" }
        #expect(l.library.addTags([long] + many, to: ids("c0", "d0")))
        #expect(l.tags("c0")?.count == 10_001 && l.tags("c0")?.first == long)
        #expect(l.library.tagsInUse().count == 10_001)
        #expect(l.library.renameTag("tag 5", to: "tag 6"))
        #expect(l.tags("d0")?.count == 10_000)
        #expect(l.library.removeTags(many, from: ids("c0")))
        #expect(l.tags("c0") == [long])
        l.library.undo()
        #expect(l.tags("c0")?.count == 10_000)
    }
}

@MainActor @Suite struct TagsOfPresentImagesTests {
    @Test func onlyImagesStillThereAreCounted() {
        let l = Library()
        l.library.remove([ImageID("c1")], from: "cats")
        #expect(l.library.imageIDs(among: ids("d1", "c1", "c0", "nobody")) == ids("d1", "c0"))
    }
}
