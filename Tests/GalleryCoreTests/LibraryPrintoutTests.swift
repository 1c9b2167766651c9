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

    /// Writes `state` as an older version wrote it, with its `revision` and `ancestors` when given.
    func write(_ state: GalleryState, as name: String = "state.json", lineage: (String, [String])? = nil) throws {
        var stamped = state
        if let (revision, ancestors) = lineage {
            stamped.unknownFields[StateFileFormat.revisionField] = RawJSON(.string(revision))
            stamped.unknownFields[StateFileFormat.ancestorsField] = RawJSON(.array(ancestors.map { .string($0) }))
        }
        try StateStore.encode(stamped).write(to: directory.appendingPathComponent(name))
    }

    /// This computer's own folder, beside the library: the printout reads its records, never writes them.
    var stateFolder: URL { URL(fileURLWithPath: directory.path + "-state", isDirectory: true) }

    /// Every file's path and bytes, in the folder and its subfolders: a printout must leave them as they were.
    var contents: [String: Data] {
        let names = FileManager.default.subpaths(atPath: directory.path) ?? []
        return Dictionary(
            uniqueKeysWithValues: names.map {
                ($0, (try? Data(contentsOf: directory.appendingPathComponent($0))) ?? Data())
            })
    }

    func printout() -> Result<GalleryState, LibraryPrintout.Failure> {
        LibraryPrintout.read(
            StateFileIntake(store: store, stateFolder: stateFolder), library: directory,
            computer: JournalSaver.existingComputer(in: stateFolder))
    }

    /// A saver of `computer`'s on the folder, its id in a state folder of its own.
    func saver(_ computer: String, carryingOver: GalleryState? = nil) throws -> JournalSaver {
        let own = URL(fileURLWithPath: directory.path + "-" + computer, isDirectory: true)
        try FileManager.default.createDirectory(at: own, withIntermediateDirectories: true)
        try Data((computer + "\n").utf8).write(to: own.appendingPathComponent(JournalSaver.computerFileName))
        return try JournalSaver(
            library: LibraryFolder.open(directory), stateFolder: own, carryingOver: carryingOver,
            runInBackground: { _, work in work() }, onError: { _ in })
    }
}

@Suite("image-gallery --print-state")
struct LibraryPrintoutTests {
    @Test func theFileIsPrintedWithoutItsLineageAndInItsOwnFormat() throws {
        let folder = try Folder()
        try folder.write(shared, lineage: ("r1", ["r0"]))
        let printed = try folder.printout().get()
        #expect(printed == shared)
        #expect(printed.unknownFields.isEmpty)
        #expect(StateFileFormat.encode(printed) == StateStore.encode(shared))
    }

    @Test func everyComputersLogIsPrintedMergedAndNothingIsWritten() throws {
        let folder = try Folder()
        try folder.write(shared)
        let laptop = try folder.saver("laptop", carryingOver: shared)
        let desktop = try folder.saver("desktop", carryingOver: shared)
        laptop.save(edited { $0.galleries[0].images.swapAt(0, 1) })
        #expect(laptop.flush() == nil)
        desktop.save(edited { $0.galleries[1].images[0].note = "From the desktop" })
        #expect(desktop.flush() == nil)
        // A record cut by a crash, or not yet whole from the sync tool: the log's owner cuts it back, a reader never.
        let log = try FileHandle(
            forWritingTo: folder.directory.appendingPathComponent("journal/laptop.log"))
        try log.seekToEnd()
        try log.write(contentsOf: Data("0000005b 8c1d3a0e {\"at\"".utf8))
        try log.close()
        let before = folder.contents
        let printed = try folder.printout().get()
        #expect(ids(printed) == ["b", "a", "c"])
        #expect(printed.galleries[1].images[0].note == "From the desktop")
        #expect(folder.contents == before)
        #expect(!FileManager.default.fileExists(atPath: folder.stateFolder.path), "no id made, no record written")
    }

    @Test func aStateFileWhoseBytesChangedSinceItWasTakenInIsPrintedMergedIn() throws {
        let folder = try Folder()
        try folder.write(shared)
        let saver = try folder.saver("laptop", carryingOver: shared)
        saver.save(edited { $0.galleries[0].images.removeLast() })
        #expect(saver.flush() == nil)
        let intake = StateFileIntake(store: folder.store, stateFolder: folder.stateFolder)
        intake.remember(intake.look())
        #expect(ids(try folder.printout().get()) == ["a", "b"], "the file taken in is not taken in again")
        // An older version on another computer writes the file: what it added comes in, nothing it lacks goes.
        try folder.write(edited { $0.galleries[1].images.append(image("m")) })
        let printed = try folder.printout().get()
        #expect(ids(printed) == ["a", "b"])
        #expect(ids(printed, "k") == ["k", "m"])
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
        #expect(!FileManager.default.fileExists(atPath: paths.computerState.path), "nothing written for this computer")
    }
}

extension Folder {
    init(existing directory: URL) { self.directory = directory }
}
