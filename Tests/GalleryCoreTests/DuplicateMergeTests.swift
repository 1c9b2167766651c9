import Foundation
import Testing

@testable import GalleryCore

private func copy(
    _ id: String, url: String, width: Int = 0, height: Int = 0, format: String? = nil, bytes: Int = 0
) -> GalleryImage {
    var image = GalleryImage(id: ImageID(id), url: url, aspectRatio: 1)
    if width > 0 || bytes > 0 {
        image.original = KeptOriginal(
            sha256: String(repeating: id.count.description, count: 64), byteCount: bytes, pixelWidth: width,
            pixelHeight: height, format: format)
    }
    return image
}

/// A library of "cats" (c0, kept, c1, c2) and "dogs" (d0, other), each copy of one picture knowing something.
@MainActor private final class Library {
    let library: GalleryLibrary
    var saves: [GalleryState] = []
    static let keptOrigin = ImageOrigin(arrival: .drop, added: "2026-11-28T10:00:00Z", page: "https://cats.test/")
    static let otherOrigin = ImageOrigin(
        arrival: .paste, added: "2026-11-27T09:00:00Z", link: "https://dogs.test/post", page: "https://dogs.test/",
        altText: "A cat on a mat", title: "Mat cat", browserDescription: "cat.jpg")
    var kept: GalleryImage
    var other: GalleryImage

    init() {
        kept = copy("kept", url: "https://cats.test/cat.png", width: 800, height: 600, format: "png", bytes: 900_000)
        kept.origin = Self.keptOrigin
        kept.note = "On the mat"
        kept.tags = ["cats", "mats"]
        other = copy("other", url: "https://dogs.test/cat.jpg", width: 400, height: 300, format: "jpeg", bytes: 40_000)
        other.origin = Self.otherOrigin
        other.note = "Seen at the dogs’ site"
        other.tags = ["Cats", "funny"]
        other.mergedCopies = [MergedCopy(url: "https://third.test/cat.webp", origin: ImageOrigin(page: "p3"))]
        library = GalleryLibrary(
            state: GalleryState(galleries: [
                Gallery(
                    id: "cats", name: "Cats",
                    images: [copy("c0", url: "u0"), kept, copy("c1", url: "u1"), copy("c2", url: "u2")]),
                Gallery(id: "dogs", name: "Dogs", images: [copy("d0", url: "d0"), other]),
            ]))
        library.onSave = { [unowned self] in saves.append($0) }
    }

    func image(_ id: String) -> GalleryImage? {
        guard let (galleryID, index) = library.location(of: ImageID(id)) else { return nil }
        return library.cells(of: galleryID)[index].image
    }

    func ids(_ galleryID: String) -> [String] { library.cells(of: galleryID).map(\.id.rawValue) }
}

