import Foundation
import Testing

@testable import GalleryCore

/// Records that change no cell's place (an animation summary, a likeness, a kept original) are published as changes
/// in place: observers hear which cells changed and that none came, went or moved, and a session keeps its selection.
@MainActor @Suite struct RecordsInPlaceTests {
    private static func library(count: Int = 40) -> GalleryLibrary {
        let images = (0..<count).map { number in
            GalleryImage(id: ImageID("i\(number)"), url: "https://example.org/\(number).png", aspectRatio: 1.5)
        }
        return GalleryLibrary(
            state: GalleryState(galleries: [
                Gallery(id: "g", name: "G", images: images), Gallery(id: "h", name: "H", images: []),
            ]))
    }

    private struct Heard: Equatable {
        var galleryID: String
        var inPlace: [Int]?
        var onlyRecords: Bool
        var changed: Set<ImageID>?
    }

    private static func listen(_ library: GalleryLibrary, into heard: @escaping ([Heard]) -> Void) -> Observation {
        var all: [Heard] = []
        return library.observe { change in
            guard case .cells(let galleryID) = change else { return }
            all.append(
                Heard(
                    galleryID: galleryID, inPlace: library.cellsChangedInPlace,
                    onlyRecords: library.onlyRecordsChanged, changed: library.imagesChanged))
            heard(all)
        }
    }

    @Test func recordsSayWhichCellsChangedInPlace() {
        let library = Self.library()
        var heard: [Heard] = []
        let observation = Self.listen(library) { heard = $0 }
        let before = library.cells(of: "g").map(\.id)
        // Hints out of date (the image moved since it was read) are looked for again.
        library.recordAnimations([
            (ImageID("i30"), "g", 30, AnimationSummary(frameCount: 3, duration: 300)),
            (ImageID("i5"), "g", 7, .still), (ImageID("gone"), "g", 1, .still),
        ])
        #expect(
            heard == [
                Heard(
                    galleryID: "g", inPlace: [5, 30], onlyRecords: true,
                    changed: [ImageID("i30"), ImageID("i5"), ImageID("gone")])
            ])
        #expect(library.cells(of: "g")[30].image?.animation == AnimationSummary(frameCount: 3, duration: 300))
        #expect(library.cells(of: "g")[5].image?.animation == .still)
        let likeness = Likeness(fingerprint: Fingerprint(rawValue: 9), palette: Palette(measured: 3))
        library.recordLikenesses([(ImageID("i12"), "g", 12, likeness)])
        #expect(heard.last == Heard(galleryID: "g", inPlace: [12], onlyRecords: true, changed: [ImageID("i12")]))
        library.recordOriginal(
            KeptOriginal(sha256: "ab", byteCount: 1, pixelWidth: 1, pixelHeight: 1, format: "PNG"), of: ImageID("i3"))
        #expect(heard.last == Heard(galleryID: "g", inPlace: [3], onlyRecords: true, changed: [ImageID("i3")]))
        // A ratio corrected changes a cell's size where it stands; a move changes places.
        library.correctAspectRatio(of: ImageID("i8"), to: 0.5)
        #expect(heard.last == Heard(galleryID: "g", inPlace: [8], onlyRecords: false, changed: [ImageID("i8")]))
        library.move([ImageID("i0")], in: "g", toInsertionIndex: 4)
        #expect(heard.last?.inPlace == nil && heard.last?.onlyRecords == false)
        // Nothing changed: nothing is published.
        let count = heard.count
        library.recordAnimations([(ImageID("i30"), "g", 30, AnimationSummary(frameCount: 3, duration: 300))])
        #expect(heard.count == count)
        #expect(Set(library.cells(of: "g").map(\.id)) == Set(before))
        withExtendedLifetime(observation) {}
    }

    @Test func aSessionKeepsItsSelectionAcrossRecordsAndLosesWhatWasRemoved() {
        let library = Self.library()
        let session = GallerySession(library: library, galleryID: "g")
        var changes: [GallerySession.Change] = []
        session.onChange = { changes.append($0) }
        session.select([ImageID("i1"), ImageID("i2"), ImageID("i20")])
        session.focusedID = ImageID("i20")
        library.recordAnimations([(ImageID("i2"), "g", 2, .still), (ImageID("i21"), "g", 21, .still)])
        library.recordLikenesses([
            (ImageID("i20"), "g", 20, Likeness(fingerprint: Fingerprint(rawValue: 1), palette: Palette(measured: 1)))
        ])
        #expect(session.selection == [ImageID("i1"), ImageID("i2"), ImageID("i20")])
        #expect(session.focusedID == ImageID("i20"))
        #expect(changes.filter { $0 == .cells }.count == 2)
        #expect(session.cells[2].image?.animation == .still)
        library.remove([ImageID("i20"), ImageID("i1")], from: "g")
        #expect(session.selection == [ImageID("i2")])
        #expect(session.focusedID == nil)
        library.recordAnimations([(ImageID("i2"), "g", 1, AnimationSummary(frameCount: 2, duration: 100))])
        #expect(session.selection == [ImageID("i2")])
        library.undo()
        #expect(session.selection == [ImageID("i2")])
        #expect(session.index(of: ImageID("i20")) == 20)
    }

    /// Records in a gallery of images and placeholders, and in galleries the session does not show, among random
    /// edits: the search index kept up is the one built afresh.
    @Test func theSearchIndexFollowsRecordsInPlace() {
        for seed in UInt64(1)...6 {
            var random = SplitMix64(seed: seed)
            let library = Self.library(count: 600)
            let index = SearchIndex(library: library)
            var waiting: [ImageID] = []
            for _ in 0..<30 {
                let cells = library.cells(of: "g")
                let at = Int(random.next() % UInt64(cells.count))
                switch random.next() % 5 {
                case 0:
                    waiting += library.insertPlaceholders(in: "g", at: at, labels: ["coming"]) ?? []
                case 1:
                    if let placeholder = waiting.popLast() {
                        library.fulfillPlaceholder(
                            placeholder, with: GalleryImage(url: "https://example.org/new.png", aspectRatio: 1))
                    }
                case 2:
                    library.recordAnimations([
                        (cells[at].id, "g", at, AnimationSummary(frameCount: 2, duration: Int(random.next() % 900)))
                    ])
                default:
                    let likeness = Likeness(
                        fingerprint: Fingerprint(rawValue: random.next()), palette: Palette(measured: random.next() | 1)
                    )
                    library.recordLikenesses([(cells[at].id, "g", at, likeness)])
                }
                let built = SearchIndex(library: library).corpus
                #expect(index.corpus.sections[0].entries.count == built.sections[0].entries.count)
                for position in built.sections[0].entries.indices {
                    let kept = index.corpus.sections[0].entries.entry(at: position)
                    let fresh = built.sections[0].entries.entry(at: position)
                    #expect(
                        kept.id == fresh.id && kept.isAnimated == fresh.isAnimated
                            && kept.sourceHash == fresh.sourceHash
                            && kept.text == fresh.text, "seed \(seed)")
                }
            }
        }
    }
}
