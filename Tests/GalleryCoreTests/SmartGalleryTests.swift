import Foundation
import Testing

@testable import GalleryCore

private func image(_ name: String, note: String? = nil, tags: [String] = []) -> GalleryImage {
    var image = GalleryImage(id: ImageID(name), url: "https://example.org/\(name).png", aspectRatio: 1.5)
    image.note = note
    image.tags = tags
    return image
}

@MainActor private func makeLibrary(smart: [SmartGallery] = []) -> GalleryLibrary {
    var state = GalleryState(galleries: [
        Gallery(id: "cats", name: "Cats", images: [image("c0", tags: ["colour/red"]), image("c1", note: "Été")]),
        Gallery(id: "dogs", name: "Dogs", images: [image("d0", tags: ["colour"]), image("d1")]),
    ])
    state.smartGalleries = smart
    return GalleryLibrary(state: state)
}

/// Smart galleries: their members as the library changes, their list's edits and undo, and the state file.
@MainActor @Suite struct SmartGalleryTests {
    @Test func membersFollowTheLibrary() {
        let library = makeLibrary()
        let index = SearchIndex(library: library)
        let colours = SmartGallery(name: "Colours", query: SearchQuery(tag: "colour"))
        #expect(colours.members(in: index.corpus).map(\.rawValue) == ["c0", "d0"])
        var summer = SearchQuery(text: "ete")
        summer.hasNote = true
        let notes = SmartGallery(name: "Summer", query: summer)
        #expect(notes.members(in: index.corpus).map(\.rawValue) == ["c1"])
        // A new image that matches raises the count; one removed lowers it; undo brings it back.
        let placeholder = library.insertPlaceholder(in: "dogs", label: "x")!
        library.fulfillPlaceholder(placeholder, with: image("d2", tags: ["Colour/Blue"]))
        // The image arrives under its placeholder's id.
        let d2 = placeholder.rawValue
        #expect(colours.members(in: index.corpus).map(\.rawValue) == ["c0", "d0", d2])
        library.remove([ImageID("c0")], from: "cats")
        #expect(colours.members(in: index.corpus).map(\.rawValue) == ["d0", d2])
        library.undo()
        #expect(colours.members(in: index.corpus).map(\.rawValue) == ["c0", "d0", d2])
        // Within one gallery: the others' images are not members.
        let dogsOnly = SmartGallery(name: "Dogs' colours", query: SearchQuery(galleryID: "dogs", tag: "colour"))
        #expect(dogsOnly.members(in: index.corpus).map(\.rawValue) == ["d0", d2])
        // Failed to load: the app names the images.
        var failedQuery = SearchQuery()
        failedQuery.failedToLoad = true
        let failed = SmartGallery(name: "Broken", query: failedQuery)
        #expect(failed.members(in: index.corpus, failed: [ImageID("d1")]).map(\.rawValue) == ["d1"])
    }

    @Test func saveRenameMoveAndDeleteAreEachOneUndoStep() {
        let library = makeLibrary()
        let first = library.saveSearch(SearchQuery(text: "cat"))
        let second = library.saveSearch(SearchQuery(tag: "colour"))
        #expect(library.smartGalleries.map(\.name) == ["Saved Search", "Saved Search 2"])
        #expect(library.renameSmartGallery(first, to: "  Cats  "))
        #expect(!library.renameSmartGallery(first, to: "   "))
        #expect(library.moveSmartGallery(second, to: 0))
        #expect(library.smartGalleries.map(\.name) == ["Saved Search 2", "Cats"])
        #expect(library.deleteSmartGallery(second))
        #expect(library.smartGalleries.map(\.name) == ["Cats"])
        #expect(library.history.undoName == "Delete Saved Search")
        library.undo()
        #expect(library.smartGalleries.map(\.name) == ["Saved Search 2", "Cats"])
        library.undo()
        #expect(library.smartGalleries.map(\.name) == ["Cats", "Saved Search 2"])
        library.undo()
        #expect(library.smartGalleries.map(\.name) == ["Saved Search", "Saved Search 2"])
        library.redo()
        #expect(library.smartGalleries.map(\.name) == ["Cats", "Saved Search 2"])
        #expect(library.state.smartGalleries.map(\.id) == [first, second])
    }

    @Test func theStateFileKeepsThemAndOlderFilesLoadUnchanged() throws {
        var query = SearchQuery(text: "été", galleryID: "cats", tag: "colour/red", domain: "example.org")
        query.addedAfter = Date(timeIntervalSince1970: 1_700_000_000)
        query.orientation = .portrait
        query.format = "png"
        query.hasNote = true
        let smart = SmartGallery(id: "s1", name: "Red", query: query)
        let library = makeLibrary(smart: [smart])
        let data = StateFileFormat.encode(library.state)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"smartGalleries\""))
        let read = try StateFileFormat.decode(data)
        #expect(read.smartGalleries == [smart])
        #expect(StateFileFormat.encode(read) == data)

        // A file without the field is written back without it, byte for byte.
        let older = StateFileFormat.encode(makeLibrary().state)
        #expect(!String(decoding: older, as: UTF8.self).contains("smartGalleries"))
        #expect(StateFileFormat.encode(try StateFileFormat.decode(older)) == older)

        // A field of another shape is kept as read and shows nothing.
        let odd = String(decoding: older, as: UTF8.self).replacingOccurrences(
            of: "\"version\"", with: "\"smartGalleries\" : [ 42 ],\n  \"version\"")
        let oddState = try StateFileFormat.decode(Data(odd.utf8))
        #expect(oddState.smartGalleries.isEmpty)
        #expect(oddState.unknownFields["smartGalleries"] == RawJSON(.array([.number("42")])))
    }
}