@MainActor @Suite struct DuplicateMergeTests {
    @Test func theKeptImageHoldsEveryOriginFieldNoteAndTagOfTheOther() throws {
        let l = Library()
        #expect(
            l.library.merge([DuplicateMerge(kept: ImageID("kept"), merged: [ImageID("other")])]) == [ImageID("kept")])
        let merged = try #require(l.image("kept"))
        #expect(l.image("other") == nil)
        #expect(l.ids("cats") == ["c0", "kept", "c1", "c2"])
        #expect(l.ids("dogs") == ["d0"])
        // Its own bytes, address and place; the other's address and every origin field among its copies.
        #expect(merged.url == "https://cats.test/cat.png")
        #expect(merged.original == l.kept.original)
        #expect(
            merged.addresses == [
                "https://cats.test/cat.png", "https://dogs.test/cat.jpg", "https://third.test/cat.webp",
            ])
        #expect(merged.mergedCopies[0] == MergedCopy(url: l.other.url, origin: Library.otherOrigin))
        // The fields it lacked come from the other; those it had stay its own.
        #expect(merged.origin?.page == "https://cats.test/")
        #expect(merged.origin?.arrival == .drop)
        #expect(merged.origin?.added == "2026-11-28T10:00:00Z")
        #expect(merged.origin?.link == "https://dogs.test/post")
        #expect(merged.origin?.altText == "A cat on a mat")
        #expect(merged.origin?.title == "Mat cat")
        #expect(merged.origin?.browserDescription == "cat.jpg")
        #expect(merged.note == "On the mat\n\nSeen at the dogs’ site")
        #expect(merged.tags == ["cats", "mats", "funny"])
        #expect(l.library.history.undoName == "Merge Duplicate")
        // Saved as it stands, and read back the same.
        let saved = try #require(l.saves.last)
        #expect(saved.galleries[0].images[1] == merged)
        #expect(try StateStore.decode(StateStore.encode(saved)) == saved)
    }

    @Test func oneUndoRestoresBothAndRedoMergesAgain() throws {
        let l = Library()
        let before = l.library.state
        l.library.merge([DuplicateMerge(kept: ImageID("kept"), merged: [ImageID("other")])])
        let after = l.library.state
        #expect(Set(l.library.undo()) == ["cats", "dogs"])
        #expect(l.library.state == before)
        #expect(l.image("kept") == l.kept)
        #expect(l.image("other") == l.other)
        #expect(!l.library.history.canUndo)
        l.library.redo()
        #expect(l.library.state == after)
    }

    @Test func mergeAllIsOneStepAndRestoresEveryPlace() throws {
        let l = Library()
        let before = l.library.state
        let kept = l.library.merge([
            DuplicateMerge(kept: ImageID("c0"), merged: [ImageID("c2"), ImageID("d0")]),
            DuplicateMerge(kept: ImageID("kept"), merged: [ImageID("other"), ImageID("c1")]),
            // Names an image merged already: left out.
            DuplicateMerge(kept: ImageID("c1"), merged: [ImageID("c2")]),
        ])
        #expect(kept == [ImageID("c0"), ImageID("kept")])
        #expect(l.ids("cats") == ["c0", "kept"])
        #expect(l.ids("dogs") == [])
        #expect(l.image("c0")?.addresses == ["u0", "u2", "d0"])
        #expect(l.library.history.undoName == "Merge 4 Duplicates")
        l.library.undo()
        #expect(l.library.state == before)
        #expect(!l.library.history.canUndo)
    }

    @Test func nothingToMergeRecordsNothing() {
        let l = Library()
        #expect(l.library.merge([DuplicateMerge(kept: ImageID("kept"), merged: [ImageID("nobody")])]).isEmpty)
        #expect(l.library.merge([DuplicateMerge(kept: ImageID("kept"), merged: [ImageID("kept")])]).isEmpty)
        #expect(l.library.merge([]).isEmpty)
        #expect(!l.library.history.canUndo)
        #expect(l.saves.isEmpty)
    }

    @Test func theMergeSurvivesAnotherComputersConcurrentEdits() throws {
        let l = Library()
        let base = l.library.state
        l.library.merge([DuplicateMerge(kept: ImageID("kept"), merged: [ImageID("other")])])
        let ours = l.library.state
        // The other computer tagged the kept image and added one of its own meanwhile.
        var theirs = base
        theirs.galleries[0].images[1].tags.append("seen")
        theirs.galleries[1].images.append(copy("new", url: "https://new.test/x.png"))
        for merged in [
            GalleryState.merged(base: base, theirs: theirs, ours: ours),
            GalleryState.merged(base: base, theirs: ours, ours: theirs),
        ] {
            let kept = try #require(merged.galleries[0].images.first { $0.id == ImageID("kept") })
            #expect(kept.addresses.contains("https://dogs.test/cat.jpg"))
            #expect(kept.tags == ["cats", "mats", "funny", "seen"])
            #expect(merged.galleries[1].images.map(\.id.rawValue) == ["d0", "new"])
        }
    }

    @Test func theBetterCopyHasMorePixelsThenIsLosslessThenIsLarger() {
        let small = copy("a", url: "a", width: 400, height: 300, format: "png", bytes: 900_000)
        let large = copy("b", url: "b", width: 800, height: 600, format: "jpeg", bytes: 50_000)
        #expect(DuplicateMerge.best(of: [small, large])?.id == large.id)
        let jpeg = copy("c", url: "c", width: 800, height: 600, format: "jpeg", bytes: 200_000)
        let png = copy("d", url: "d", width: 800, height: 600, format: "png", bytes: 100_000)
        #expect(DuplicateMerge.best(of: [jpeg, png])?.id == png.id)
        #expect(DuplicateMerge.best(of: [large, jpeg])?.id == jpeg.id)
        let webp = copy("e", url: "e", width: 800, height: 600, format: "webp", bytes: 200_000)
        // Equals: the first stays.
        #expect(DuplicateMerge.best(of: [jpeg, webp])?.id == jpeg.id)
        #expect(DuplicateMerge.best(of: [webp, jpeg])?.id == webp.id)
        // Without kept bytes an image counts least.
        #expect(DuplicateMerge.best(of: [copy("f", url: "f"), small])?.id == small.id)
        #expect(
            DuplicateMerge(keepingBestOf: [small, large, jpeg])
                == DuplicateMerge(kept: jpeg.id, merged: [small.id, large.id]))
        #expect(DuplicateMerge(keepingBestOf: [small]) == nil)
    }

    @Test func mergedCopiesOfAnotherShapeAreKeptAsRead() throws {
        let text = """
            {"galleries":[{"id":"g","name":"G","images":[{"id":"a","url":"u","aspectRatio":1,\
            "mergedCopies":"newer"}]}],"version":1}
            """
        let state = try StateStore.decode(Data(text.utf8))
        let image = state.galleries[0].images[0]
        #expect(image.mergedCopies.isEmpty)
        #expect(image.unknownFields["mergedCopies"] != nil)
        #expect(try StateStore.decode(StateStore.encode(state)) == state)
    }

    @Test func aMergeKeepsNoMoreCopiesThanTheStateFileReads() throws {
        var kept = copy("kept", url: "https://e.org/kept.png")
        kept.mergedCopies = (0..<MergedCopy.maximumPerImage - 2).map { MergedCopy(url: "https://e.org/\($0).png") }
        let others = (0..<5).map { copy("o\($0)", url: "https://o.org/\($0).png") }
        let merged = DuplicateMerge.merged(kept, with: others)
        #expect(merged.mergedCopies.count == MergedCopy.maximumPerImage)
        #expect(merged.mergedCopies.suffix(2).map(\.url) == ["https://o.org/0.png", "https://o.org/1.png"])
        let state = GalleryState(galleries: [Gallery(id: "g", name: "G", images: [merged])])
        #expect(try StateStore.decode(StateStore.encode(state)) == state)
    }
}
