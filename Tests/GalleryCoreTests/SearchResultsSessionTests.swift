import Foundation
import Testing

@testable import GalleryCore

private func image(_ name: String, note: String? = nil) -> GalleryImage {
    var image = GalleryImage(id: ImageID(name), url: "https://example.org/\(name).png", aspectRatio: 1.5)
    image.note = note
    return image
}

@MainActor private func makeLibrary() -> GalleryLibrary {
    GalleryLibrary(
        state: GalleryState(galleries: [
            Gallery(id: "cats", name: "Cats", images: [image("c0", note: "harbour"), image("c1"), image("c2")]),
            Gallery(id: "dogs", name: "Dogs", images: [image("d0"), image("d1", note: "Harbour at night")]),
        ]))
}

/// A window showing search results: cells of several galleries, grouped, edited in their own galleries.
@MainActor @Suite struct SearchResultsSessionTests {
    private func results(_ library: GalleryLibrary, _ text: String) -> SearchResults {
        SearchIndex(library: library).corpus.search(SearchQuery(text: text))!
    }

    @Test func resultsShowGroupedAndTheGalleryComesBackWithItsSelection() {
        let library = makeLibrary()
        let session = GallerySession(library: library, galleryID: "cats")
        session.select(ImageID("c1"), mode: .replace)
        var changes: [GallerySession.Change] = []
        session.onChange = { changes.append($0) }
        session.showResults(results(library, "harbour"))
        #expect(session.cells.map(\.id.rawValue) == ["c0", "d1"])
        #expect(session.resultSections.map(\.name) == ["Cats", "Dogs"])
        #expect(session.resultSections.map(\.range) == [0..<1, 1..<2])
        #expect(session.galleryID(of: ImageID("d1")) == "dogs")
        #expect(session.selection.isEmpty)
        #expect(changes == [.searchResults])
        session.showResults(nil)
        #expect(session.cells.map(\.id.rawValue) == ["c0", "c1", "c2"])
        #expect(session.selection == [ImageID("c1")])
        #expect(session.resultSections.isEmpty)
    }

    @Test func resultsFollowTheLibraryAndAreNotReordered() {
        let library = makeLibrary()
        let session = GallerySession(library: library, galleryID: "cats")
        session.showResults(results(library, "harbour"))
        // A result moved to another gallery still shows, under its new gallery.
        _ = library.transfer([ImageID("d1")], from: "dogs", to: "cats", copy: false)
        #expect(session.cells.map(\.id.rawValue) == ["c0"])
        session.showResults(results(library, "harbour"))
        #expect(session.cells.map(\.id.rawValue) == ["c0", "d1"])
        #expect(session.resultSections.map(\.galleryID) == ["cats"])
        #expect(!session.move([ImageID("d1")], toInsertionIndex: 0))
        #expect(session.insertPlaceholder(at: 0, label: "x") == nil)
    }

    @Test func recordsMadeAmongResultsShowInTheirCellsWhereTheyStand() {
        let library = makeLibrary()
        let session = GallerySession(library: library, galleryID: "cats")
        session.showResults(results(library, "harbour"))
        var changes: [GallerySession.Change] = []
        session.onChange = { changes.append($0) }
        let moving = AnimationSummary(frameCount: 8, duration: 800)
        library.recordAnimations([(ImageID("d1"), "dogs", 1, moving), (ImageID("d0"), "dogs", 0, moving)])
        #expect(session.cells.map(\.id.rawValue) == ["c0", "d1"])
        #expect(session.cells.map(\.image?.animation) == [nil, moving])
        #expect(session.resultSections.map(\.range) == [0..<1, 1..<2])
        #expect(changes == [.cells])
    }

    @Test func removingResultsTakesEachFromItsOwnGallery() {
        let library = makeLibrary()
        let session = GallerySession(library: library, galleryID: "cats")
        session.showResults(results(library, "harbour"))
        let removed = session.remove([ImageID("c0"), ImageID("d1")])
        #expect(Set(removed.map(\.id.rawValue)) == ["c0", "d1"])
        #expect(library.cells(of: "cats").map(\.id.rawValue) == ["c1", "c2"])
        #expect(library.cells(of: "dogs").map(\.id.rawValue) == ["d0"])
        #expect(session.cells.isEmpty)
    }

