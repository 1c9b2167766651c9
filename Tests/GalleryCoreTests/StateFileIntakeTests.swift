import Foundation
import Synchronization
import Testing

@testable import GalleryCore

private func image(_ id: String, note: String? = nil) -> GalleryImage {
    var image = GalleryImage(id: ImageID(id), url: "https://example.com/\(id).png", aspectRatio: 1)
    image.note = note
    return image
}

/// The older library, as its state.json held it: G (a b c).
private let older = GalleryState(galleries: [Gallery(id: "g", name: "G", images: ["a", "b", "c"].map { image($0) })])

private func ids(_ state: GalleryState) -> [String] { state.galleries[0].images.map(\.id.rawValue) }

/// The libraries the saver handed back as merged.
private final class Merged: Sendable {
    let states = Mutex<[GalleryState]>([])
}

/// A library folder with its state.json, and this computer's own folder, removed after the test.
private struct Folders {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("intake-\(RandomID.make())")
    var library: URL { root.appendingPathComponent("library") }
    var own: URL { root.appendingPathComponent("state") }
    var store: StateStore { StateStore(fileURL: library.appendingPathComponent("state.json")) }
    var intake: StateFileIntake { StateFileIntake(store: store, stateFolder: own) }

    func write(_ state: GalleryState) throws {
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        try store.save(state)
    }

    func saver(merged: Merged) throws -> JournalSaver {
        try JournalSaver(
            library: LibraryFolder.open(library), stateFolder: own, carryingOver: older,
            runInBackground: { _, work in work() }, onError: { _ in },
            onMerged: { state, _ in merged.states.withLock { $0.append(state) } })
    }
}

@Suite("A state.json in the library folder, taken in by the journal")
struct StateFileIntakeTests {
    @Test func theFirstFileIsCarriedOverAndTheSameBytesAreNeverTakenInAgain() throws {
        let folders = Folders()
        defer { try? FileManager.default.removeItem(at: folders.root) }
        #expect(folders.intake.look().finding == .known, "no file: nothing to take in")
        try folders.write(older)
        let first = folders.intake.look()
        #expect(first.finding == .first)
        folders.intake.remember(first)
        #expect(folders.intake.look().finding == .known)
        // Written again with the same bytes (a sync tool, a backup tool): another file on disk, the same library.
        try folders.write(older)
        #expect(folders.intake.look().finding == .known)
        var changed = older
        changed.galleries[0].images[1].note = "Restored"
        try folders.write(changed)
        #expect(folders.intake.look().finding == .changed)
        // Another folder's file is new to the record.
        let elsewhere = StateFileIntake(
            store: StateStore(fileURL: folders.root.appendingPathComponent("other/state.json")),
            stateFolder: folders.own)
        try FileManager.default.createDirectory(
            at: folders.root.appendingPathComponent("other"), withIntermediateDirectories: true)
        try elsewhere.store.save(older)
        #expect(elsewhere.look().finding == .first)
    }

    @Test func aChangedFileIsMergedAsThisComputersEditsAgainstTheOneTakenInBefore() throws {
        let folders = Folders()
        defer { try? FileManager.default.removeItem(at: folders.root) }
        try folders.write(older)
        let merged = Merged()
        let saver = try folders.saver(merged: merged)
        folders.intake.remember(folders.intake.look())
        // Here, after the carry-over: c deleted, d added.
        var here = older
        here.galleries[0].images.removeLast()
        here.galleries[0].images.append(image("d"))
        saver.save(here)
        #expect(saver.flush() == nil)
        let logSize = {
            (try? FileManager.default.attributesOfItem(atPath: folders.library.path + "/journal/\(saver.computer).log")[
                .size] as? Int) ?? 0
        }
        // An older version on another computer writes the file it knows: a note on b, and e added.
        var theirs = older
        theirs.galleries[0].images[1].note = "From the older version"
        theirs.galleries[0].images.append(image("e"))
        try folders.write(theirs)
        folders.intake.takeIn(into: saver)
        let shown = try #require(merged.states.withLock { $0.last })
        #expect(ids(shown) == ["a", "b", "d", "e"], "c stays deleted: the file never changed it")
        #expect(shown.galleries[0].images[1].note == "From the older version")
        #expect(folders.intake.look().finding == .known)
        // In the log, stamped now: the next launch has it with no state.json at all.
        let before = logSize()
        folders.intake.takeIn(into: saver)
        #expect(logSize() == before, "the same file is not taken in twice")
        try FileManager.default.removeItem(at: folders.store.fileURL)
        let again = try JournalSaver(
            library: LibraryFolder.open(folders.library), stateFolder: folders.own, onError: { _ in })
        #expect(again.loaded == shown)
    }
}
