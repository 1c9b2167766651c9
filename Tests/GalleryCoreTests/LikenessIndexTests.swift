import Foundation
import Testing

@testable import GalleryCore

private func image(_ id: String, fingerprint: UInt64?) -> GalleryImage {
    var image = GalleryImage(id: ImageID(id), url: "https://e.test/\(id).png", aspectRatio: 1)
    image.likeness = fingerprint.map {
        Likeness(fingerprint: Fingerprint(rawValue: $0), palette: Palette(rawValue: 0xF000_0000_0000_0000)!)
    }
    return image
}

/// A picture's fingerprint, a copy of it a few bits off, and another picture.
private let picture: UInt64 = 0x0123_4567_89ab_cdef
private let copyOfPicture: UInt64 = picture ^ 0b1011
private let otherPicture: UInt64 = ~picture

/// Runs the index's worker jobs one at a time when the test says, as the scheduler would later.
@MainActor private final class Workers {
    var jobs: [(work: @Sendable () -> Void, then: @MainActor () -> Void)] = []

    func offThread(_ work: @escaping @Sendable () -> Void, _ then: @escaping @MainActor () -> Void) {
        jobs.append((work, then))
    }

    func runAll() {
        while !jobs.isEmpty {
            let job = jobs.removeFirst()
            job.work()
            job.then()
        }
    }
}

@MainActor @Suite struct LikenessIndexTests {
    private func found(_ index: LikenessIndex, _ workers: Workers, _ fingerprint: UInt64) -> [String]? {
        var result: [String]?
        index.nearDuplicates(
            of: Likeness(
                fingerprint: Fingerprint(rawValue: fingerprint), palette: Palette(rawValue: 0xF000_0000_0000_0000)!)
        ) {
            result = $0.map(\.id.rawValue)
        }
        workers.runAll()
        return result
    }

    @Test func theIndexFollowsAddsDeletesMergesAndOtherComputersChanges() throws {
        let library = GalleryLibrary(
            state: GalleryState(galleries: [
                Gallery(id: "g", name: "G", images: [image("a", fingerprint: picture), image("b", fingerprint: nil)]),
                Gallery(id: "k", name: "K", images: [image("c", fingerprint: otherPicture)]),
            ]))
        let workers = Workers()
        let index = LikenessIndex(library: library, offThread: workers.offThread)
        #expect(found(index, workers, copyOfPicture) == ["a"])
        #expect(found(index, workers, otherPicture) == ["c"])

        // Added: found at once, nearest first.
        let placeholder = try #require(library.insertPlaceholder(in: "k", label: "x"))
        library.fulfillPlaceholder(placeholder, with: image("x", fingerprint: copyOfPicture))
        #expect(found(index, workers, copyOfPicture) == [placeholder.rawValue, "a"])

        // Deleted, then brought back by undo.
        library.remove([ImageID("a")], from: "g")
        #expect(found(index, workers, picture) == [placeholder.rawValue])
        library.undo()
        #expect(found(index, workers, picture) == ["a", placeholder.rawValue])

        // Merged: only the kept one is left.
        library.merge([DuplicateMerge(kept: ImageID("a"), merged: [placeholder])])
        #expect(found(index, workers, picture) == ["a"])

        // Another computer measured b as a copy, and deleted c.
        let ours = library.state
        var theirs = ours
        theirs.galleries[0].images[1].likeness = image("b", fingerprint: picture).likeness
        theirs.galleries[1].images.removeAll()
        library.adoptMerge(theirs, over: ours)
        #expect(found(index, workers, picture) == ["a", "b"])
        #expect(found(index, workers, otherPicture) == [])
    }

    @Test func aChangeWhileABuildRunsIsBuiltAgainBeforeALookUpAnswers() throws {
        let library = GalleryLibrary(
            state: GalleryState(galleries: [Gallery(id: "g", name: "G", images: [image("a", fingerprint: picture)])]))
        let workers = Workers()
        let index = LikenessIndex(library: library, offThread: workers.offThread)
        var result: [String]?
        index.nearDuplicates(of: try #require(image("q", fingerprint: picture).likeness)) {
            result = $0.map(\.id.rawValue)
        }
        // The build has begun on the library as it was; a copy arrives before it ends.
        #expect(workers.jobs.count == 1)
        let placeholder = try #require(library.insertPlaceholder(in: "g", label: "x"))
        library.fulfillPlaceholder(placeholder, with: image("x", fingerprint: copyOfPicture))
        workers.runAll()
        #expect(result == ["a", placeholder.rawValue])
        #expect(index.isCurrent)
        #expect(index.buildCount == 1)
        #expect(index.updateCount == 1)
    }

    @Test func anIndexNobodyAskedForIsNotBuilt() {
        let library = GalleryLibrary(
            state: GalleryState(galleries: [Gallery(id: "g", name: "G", images: [image("a", fingerprint: picture)])]))
        let workers = Workers()
        let index = LikenessIndex(library: library, offThread: workers.offThread)
        library.remove([ImageID("a")], from: "g")
        #expect(workers.jobs.isEmpty)
        #expect(!index.isCurrent)
    }
}

@MainActor @Suite struct RecordedLikenessTests {
    @Test func likenessesMeasuredInTheBackgroundAreRecordedWithoutASaveOrAnUndoStepAndFound() throws {
        let library = GalleryLibrary(
            state: GalleryState(galleries: [
                Gallery(
                    id: "g", name: "G", images: [image("a", fingerprint: nil), image("b", fingerprint: otherPicture)])
            ]))
        var saves: [GalleryState] = []
        library.onSave = { saves.append($0) }
        let workers = Workers()
        let index = LikenessIndex(library: library, offThread: workers.offThread)
        let measured = try #require(image("x", fingerprint: picture).likeness)
        // A placeholder came before it since: the hint is stale, the image is found by its id.
        _ = library.insertPlaceholder(in: "g", at: 0, label: "p")
        library.recordLikenesses([(ImageID("a"), "g", 0, measured), (ImageID("gone"), "g", 1, measured)])
        // No save of its own: a save writes the whole library, so the pass saves seldom.
        #expect(saves.isEmpty)
        library.save()
        #expect(saves.count == 1)
        #expect(saves.last?.galleries[0].images[0].likeness == measured)
        #expect(!library.history.canUndo)
        var found: [String]?
        index.nearDuplicates(of: measured) { found = $0.map(\.id.rawValue) }
        workers.runAll()
        #expect(found == ["a"])
        // The same again changes nothing.
        library.recordLikenesses([(ImageID("a"), "g", 1, measured)])
        #expect(saves.count == 1)
    }
}