    @Test func showingAnotherGalleryLeavesTheResults() {
        let library = makeLibrary()
        let session = GallerySession(library: library, galleryID: "cats")
        session.showResults(results(library, "harbour"))
        session.show("dogs")
        #expect(!session.isShowingResults)
        #expect(session.cells.map(\.id.rawValue) == ["d0", "d1"])
    }

    @Test func currentResultsAreReadWhereTheIndexFoundThemAndOthersAreLookedUp() throws {
        let library = makeLibrary()
        let index = SearchIndex(library: library)
        let session = GallerySession(library: library, galleryID: "cats")
        let found = try #require(index.corpus.search(SearchQuery(text: "harbour")))
        session.showResults(found, current: true)
        #expect(session.cells.map(\.id.rawValue) == ["c0", "d1"])
        #expect(session.cells[1].image?.note == "Harbour at night")
        // A placeholder before the results moves them among the cells: they are found by id, not by position.
        _ = library.insertPlaceholder(in: "dogs", at: 0, label: "on its way")
        let later = try #require(index.corpus.search(SearchQuery(text: "harbour")))
        session.showResults(later, current: true)
        #expect(session.cells.map(\.id.rawValue) == ["c0", "d1"])
        #expect(session.resultSections.map(\.range) == [0..<1, 1..<2])
        #expect(Array(session.cells[1...]).map(\.id.rawValue) == ["d1"])
    }

    @Test func resultsLaidOutAPieceAtATimeTakeTheRowsOfAWholeLayout() {
        var generator = SplitMix64(seed: 7)
        let ratios = (0..<500).map { _ in Double.random(in: 0.3...3.5, using: &generator) }
        let sections = [0, 3, 4, 200, 499]
        let whole = JustifiedLayout(
            aspectRatios: ratios, width: 900, targetRowHeight: 150, spacing: 8, sectionStarts: sections,
            headingHeight: 36)
        var pieces = JustifiedLayout(
            aspectRatios: Array(ratios[..<10]), width: 900, targetRowHeight: 150, spacing: 8, sectionStarts: sections,
            headingHeight: 36, count: 500)
        #expect(!pieces.isComplete)
        #expect(pieces.laidOutCount < 10)
        // The rest of the height is estimated: more than the rows so far, less than twice the whole.
        #expect(pieces.contentHeight > pieces.laidOutHeight)
        #expect(pieces.contentHeight < whole.contentHeight * 2)
        var given = 10
        while given < 500 {
            let next = min(given + 37, 500)
            pieces.extend(with: Array(ratios[given..<next]))
            given = next
        }
        #expect(pieces.isComplete)
        #expect(pieces.rows.map(\.range) == whole.rows.map(\.range))
        #expect(pieces.rows.map(\.y) == whole.rows.map(\.y))
        #expect(pieces.rows.map(\.height) == whole.rows.map(\.height))
        #expect(pieces.headingTops == whole.headingTops)
        #expect(pieces.contentHeight == whole.contentHeight)
        #expect(pieces.frames[321] == whole.frames[321])
    }

    @Test func sectionsStartRowsUnderTheirHeadings() {
        let layout = JustifiedLayout(
            aspectRatios: [1, 1, 1, 1, 1], width: 1000, targetRowHeight: 100, spacing: 10, sectionStarts: [0, 2],
            headingHeight: 30)
        #expect(layout.headingTops == [10, 150])
        // The first section's two cells do not fill a row and keep the target height; the second starts a row.
        #expect(layout.rows.map(\.range) == [0..<2, 2..<5])
        #expect(layout.frames[0].y == 40)
        #expect(layout.frames[2].y == 180)
        #expect(layout.frames[2].x == 10)
        #expect(layout.contentHeight == 290)
        #expect(layout.index(at: 15, 185) == 2)
    }
}
