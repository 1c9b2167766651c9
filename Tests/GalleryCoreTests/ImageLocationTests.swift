import Foundation
import Testing

@testable import GalleryCore

/// The library finds an image's gallery through an index kept with every edit, and derives its saved state and tags
/// in use only for the galleries that changed: each must answer as going through every gallery does.
@MainActor @Suite struct ImageLocationTests {
    private static func image(_ name: String, tags: [String] = []) -> GalleryImage {
        var image = GalleryImage(id: ImageID(name), url: "https://example.org/\(name).png", aspectRatio: 1.5)
        image.tags = tags
        return image
    }

    /// Where every cell is, by going through every gallery.
    private static func scannedLocations(_ library: GalleryLibrary) -> [ImageID: (galleryID: String, index: Int)] {
        var found: [ImageID: (galleryID: String, index: Int)] = [:]
        for gallery in library.galleries {
            for (index, cell) in library.cells(of: gallery.id).enumerated() { found[cell.id] = (gallery.id, index) }
        }
        return found
    }

    private static func expectAnswersAsScan(_ library: GalleryLibrary, known: Set<ImageID>, step: String) {
        let scanned = scannedLocations(library)
        for id in known.union(scanned.keys) {
            let location = library.location(of: id)
            #expect(location?.galleryID == scanned[id]?.galleryID, "\(id) after \(step)")
            #expect(location?.index == scanned[id]?.index, "\(id) after \(step)")
        }
        let images = library.galleries.flatMap { library.cells(of: $0.id) }.filter { !$0.isPlaceholder }.map(\.id)
        let asked = Array(known.union(scanned.keys)).sorted { $0.rawValue < $1.rawValue }
        #expect(library.imageIDs(among: asked) == asked.filter(Set(images).contains), "after \(step)")
        let cells = library.galleries.map { library.cells(of: $0.id) }
        #expect(
            library.tagsInUse() == GalleryLibrary.tagsInUse(merging: cells.map(GalleryLibrary.tagUses(among:))),
            "after \(step)")
        let state = library.state
        #expect(state.galleries.map(\.id) == library.galleries.map(\.id), "after \(step)")
        for (gallery, cells) in zip(state.galleries, cells) {
            #expect(gallery.images == cells.compactMap(\.image), "\(gallery.name) after \(step)")
        }
        let some = Array(images.prefix(3)) + [ImageID("nowhere")]
        let expected = some.compactMap { id in
            cells.joined().first { $0.id == id }?.image
        }
        let tagged = Set(expected.flatMap(\.tags))
        #expect(library.tags(of: some).map(\.name).sorted() == tagged.sorted(), "after \(step)")
    }

    @Test func locationsFollowRandomEditsUndosAndMerges() {
        var random = SplitMix64(seed: 48)
        let tags = ["colour/red", "Colour/Blue", "mood", "Зима"]
        // "a1" twice: the second one gets a fresh id as the library takes the state up.
        let library = GalleryLibrary(
            state: GalleryState(galleries: [
                Gallery(
                    id: "a", name: "A",
                    images: (0..<6).map { Self.image("a\($0)", tags: [tags[$0 % tags.count]]) }),
                Gallery(id: "b", name: "B", images: (0..<4).map { Self.image("b\($0)") } + [Self.image("a1")]),
                Gallery(id: "c", name: "C", images: []),
            ]))
        var known = Set(library.galleries.flatMap { library.cells(of: $0.id) }.map(\.id))
        var placeholders: [ImageID] = []
        var made = 0
        Self.expectAnswersAsScan(library, known: known, step: "taking the state up")
        for step in 0..<400 {
            let galleries = library.galleries.map(\.id)
            let gallery = galleries.randomElement(using: &random)!
            let cells = library.cells(of: gallery)
            let images = cells.filter { !$0.isPlaceholder }.map(\.id)
            let some = Array(images.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)))
            let name: String
            switch Int.random(in: 0..<14, using: &random) {
            case 0:
                name = "a move"
                library.move(some, in: gallery, toInsertionIndex: Int.random(in: 0...cells.count, using: &random))
            case 1, 2:
                let copy = Bool.random(using: &random)
                name = copy ? "a copy" : "a transfer"
                let destination = galleries.randomElement(using: &random)!
                known.formUnion(library.transfer(some, from: gallery, to: destination, copy: copy))
            case 3:
                name = "a deletion"
                library.remove(Set(some + placeholders.prefix(1)), from: gallery)
            case 4, 5:
                name = "an undo"
                library.undo()
            case 6:
                name = "a redo"
                library.redo()
            case 7:
                name = "placeholders"
                let added =
                    library.insertPlaceholders(
                        in: gallery, at: Int.random(in: 0...cells.count, using: &random), labels: ["one", "two"]) ?? []
                placeholders += added
                known.formUnion(added)
                library.groupArrivals(added)
            case 8:
                name = "an arrival"
                guard let placeholder = placeholders.popLast() else { continue }
                made += 1
                library.fulfillPlaceholder(placeholder, with: Self.image("new\(made)", tags: ["mood/new"]))
            case 9:
                name = "a failed download"
                guard let placeholder = placeholders.popLast() else { continue }
                library.discardPlaceholder(placeholder)
            case 10:
                name = "a gallery created"
                library.createGallery()
            case 11:
                name = "a gallery deleted"
                library.deleteGallery(gallery)
            case 12:
                name = "tags"
                library.addTags([tags.randomElement(using: &random)!], to: some)
                library.removeTags([tags.randomElement(using: &random)!], from: some)
            default:
                name = "a merge"
                if some.count > 1 { library.merge([DuplicateMerge(kept: some[0], merged: Array(some.dropFirst()))]) }
            }
            Self.expectAnswersAsScan(library, known: known, step: "step \(step), \(name)")
        }
        // A change from elsewhere: the state merged in brings its own images.
        let ours = library.state
        var theirs = ours
        theirs.galleries[0].images.insert(Self.image("theirs", tags: ["mood"]), at: 0)
        if theirs.galleries.count > 1 { theirs.galleries[1].images.removeAll() }
        library.adoptMerge(theirs, over: ours)
        known.insert(ImageID("theirs"))
        Self.expectAnswersAsScan(library, known: known, step: "a merge from elsewhere")
    }

    @Test func savedStatesShareTheGalleriesThatDidNotChange() {
        let library = GalleryLibrary(
            state: GalleryState(galleries: [
                Gallery(id: "a", name: "A", images: (0..<5).map { Self.image("a\($0)") }),
                Gallery(id: "b", name: "B", images: (0..<5).map { Self.image("b\($0)") }),
            ]))
        var saves: [GalleryState] = []
        library.onSave = { saves.append($0) }
        func storage(_ state: GalleryState, _ gallery: Int) -> UnsafeRawPointer? {
            state.galleries[gallery].images.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        }
        library.setNote("Kitchen", of: ImageID("a2"))
        library.move([ImageID("a0")], in: "a", toInsertionIndex: 3)
        library.addTags(["wall"], to: [ImageID("a4")])
        #expect(saves.count == 3)
        #expect(storage(saves[0], 1) == storage(saves[1], 1))
        #expect(storage(saves[1], 1) == storage(saves[2], 1))
        #expect(storage(saves[0], 0) != storage(saves[1], 0))
        #expect(saves[2].galleries[0].images.map(\.id.rawValue) == ["a1", "a2", "a3", "a0", "a4"])
        #expect(saves[2].galleries[0].images[4].tags == ["wall"])
        // Asked again with nothing changed, the state is the same arrays.
        #expect(storage(library.state, 0) == storage(saves[2], 0))
    }
}
