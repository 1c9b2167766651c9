import Foundation
import Testing

@testable import GalleryCore

@Suite struct LibraryMoveTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("move-\(UUID().uuidString)")
    var from: URL { root.appendingPathComponent("data/image-gallery") }
    var to: URL { root.appendingPathComponent("Sync/Gallery") }
    /// This computer's own folder: its id in the journal.
    var stateFolder: URL { root.appendingPathComponent("state/image-gallery") }

    /// The library in `folder`, as `--print-state` reads it.
    private func library(in folder: URL) -> GalleryState? {
        let intake = StateFileIntake(
            store: StateStore(fileURL: folder.appendingPathComponent("state.json")), stateFolder: stateFolder)
        return try? LibraryPrintout.read(intake, library: folder, computer: nil).get()
    }

    private func image(_ id: String, original: String? = nil) -> GalleryImage {
        var image = GalleryImage(id: ImageID(id), url: "https://e.org/\(id).png", aspectRatio: 1)
        image.original = original.map {
            KeptOriginal(sha256: $0, byteCount: 3, pixelWidth: 1, pixelHeight: 1, format: "png")
        }
        return image
    }

    /// A library in `from`: one gallery of `ids` (hexadecimal digits), each with an original of its own bytes,
    /// named as the digit 64 times.
    private func library(_ ids: [String]) throws -> GalleryState {
        var images: [GalleryImage] = []
        for id in ids {
            let bytes = Data(id.utf8)
            let sha256 = String(repeating: id, count: 64)
            let file = from.appendingPathComponent("originals/\(sha256.prefix(2))/\(sha256)")
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try bytes.write(to: file)
            images.append(image(id, original: sha256))
        }
        let state = GalleryState(galleries: [Gallery(id: "g", name: "G", images: images)])
        _ = try StateStore(fileURL: from.appendingPathComponent("state.json")).save(state)
        return state
    }

    private func originals(in folder: URL) -> Set<String> {
        let originals = folder.appendingPathComponent("originals")
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: originals.path)) ?? []
        return Set(
            folders.flatMap { folder in
                ((try? FileManager.default.contentsOfDirectory(atPath: originals.appendingPathComponent(folder).path))
                    ?? []).filter { !$0.hasPrefix(".") }
            })
    }

    @Test func theStateAndEveryOriginalMoveAndTheOldCopiesGoOnlyAtTheEnd() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let state = try library(["a", "b", "c"])
        let move = LibraryMove(from: from, to: to, dataFolder: from)
        let paths = move.originalsToCopy()
        #expect(paths.count == 3)
        var told: [Int] = []
        try move.copyOriginals(paths, progress: { told.append($0) })
        #expect(told == [1, 2, 3])
        try move.moveState(stateFolder: stateFolder)
        #expect(library(in: to) == state)
        #expect(FileManager.default.fileExists(atPath: to.appendingPathComponent("journal").path))
        #expect(!FileManager.default.fileExists(atPath: to.appendingPathComponent("state.json").path))
        #expect(originals(in: to) == originals(in: from))
        #expect(move.originalsToCopy().isEmpty, "every original is there whole")
        move.removeOld()
        #expect(originals(in: from).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: from.appendingPathComponent("state.json").path))
        #expect(!FileManager.default.fileExists(atPath: from.appendingPathComponent("journal").path))
        #expect(originals(in: to).count == 3)
    }

    @Test func aMoveStoppedHalfwayLeavesTheOldLibraryWholeAndTheNextTryCopiesOnlyTheRest() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let state = try library(["a", "b", "c", "d"])
        let move = LibraryMove(from: from, to: to, dataFolder: from)
        var copied = 0
        #expect(throws: LibraryMove.Failure.cancelled) {
            try move.copyOriginals(move.originalsToCopy(), isCancelled: { copied == 2 }, progress: { copied = $0 })
        }
        // Nothing of the old library moved or changed: it opens as it was.
        #expect(originals(in: from).count == 4)
        guard case .loaded(let old) = StateStore(fileURL: from.appendingPathComponent("state.json")).load() else {
            Issue.record("the old library no longer opens")
            return
        }
        #expect(old == state)
        #expect(library(in: to) == nil)
        // A copy cut short by a kill is a hidden temporary file, never an original of the wrong bytes.
        #expect(move.originalsToCopy().count == 2)
    }

    @Test func intoAFolderHoldingAnotherComputersLibraryBothAreKept() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try library(["a", "b"])
        let theirs = GalleryState(galleries: [
            Gallery(id: "g", name: "G", images: [image("x")]), Gallery(id: "t", name: "Theirs", images: [image("y")]),
        ])
        _ = try StateStore(fileURL: to.appendingPathComponent("state.json")).save(theirs)
        let move = LibraryMove(from: from, to: to, dataFolder: from)
        try move.copyOriginals(move.originalsToCopy())
        try move.moveState(stateFolder: stateFolder)
        guard let merged = library(in: to) else {
            Issue.record("no library in the new folder")
            return
        }
        let ids = Set(merged.galleries.flatMap(\.images).map(\.id.rawValue))
        #expect(ids == ["a", "b", "x", "y"])
        #expect(merged.galleries.map(\.id).sorted() == ["g", "t"])
    }

    @Test func theSameFolderOrOneFromANewerVersionIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try library(["a"])
        try FileManager.default.createDirectory(at: to, withIntermediateDirectories: true)
        try Data(#"{"version": 99, "galleries": []}"#.utf8).write(to: to.appendingPathComponent("state.json"))
        #expect(throws: LibraryMove.Failure.newerLibrary(version: 99)) {
            try LibraryMove(from: from, to: to, dataFolder: from).moveState(stateFolder: stateFolder)
        }
        #expect(
            LibraryMove(from: from, to: from.appendingPathComponent("."), dataFolder: from).from
                == LibraryMove(from: from, to: from, dataFolder: from).to)
    }

    @Test func theSettingsNameTheNewFolderAndTheOldUntilItsCopiesAreRemoved() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        var paths = LibraryPaths(XDGDirectories(environment: ["HOME": root.path]))
        try paths.remember(to, movedFrom: paths.dataFolder)
        #expect(paths.libraryFolder.path == to.path)
        #expect(paths.location.movedFrom?.path == paths.dataFolder.path)
        try paths.remember(to)
        #expect(paths.location.movedFrom == nil)
        #expect(paths.libraryFolder.path == to.path)
        #expect(LibraryPaths(paths.directories).location.movedFrom == nil)
    }
}
