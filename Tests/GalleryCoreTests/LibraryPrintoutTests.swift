import Foundation
import Testing

@testable import GalleryCore

private func image(_ id: String, note: String? = nil) -> GalleryImage {
    var image = GalleryImage(id: ImageID(id), url: "https://e.org/\(id).png", aspectRatio: 1)
    image.note = note
    return image
}

/// What two computers last shared: G (a b c) and K (k).
private let shared = GalleryState(galleries: [
    Gallery(id: "g", name: "G", images: ["a", "b", "c"].map { image($0) }),
    Gallery(id: "k", name: "K", images: [image("k")]),
])

private func edited(_ state: GalleryState = shared, _ edit: (inout GalleryState) -> Void) -> GalleryState {
    var state = state
    edit(&state)
    return state
}

private func ids(_ state: GalleryState, _ galleryID: String = "g") -> [String] {
    state.galleries.first { $0.id == galleryID }?.images.map(\.id.rawValue) ?? []
}

/// A library folder of its own, and what is in it.
private struct Folder {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "printout-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    var store: StateStore { StateStore(fileURL: directory.appendingPathComponent("state.json")) }

    func write(_ state: GalleryState, as name: String = "state.json", lineage: Lineage? = nil) throws {
        let stamped = lineage.map { $0.stamped(state) } ?? state
        try StateStore.encode(stamped).write(to: directory.appendingPathComponent(name))
    }

    /// Every file's name and bytes: a printout must leave them as they were.
    var contents: [String: Data] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return Dictionary(
            uniqueKeysWithValues: names.map {
                ($0, (try? Data(contentsOf: directory.appendingPathComponent($0))) ?? Data())
            })
    }

    func printout(keptCopies: BackgroundStateSaver.KeptCopies? = nil) -> Result<GalleryState, LibraryPrintout.Failure> {
        LibraryPrintout.read(store, keptCopies: keptCopies)
    }
}

private let copyName = "state.sync-conflict-20261129-010000-ABCDEFG.json"

@Suite("image-gallery --print-state")
struct LibraryPrintoutTests {
    @Test func theFileIsPrintedWithoutItsLineageAndInItsOwnFormat() throws {
        let folder = try Folder()
        try folder.write(shared, lineage: Lineage(revision: "r1", takenIn: [Lineage(revision: "r0", takenIn: [])]))
        let printed = try folder.printout().get()
        #expect(printed == shared)
        #expect(printed.unknownFields.isEmpty)
        #expect(StateFileFormat.encode(printed) == StateStore.encode(shared))
    }

    @Test func aConflictCopyIsMergedAsTheAppMergesItAndLeftWhereItIs() throws {
        let folder = try Folder()
        let local = try Folder()
        // This computer's own copy of the state both computers had tells what the copy was made from.
        let common = Lineage(revision: "r0", takenIn: [])
        let kept = BackgroundStateSaver.keptCopies(in: local.directory)
        try kept.lastWritten.save(common.stamped(shared))
        // Both edited it; the sync tool kept the other computer's version as the file and this one's beside it.
        let ours = edited { $0.galleries[0].images.append(image("ours", note: "mine")) }
        let theirs = edited {
            $0.galleries[0].images.remove(at: 0)
            $0.galleries.append(Gallery(id: "n", name: "New"))
        }
        try folder.write(ours, as: copyName, lineage: Lineage(revision: "r2", takenIn: [common]))
        try folder.write(theirs, lineage: Lineage(revision: "r1", takenIn: [common]))
        let before = folder.contents
        let printed = try folder.printout(keptCopies: kept).get()
        #expect(folder.contents == before)
        #expect(ids(printed) == ["b", "c", "ours"])
        #expect(printed.galleries.map(\.id) == ["g", "k", "n"])
        // The app, opening the same folder, writes the same library.
        let saver = BackgroundStateSaver(
            store: folder.store, loaded: theirs, runInBackground: { _, work in work() }, localFolder: local.directory,
            onError: { _ in })
        saver.takeInChanges()
        #expect(!folder.contents.keys.contains(copyName))
        guard case .loaded(let written) = folder.store.read() else {
            Issue.record("the app wrote no library")
            return
        }
        #expect(Lineage.withoutLineage(written) == printed)
    }

    @Test func aCopyTheFileTookInAlreadyIsNotMergedAgain() throws {
        let folder = try Folder()
        let first = Lineage(revision: "r1", takenIn: [])
        let copyLineage = Lineage(revision: "rc", takenIn: [first])
        let copy = edited { $0.galleries[0].images.append(image("x")) }
        // The app merged the copy, then the user deleted its image; the copy is not removed yet.
        let mergedLineage = Lineage(revision: "r2", takenIn: [copyLineage, first])
        let now = edited { $0.galleries[0].name = "Renamed" }
        try folder.write(copy, as: copyName, lineage: copyLineage)
        try folder.write(now, lineage: Lineage(revision: "r3", takenIn: [mergedLineage]))
        #expect(try folder.printout().get() == now)
    }

    @Test func aLibraryThatCannotBeReadIsReportedAndLeftAsItIs() throws {
        let folder = try Folder()
        #expect(throws: LibraryPrintout.Failure.self) { try folder.printout().get() }
        let missing = folder.printout()
        #expect(
            missing
                == .failure(LibraryPrintout.Failure(message: "There is no library in \(folder.directory.path) yet.")))

        try Data("{\"version\": 1, \"galleries\": [".utf8).write(to: folder.store.fileURL)
        let before = folder.contents
        guard case .failure(let invalid) = folder.printout() else {
            Issue.record("a half-written file was printed")
            return
        }
        #expect(invalid.message.contains("not a valid gallery file"))
        #expect(folder.contents == before)

        try folder.write(edited { $0.version = GalleryState.currentVersion + 1 })
        guard case .failure(let newer) = folder.printout() else {
            Issue.record("a newer version's file was printed")
            return
        }
        #expect(newer.message.contains("newer version (format \(GalleryState.currentVersion + 1))"))
    }

    @Test func theLibraryIsTheOneTheSettingsName() throws {
        let home = try Folder()
        let directories = XDGDirectories(environment: ["HOME": home.directory.path])
        var paths = LibraryPaths(directories)
        let dataFolder = Folder(existing: paths.dataFolder)
        try FileManager.default.createDirectory(at: dataFolder.directory, withIntermediateDirectories: true)
        try dataFolder.write(edited { $0.galleries[0].name = "Left behind" })
        let synced = home.directory.appendingPathComponent("Sync/Gallery", isDirectory: true)
        try FileManager.default.createDirectory(at: synced, withIntermediateDirectories: true)
        try Folder(existing: synced).write(shared)
        try paths.remember(synced)
        #expect(try LibraryPrintout.read(LibraryPaths(directories)).get() == shared)
    }
}

extension Folder {
    init(existing directory: URL) { self.directory = directory }
}
