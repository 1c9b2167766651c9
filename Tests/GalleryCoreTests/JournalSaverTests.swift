import Foundation
import Synchronization
import Testing

@testable import GalleryCore

/// Runs the saver's background work when told: at once (`inline`), or queued for the test to run one job at a time.
private final class Runner: Sendable {
    private let queued = Mutex<[@Sendable () -> Void]>([])
    private let runsAtOnce: Bool

    init(inline: Bool) { runsAtOnce = inline }

    var run: JournalSaver.RunInBackground {
        { [self] _, work in
            if runsAtOnce { work() } else { queued.withLock { $0.append(work) } }
        }
    }

    /// Runs the oldest queued job; whether there was one.
    @discardableResult
    func runNext() -> Bool {
        guard let work = queued.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return false }
        work()
        return true
    }

    var queuedCount: Int { queued.withLock { $0.count } }
}

/// What the saver handed back: errors and merged libraries.
private final class Reports: Sendable {
    let errors = Mutex<[String]>([])
    let merged = Mutex<[GalleryState]>([])
}

/// A library folder and two computers' own state folders, removed after the test.
private struct Folders {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("journal-saver-\(RandomID.make())")
    var library: URL { root.appendingPathComponent("library") }
    func stateFolder(_ name: String) -> URL { root.appendingPathComponent("state-\(name)") }
    var log: URL { library.appendingPathComponent("journal") }
}

private func withFolders(_ body: (Folders) throws -> Void) throws {
    let folders = Folders()
    defer { try? FileManager.default.removeItem(at: folders.root) }
    try body(folders)
}

private func saver(
    _ folders: Folders, computer: String = "a", runner: Runner = Runner(inline: true), reports: Reports = Reports(),
    carryingOver: GalleryState? = nil, restLaterBeyond: Int? = nil, policy: JournalSaver.SnapshotPolicy = .standard,
    logLimit: Int = JournalLogFile.limit
) throws -> JournalSaver {
    try JournalSaver(
        library: LibraryFolder.open(folders.library, creating: true), stateFolder: folders.stateFolder(computer),
        carryingOver: carryingOver, restLaterBeyond: restLaterBeyond, policy: policy, logLimit: logLimit,
        runInBackground: runner.run,
        onError: { message in reports.errors.withLock { $0.append(message) } },
        onMerged: { merged, _ in reports.merged.withLock { $0.append(merged) } })
}

private func image(_ id: String) -> GalleryImage {
    GalleryImage(id: ImageID(id), url: "https://example.com/\(id).png", aspectRatio: 1.5)
}

/// Two galleries of three images.
private let library = GalleryState(galleries: [
    Gallery(id: "g1", name: "Walls", images: [image("i1"), image("i2"), image("i3")]),
    Gallery(id: "g2", name: "Floors", images: [image("i4"), image("i5"), image("i6")]),
])

/// Three galleries, the second shown.
private let shownSecond = GalleryState(
    galleries: library.galleries + [Gallery(id: "g3", name: "Ceilings", images: [image("i7"), image("i8")])],
    shownGalleryID: "g2")

/// A library saved by one computer (its log holding every image) with a snapshot of it written.
private func snapshotted(_ folders: Folders, _ state: GalleryState) throws {
    let writer = try saver(folders, computer: "writer", policy: everyAppend)
    writer.save(state)
    #expect(writer.flush() == nil)
    #expect(JournalSaver.hasSnapshot(in: try LibraryFolder.open(folders.library)))
}

/// Waits for the rest of the library (read on a thread of its own) and returns it.
private func whole(_ saver: JournalSaver) -> GalleryState {
    let arrived = DispatchSemaphore(value: 0)
    let library = Mutex<GalleryState?>(nil)
    saver.whenWhole { whole in
        library.withLock { $0 = whole }
        arrived.signal()
    }
    saver.readRest()
    arrived.wait()
    return library.withLock { $0! }
}

private func noted(_ state: GalleryState, gallery: Int, image: Int, _ note: String) -> GalleryState {
    var state = state
    state.galleries[gallery].images[image].note = note
    return state
}

/// A snapshot every append: each save is followed by a snapshot of the library.
private let everyAppend = JournalSaver.SnapshotPolicy(minimumLogBytes: 0, snapshotShare: .max)

/// A snapshot every append, and a new log at the first one past `bytes`.
private func newLogBeyond(_ bytes: Int) -> JournalSaver.SnapshotPolicy {
    JournalSaver.SnapshotPolicy(minimumLogBytes: 0, snapshotShare: .max, newLogBeyond: bytes)
}

/// The bound the tests' logs move past: a few notes' entries.
private let logBound = 1000

extension Folders {
    func logFile(_ computer: String) -> URL { log.appendingPathComponent("\(computer).log") }
    func snapshotFile(_ computer: String) -> URL { log.appendingPathComponent("snapshot-\(computer).json") }
    func size(_ url: URL) -> Int { (try? Data(contentsOf: url))?.count ?? -1 }
    /// The library as `--print-state` writes it.
    var printout: GalleryState? {
        let intake = StateFileIntake(
            store: StateStore(fileURL: library.appendingPathComponent("state.json")), stateFolder: stateFolder("a"))
        return try? LibraryPrintout.read(
            intake, library: library, computer: JournalSaver.existingComputer(in: stateFolder("a"))
        ).get()
    }
}

/// The ids `computer`'s state folder lists as its old ones.
private func retired(_ folders: Folders, _ computer: String) throws -> [String] {
    let url = folders.stateFolder(computer).appendingPathComponent("journal-retired")
    guard FileManager.default.fileExists(atPath: url.path) else { return [] }
    return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
}

/// The stamps' counters in `computer`'s log.
private func counters(_ folders: Folders, _ computer: String) throws -> [UInt64] {
    JournalLog.read([UInt8](try Data(contentsOf: folders.logFile(computer)))).entries.map(\.stamp.counter)
}

/// The notes the tests write one by one, on images of both galleries in turn.
/// Computer "a", moving to a new log at `logBound`, with the library saved.
private func savingTheLibrary(_ folders: Folders) throws -> JournalSaver {
    let first = try saver(folders, policy: newLogBeyond(logBound))
    first.save(library)
    #expect(first.flush() == nil)
    return first
}

/// Notes an image at each save of `saver` (taking in the others' edits first) until it has moved to a new log.
private func editUntilANewLog(_ saver: JournalSaver, _ state: inout GalleryState, step: inout Int) {
    let old = saver.computer
    while saver.computer == old {
        saver.takeInChanges()
        state = noting(state, step: step)
        step += 1
        saver.save(state)
        #expect(saver.flush() == nil)
    }
}

private func noting(_ state: GalleryState, step: Int) -> GalleryState {
    noted(state, gallery: step % 2, image: step % 3, "note \(step)")
}

/// Where a kill stops the move to a new log: before the snapshot that moves it runs, once the new id is kept (the
/// snapshot not written), or once the snapshot is written (the old id's not yet removed).
enum KillDuringTheMove: CaseIterable, Sendable {
    case beforeTheSnapshot, afterTheNewID, afterTheSnapshot
}

/// A library saved and snapshotted (`once`), then edited (`twice`) and the app killed between that edit's append and
/// its snapshot, which stays queued in `runner`.
private func killedBetweenAnAppendAndItsSnapshot(_ folders: Folders) throws -> (
    snapshot: URL, once: GalleryState, twice: GalleryState, runner: Runner
) {
    let runner = Runner(inline: false)
    let first = try saver(folders, runner: runner, carryingOver: library, policy: everyAppend)
    let once = noted(library, gallery: 0, image: 0, "Snapshotted")
    first.save(once)
    while runner.runNext() {}
    let twice = noted(once, gallery: 1, image: 2, "Appended only")
    first.save(twice)
    #expect(runner.runNext())  // the append
    return (folders.log.appendingPathComponent("snapshot-\(first.computer).json"), once, twice, runner)
}

@Suite("The journal's saver on the disk")
struct JournalSaverTests {
    @Test func anEditIsLoadedByTheNextSaverOnTheFolder() throws {
        try withFolders { folders in
            let first = try saver(folders, carryingOver: library)
            #expect(first.loaded == library)
            let edited = noted(library, gallery: 0, image: 1, "For the kitchen wall")
            first.save(edited)
            #expect(first.flush() == nil)
            let again = try saver(folders)
            #expect(again.loaded == edited)
            #expect(again.computer == first.computer)
        }
    }

    @Test func twoComputersTakingInEachOthersLogsConverge() throws {
        try withFolders { folders in
            let (reportsA, reportsB) = (Reports(), Reports())
            let a = try saver(folders, computer: "a", reports: reportsA, carryingOver: library)
            let b = try saver(folders, computer: "b", reports: reportsB, carryingOver: library)
            #expect(a.computer != b.computer)
            var onA = noted(library, gallery: 0, image: 0, "From A")
            onA.galleries[1].images.swapAt(0, 2)
            var onB = noted(library, gallery: 1, image: 1, "From B")
            onB.galleries[0].name = "Kitchen walls"
            a.save(onA)
            b.save(onB)
            a.takeInChanges()
            b.takeInChanges()
            let mergedA = try #require(reportsA.merged.withLock { $0.last })
            let mergedB = try #require(reportsB.merged.withLock { $0.last })
            #expect(mergedA == mergedB)
            #expect(mergedA.galleries[0].images[0].note == "From A" && mergedA.galleries[1].images[1].note == "From B")
            #expect(mergedA.galleries[0].name == "Kitchen walls")
            #expect(mergedA.galleries[1].images.map(\.id.rawValue) == ["i6", "i5", "i4"])
            #expect(reportsA.errors.withLock { $0 }.isEmpty && reportsB.errors.withLock { $0 }.isEmpty)
            // The windows take the merge in and save it back: nothing of theirs to write, and a third launch agrees.
            a.save(mergedA)
            b.save(mergedB)
            #expect(try saver(folders, computer: "c").loaded == mergedA)
        }
    }

    @Test func anotherComputersNoteComesInWithTheOtherGalleriesArraysAsSaved() throws {
        try withFolders { folders in
            let reports = Reports()
            let a = try saver(folders, computer: "a", carryingOver: library)
            let b = try saver(folders, computer: "b", reports: reports, carryingOver: library)
            let onA = noted(library, gallery: 0, image: 1, "From A")
            a.save(onA)
            #expect(a.flush() == nil)
            b.save(b.loaded)
            b.takeInChanges()
            let merged = try #require(reports.merged.withLock { $0.last })
            #expect(merged == onA)
            // The gallery the note left alone is the very array B saved: a window compares it at once.
            let address = { (images: [GalleryImage]) in images.withUnsafeBufferPointer { $0.baseAddress } }
            #expect(address(merged.galleries[1].images) == address(b.loaded.galleries[1].images))
        }
    }

    @Test func movesAndNotesFromAnotherComputerComeInAsTheWholeLibraryWould() throws {
        try withFolders { folders in
            let reports = Reports()
            let a = try saver(folders, computer: "a", carryingOver: library)
            let b = try saver(folders, computer: "b", reports: reports, carryingOver: library)
            b.save(b.loaded)
            var onA = library
            var random = SystemRandomNumberGenerator()
            for step in 0..<40 {
                let from = Int.random(in: 0..<2, using: &random)
                guard !onA.galleries[from].images.isEmpty else { continue }
                let index = Int.random(in: 0..<onA.galleries[from].images.count, using: &random)
                switch step % 3 {
                case 0: onA.galleries[from].images[index].note = "note \(step)"
                case 1: onA.galleries[from].images[index].tags = ["tag \(step)"]
                default:
                    let moved = onA.galleries[from].images.remove(at: index)
                    let to = Int.random(in: 0..<2, using: &random)
                    onA.galleries[to].images.insert(
                        moved, at: Int.random(in: 0...onA.galleries[to].images.count, using: &random))
                }
                a.save(onA)
                #expect(a.flush() == nil)
                b.takeInChanges()
                let merged = try #require(reports.merged.withLock { $0.last })
                #expect(merged == onA, "step \(step)")
                b.save(merged)
            }
        }
    }

    @Test func aKillBetweenTheAppendAndTheSnapshotLosesNothing() throws {
        try withFolders { folders in
            let killed = try killedBetweenAnAppendAndItsSnapshot(folders)
            #expect(killed.runner.queuedCount == 1)  // the snapshot, never run: the saver is dropped as a kill would
            #expect(
                JournalSnapshot.decode([UInt8](try Data(contentsOf: killed.snapshot)))?.replica.state == killed.once)
            #expect(try saver(folders).loaded == killed.twice)
        }
    }

    @Test func aLaunchFindingItsLogPastTheSnapshotsDuePointWritesOneWithoutAnEdit() throws {
        try withFolders { folders in
            let killed = try killedBetweenAnAppendAndItsSnapshot(folders)
            let relaunched = try saver(folders, policy: everyAppend)
            relaunched.snapshotIfDue()
            let written = try Data(contentsOf: killed.snapshot)
            #expect(JournalSnapshot.decode([UInt8](written))?.replica.state == killed.twice)
            // Nothing appended since: the snapshot is not written again (a write replaces the file by a rename).
            let inode = {
                try FileManager.default.attributesOfItem(atPath: killed.snapshot.path)[.systemFileNumber] as? Int
            }
            let before = try inode()
            try saver(folders, policy: everyAppend).snapshotIfDue()
            #expect(try inode() == before)
        }
    }

    @Test func aLaunchReadingTheRestLaterWritesNoSnapshotBeforeTheRestIsIn() throws {
        try withFolders { folders in
            try snapshotted(folders, shownSecond)
            let runner = Runner(inline: false)
            let first = try saver(folders, computer: "writer", runner: runner, policy: everyAppend)
            first.save(noted(shownSecond, gallery: 2, image: 1, "Appended only"))
            #expect(runner.runNext())  // the append; its snapshot never runs
            let snapshot = folders.log.appendingPathComponent("snapshot-\(first.computer).json")
            let stale = try Data(contentsOf: snapshot)
            let relaunched = try saver(folders, computer: "writer", restLaterBeyond: 0, policy: everyAppend)
            #expect(!relaunched.isWhole)
            relaunched.snapshotIfDue()
            #expect(try Data(contentsOf: snapshot) == stale)
            let library = whole(relaunched)
            relaunched.snapshotIfDue()
            let written = try Data(contentsOf: snapshot)
            #expect(written != stale)
            #expect(JournalSnapshot.decode([UInt8](written))?.replica.state == library)
            #expect(library.galleries[2].images[1].note == "Appended only")
        }
    }

    @Test func aLogCutMidRecordLosesOnlyThatEntry() throws {
        try withFolders { folders in
            let writer = try saver(folders, computer: "a", carryingOver: library)
            let kept = noted(library, gallery: 0, image: 0, "Kept")
            writer.save(kept)
            #expect(writer.flush() == nil)
            let logURL = folders.log.appendingPathComponent("\(writer.computer).log")
            let whole = try Data(contentsOf: logURL)
            writer.save(noted(kept, gallery: 0, image: 1, "Cut"))
            #expect(writer.flush() == nil)
            let longer = try Data(contentsOf: logURL)
            #expect(longer.count > whole.count + 20)
            // Another computer reads the log as the sync tool left it, cut in the middle of the last record.
            try longer.prefix(whole.count + 20).write(to: logURL)
            let reports = Reports()
            let reader = try saver(folders, computer: "b", reports: reports)
            #expect(reader.loaded.galleries.count == library.galleries.count)
            // Its own snapshot may not hold the library yet: what it read is the log up to the cut.
            #expect(reader.loaded.galleries[0].images[0].note == "Kept")
            #expect(reader.loaded.galleries[0].images[1].note == nil)
            // The rest of the record arrives: the next reading takes it in from where the last stopped.
            try longer.write(to: logURL)
            reader.takeInChanges()
            let merged = try #require(reports.merged.withLock { $0.last })
            #expect(merged.galleries[0].images[1].note == "Cut")
        }
    }

    @Test func aLogThatGotShorterIsReadAgainFromItsStart() throws {
        try withFolders { folders in
            let writer = try saver(folders, computer: "a", carryingOver: library)
            writer.save(noted(library, gallery: 0, image: 0, "One"))
            #expect(writer.flush() == nil)
            writer.save(noted(library, gallery: 0, image: 0, "Two"))
            #expect(writer.flush() == nil)
            let reports = Reports()
            let reader = try saver(folders, computer: "b", reports: reports)
            #expect(reader.loaded.galleries[0].images[0].note == "Two")
            // The log is replaced by a shorter one (restored from a backup) holding another entry.
            let logURL = folders.log.appendingPathComponent("\(writer.computer).log")
            let entry = JournalEntry(
                stamp: JournalStamp(counter: 100, computer: writer.computer),
                changes: [.setImageField(ImageID("i2"), name: "note", value: RawJSON(.string("Restored")))])
            try Data(JournalLog.record(entry)).write(to: logURL)
            reader.takeInChanges()
            let merged = try #require(reports.merged.withLock { $0.last })
            #expect(merged.galleries[0].images[1].note == "Restored")
        }
    }

    @Test func aChangeOverTheRecordCapIsRefusedWithAMessage() throws {
        try withFolders { folders in
            let reports = Reports()
            let writer = try saver(folders, reports: reports, carryingOver: library)
            var edited = noted(library, gallery: 0, image: 0, String(repeating: "x", count: JournalRecord.entryLimit))
            edited.galleries[1].name = "Kept"
            writer.save(edited)
            #expect(writer.flush() == nil)
            #expect(reports.errors.withLock { $0.count } == 1)
            let again = try saver(folders)
            #expect(again.loaded.galleries[1].name == "Kept")
            #expect(again.loaded.galleries[0].images[0].note?.utf8.count == nil)
        }
    }

    @Test func anEditOnTheMergedLibraryWritesOnlyItsOwnChange() throws {
        try withFolders { folders in
            let reportsA = Reports()
            let a = try saver(folders, computer: "a", reports: reportsA, carryingOver: library)
            let b = try saver(folders, computer: "b", carryingOver: library)
            b.save(noted(library, gallery: 1, image: 1, "From B"))
            #expect(b.flush() == nil)
            a.takeInChanges()
            let merged = try #require(reportsA.merged.withLock { $0.last })
            a.save(noted(merged, gallery: 0, image: 0, "From A"))
            #expect(a.flush() == nil)
            let log = try [UInt8](Data(contentsOf: folders.log.appendingPathComponent("\(a.computer).log")))
            let last = try #require(JournalLog.read(log).entries.last)
            #expect(last.changes == [.setImageField(ImageID("i1"), name: "note", value: RawJSON(.string("From A")))])
        }
    }

    @Test func anEditOnAMergeNotYetSavedBackMakesAgainOnlyItsGalleries() throws {
        try withFolders { folders in
            let reports = Reports()
            let a = try saver(folders, computer: "a", carryingOver: library)
            let b = try saver(folders, computer: "b", reports: reports, carryingOver: library)
            b.save(b.loaded)
            #expect(b.flush() == nil)
            a.save(noted(library, gallery: 1, image: 1, "From A"))
            #expect(a.flush() == nil)
            b.takeInChanges()
            let merged = try #require(reports.merged.withLock { $0.last })
            b.save(noted(merged, gallery: 1, image: 0, "From B"))
            #expect(b.flush() == nil)
            let expected = noted(noted(library, gallery: 1, image: 1, "From A"), gallery: 1, image: 0, "From B")
            #expect(b.library == expected)
            #expect(try saver(folders, computer: "c").loaded == expected)
            // The gallery neither edit touched is the very array the merge handed on: a window compares it at once.
            let address = { (images: [GalleryImage]) in images.withUnsafeBufferPointer { $0.baseAddress } }
            #expect(address(b.library.galleries[0].images) == address(merged.galleries[0].images))
        }
    }

    @Test func aDamagedLogOfThisComputersGoesOnUnderANewID() throws {
        try withFolders { folders in
            let first = try saver(folders, carryingOver: library)
            let kept = noted(library, gallery: 0, image: 0, "Kept")
            first.save(kept)
            #expect(first.flush() == nil)
            let logURL = folders.log.appendingPathComponent("\(first.computer).log")
            var bytes = try Data(contentsOf: logURL)
            bytes[bytes.count - 3] ^= 0x01
            try bytes.write(to: logURL)
            let second = try saver(folders)
            #expect(second.computer != first.computer)
            let edited = noted(library, gallery: 1, image: 0, "After")
            second.save(edited)
            #expect(second.flush() == nil)
            // The snapshot the new log owes covers the old one up to its damage, past which nothing reads: it goes.
            #expect(folders.size(folders.logFile(first.computer)) == -1)
            let third = try saver(folders)
            #expect(third.computer == second.computer && third.loaded == edited)
        }
    }

    @Test func aLaunchReadsTheShownGalleryFirstAndTheRestAfterIt() throws {
        try withFolders { folders in
            try snapshotted(folders, shownSecond)
            // Another computer's edit to a gallery not shown, in its log after the snapshot.
            let other = try saver(folders, computer: "other")
            other.save(noted(shownSecond, gallery: 0, image: 0, "From the log"))
            #expect(other.flush() == nil)
            let reports = Reports()
            let launch = try saver(folders, computer: "launch", reports: reports, restLaterBeyond: 0)
            // Every gallery, named, for the sidebar; the shown one's images alone, the others counted.
            #expect(launch.loaded.galleries.map(\.id) == shownSecond.galleries.map(\.id))
            #expect(launch.loaded.galleries.map(\.name) == shownSecond.galleries.map(\.name))
            #expect(launch.loaded.galleries[1] == shownSecond.galleries[1])
            #expect(launch.loaded.galleries[0].images.isEmpty && launch.loaded.galleries[2].images.isEmpty)
            #expect(launch.unreadCounts == ["g1": shownSecond.galleries[0].images.count, "g3": 2])
            #expect(!launch.isWhole)
            let expected = noted(shownSecond, gallery: 0, image: 0, "From the log")
            #expect(whole(launch) == expected)
            #expect(launch.isWhole)
            #expect(reports.merged.withLock { $0 } == [expected])
            // A library whose rest is smaller than the bound is read whole at once.
            let small = try saver(folders, computer: "small", restLaterBeyond: 1 << 20)
            #expect(small.isWhole && small.loaded == expected && small.unreadCounts.isEmpty)
        }
    }

    @Test func anEditMadeBeforeTheRestArrivesIsWrittenOnTopOfIt() throws {
        try withFolders { folders in
            try snapshotted(folders, shownSecond)
            let reports = Reports()
            let launch = try saver(folders, computer: "launch", reports: reports, restLaterBeyond: 0)
            let logURL = folders.log.appendingPathComponent("\(launch.computer).log")
            // The window moves an image within the shown gallery and notes another, and makes a gallery.
            var edited = launch.loaded
            edited.galleries[1].images.swapAt(0, 2)
            edited.galleries[1].images[1].note = "Before the rest"
            edited.galleries.append(Gallery(id: "g4", name: "Doors", images: []))
            let logSize = { (try? Data(contentsOf: logURL))?.count ?? 0 }
            let before = logSize()
            launch.save(edited)
            // Held, not written against a library the journal does not hold whole yet.
            #expect(logSize() == before)
            // A flush (a quit) reads the rest and writes the edit on it.
            #expect(launch.flush() == nil)
            #expect(logSize() > before)
            var expected = shownSecond
            expected.galleries[1].images.swapAt(0, 2)
            expected.galleries[1].images[1].note = "Before the rest"
            // The new gallery comes after the shown one; where among the others is its key's.
            let holdsEdit = { (state: GalleryState?) -> Bool in
                guard var state else { return false }
                let made = state.galleries.firstIndex { $0.id == "g4" }
                guard let made, state.galleries[made].name == "Doors", state.galleries[made].images.isEmpty else {
                    return false
                }
                state.galleries.remove(at: made)
                return state == expected
            }
            #expect(holdsEdit(reports.merged.withLock { $0.last }))
            #expect(holdsEdit(try saver(folders, computer: "next").loaded))
            #expect(reports.errors.withLock { $0 }.isEmpty)
        }
    }

    @Test func anEditSavedTogetherWithTheRestTakenInWritesOnlyItsOwnChange() throws {
        try withFolders { folders in
            try snapshotted(folders, shownSecond)
            let runner = Runner(inline: false)
            let launch = try saver(folders, computer: "launch", runner: runner, restLaterBeyond: 0)
            let rest = whole(launch)
            // The window takes the rest in and saves it back, and a move follows before that save is written.
            launch.save(rest)
            var moved = rest
            moved.galleries[1].images.swapAt(0, 1)
            launch.save(moved)
            while runner.runNext() {}
            let log = try [UInt8](Data(contentsOf: folders.log.appendingPathComponent("\(launch.computer).log")))
            let entries = JournalLog.read(log).entries
            // One image placed anew: the other galleries' images, the rest's, keep their places.
            #expect(entries.count == 1)
            #expect(entries.first?.changes.count == 1)
            #expect(try saver(folders, computer: "next").loaded == moved)
        }
    }

    /// Another computer's table, framed and checked as a whole record: a section longer than the file holds, and a
    /// count beyond what its section's bytes can hold, each in the first section's entry (a gallery not shown, so
    /// the shown one's section still reads).
    @Test(arguments: [("\"length\":", "\"length\":1"), ("\"imageCount\":", "\"imageCount\":99")])
    func aSnapshotWhoseTableLiesIsNotReadInPartsNorCounted(lie: (field: String, told: String)) throws {
        try withFolders { folders in
            try snapshotted(folders, shownSecond)
            let name = try #require(
                FileManager.default.contentsOfDirectory(atPath: folders.log.path).first { $0.hasPrefix("snapshot-") })
            let url = folders.log.appendingPathComponent(name)
            let bytes = [UInt8](try Data(contentsOf: url))
            let found = bytes.withUnsafeBufferPointer { JournalRecord.read($0, from: 0, limit: JournalSnapshot.limit) }
            let table = String(decoding: bytes[found.payloads[0]], as: UTF8.self)
            let sections = try #require(table.range(of: "\"sections\":"))
            let field = try #require(table.range(of: lie.field, range: sections.upperBound..<table.endIndex))
            let lying = table.replacingCharacters(in: field, with: lie.told)
            try Data(JournalRecord.frame(Array(lying.utf8)) + bytes[(found.payloads[0].upperBound + 1)...]).write(
                to: url)
            let launch = try saver(folders, computer: "launch", restLaterBeyond: 0)
            #expect(launch.unreadCounts.values.allSatisfy { $0 < 99 })
            #expect(whole(launch) == shownSecond)
        }
    }

    @Test func aSnapshotDamagedPastTheShownGalleryIsReadFromTheLogs() throws {
        try withFolders { folders in
            try snapshotted(folders, shownSecond)
            let launch = try saver(folders, computer: "launch", restLaterBeyond: 0)
            #expect(!launch.isWhole && launch.loaded.galleries[1] == shownSecond.galleries[1])
            // A byte of the last section changes on the disk before the rest is read.
            let name = try #require(
                FileManager.default.contentsOfDirectory(atPath: folders.log.path).first { $0.hasPrefix("snapshot-") })
            let file = try FileHandle(forUpdating: folders.log.appendingPathComponent(name))
            let size = try file.seekToEnd()
            try file.seek(toOffset: size - 10)
            let byte = try #require(try file.read(upToCount: 1))
            try file.seek(toOffset: size - 10)
            try file.write(contentsOf: Data([byte[0] ^ 0x01]))
            try file.close()
            #expect(whole(launch) == shownSecond)
        }
    }
    /// Images landing are handed to the saver as what landed, not the library (`GalleryLibrary.onLanded`): a few at a
    /// time, anywhere, in any order, between edits, undos and whole saves, some saves written at once and others
    /// waiting to be written together, the journal holds the library the window holds, and a launch reads it back.
    @MainActor @Test func imagesSavedAsTheyLandMakeTheLibraryTheWindowHolds() throws {
        for seed in UInt64(1)...6 {
            try withFolders { folders in
                var random = SplitMix64(seed: seed)
                let window = GalleryLibrary(state: library)
                let runner = Runner(inline: false)
                let reports = Reports()
                let journal = try saver(folders, runner: runner, reports: reports, carryingOver: window.state)
                window.onSave = { journal.save($0) }
                window.onLanded = { journal.save(landed: $1, in: $0) }
                var waiting: [ImageID] = []
                var number = 100
                for step in 0..<50 {
                    let galleryID = window.galleries.randomElement(using: &random)!.id
                    let ids = window.cells(of: galleryID).compactMap(\.image).map(\.id)
                    switch random.next() % 8 {
                    case 0, 1:
                        let at = Int(random.next() % UInt64(window.cells(of: galleryID).count + 1))
                        let labels = (0..<1 + Int(random.next() % 3)).map { "coming \($0)" }
                        waiting += window.insertPlaceholders(in: galleryID, at: at, labels: labels) ?? []
                        if random.next() % 2 == 0 { window.groupArrivals(Array(waiting.suffix(labels.count))) }
                    case 2, 3, 4:
                        waiting.shuffle(using: &random)
                        let arriving = waiting.prefix(1 + Int(random.next() % 3))
                        waiting.removeFirst(arriving.count)
                        window.fulfillPlaceholders(
                            arriving.map { placeholder in
                                number += 1
                                return (placeholder, image("i\(number)"))
                            })
                    case 5: if let id = ids.randomElement(using: &random) { window.setNote("n\(step)", of: id) }
                    case 6:
                        if let id = ids.randomElement(using: &random) {
                            window.move([id], in: galleryID, toInsertionIndex: Int(random.next() % UInt64(ids.count)))
                        }
                    default: _ = random.next() % 2 == 0 ? window.undo() : window.redo()
                    }
                    // Some saves are written at once, others wait and are written together.
                    if random.next() % 3 == 0 {
                        while runner.runNext() {}
                        #expect(journal.library == window.state, "seed \(seed), step \(step)")
                    }
                }
                while runner.runNext() {}
                #expect(journal.library == window.state)
                #expect(try saver(folders).loaded == window.state)
                #expect(reports.errors.withLock { $0 }.isEmpty)
            }
        }
    }

    /// A first launch's gallery is made by the window and saved with its first edit: images landing in it before any
    /// edit are saved with the library, not lost as landing in a gallery the saver does not hold.
    @MainActor @Test func imagesLandingInAFirstLaunchsGalleryAreSaved() throws {
        try withFolders { folders in
            let window = GalleryLibrary(state: .initial)
            let runner = Runner(inline: false)
            let reports = Reports()
            let journal = try saver(folders, runner: runner, reports: reports)
            #expect(journal.loaded.galleries.isEmpty)
            window.onSave = { journal.save($0) }
            window.onLanded = { journal.save(landed: $1, in: $0) }
            let galleryID = try #require(window.galleries.first?.id)
            let placeholders = try #require(window.insertPlaceholders(in: galleryID, at: 0, labels: ["first"]))
            window.fulfillPlaceholders([(placeholders[0], image("first"))])
            while runner.runNext() {}
            #expect(journal.library == window.state)
            #expect(try saver(folders).loaded == window.state)
            #expect(reports.errors.withLock { $0 }.isEmpty)
        }
    }

    @Test func aLogPastTheBoundMovesToANewOneWithTheSnapshotAfterItAndNothingIsLost() throws {
        try withFolders { folders in
            let first = try savingTheLibrary(folders)
            var state = library
            let old = first.computer
            let reports = Reports()
            let other = try saver(folders, computer: "b", reports: reports)
            var moved: (step: Int, sizeBefore: Int, counters: [UInt64])?
            for step in 0..<16 {
                let (sizeBefore, countersBefore) = (folders.size(folders.logFile(old)), try? counters(folders, old))
                state = noting(state, step: step)
                first.save(state)
                #expect(first.flush() == nil)  // the append, then its snapshot
                let size = folders.size(folders.logFile(old))
                if moved != nil || first.computer != old {
                    // Never appended to again, and removed by the move's snapshot: no other snapshot covers it less.
                    #expect(size == -1, "step \(step)")
                    if moved == nil { moved = (step, sizeBefore, countersBefore ?? []) }
                } else {
                    #expect(size < logBound, "step \(step)")
                }
            }
            let new = first.computer
            #expect(moved != nil && new != old)
            #expect(JournalSaver.existingComputer(in: folders.stateFolder("a")) == new)
            // The new id's snapshot covers the old log whole, and replaces the old id's.
            let snapshot = try #require(
                JournalSnapshot.decode([UInt8](try Data(contentsOf: folders.snapshotFile(new)))))
            let covered = try #require(snapshot.covers[old])
            #expect(covered >= logBound && covered > moved!.sizeBefore && moved!.sizeBefore < logBound)
            #expect(!FileManager.default.fileExists(atPath: folders.snapshotFile(old).path))
            // The counter goes on from the old log's (its last entry's one more than those before it).
            #expect(try moved!.counters.max()! + 1 < counters(folders, new).min()!)
            // This computer's next launch, another computer that had read the old log in part when it went (it takes in
            // the snapshot that covers it), and the printout.
            let again = try saver(folders, policy: newLogBeyond(logBound))
            #expect(again.computer == new && again.loaded == state)
            other.takeInChanges()
            #expect(reports.merged.withLock { $0.last } == state)
            #expect(reports.errors.withLock { $0 }.isEmpty)
            #expect(folders.printout == state)
        }
    }

    @Test(arguments: KillDuringTheMove.allCases)
    func aKillDuringTheMoveToANewLogLosesNothing(kill: KillDuringTheMove) throws {
        try withFolders { folders in
            let runner = Runner(inline: false)
            let first = try saver(folders, runner: runner, policy: newLogBeyond(logBound))
            var state = library
            first.save(state)
            while runner.runNext() {}
            let old = first.computer
            // Notes, each with its snapshot, until the one whose append takes the log past the bound.
            var step = 0
            while folders.size(folders.logFile(old)) < logBound {
                while runner.runNext() {}
                state = noting(state, step: step)
                step += 1
                first.save(state)
                #expect(runner.runNext())  // the append; its snapshot stays queued
            }
            #expect(runner.queuedCount == 1 && first.computer == old)
            let oldSize = folders.size(folders.logFile(old))
            switch kill {
            case .beforeTheSnapshot: break
            case .afterTheNewID:
                // What the move writes first, as it writes it.
                try FileWriter.kept.write(
                    Data("moved\n".utf8), to: folders.stateFolder("a").appendingPathComponent("journal-computer").path,
                    policy: .replace)
            case .afterTheSnapshot:
                let older = try Data(contentsOf: folders.snapshotFile(old))
                #expect(runner.runNext())
                #expect(first.computer != old)
                // Put back as if the removal never ran: the newer file, the one a launch reads first.
                try older.write(to: folders.snapshotFile(old))
            }
            // The kill: the saver is dropped with what is queued.
            let relaunched = try saver(folders, policy: newLogBeyond(logBound))
            #expect(relaunched.loaded == state)
            switch kill {
            case .beforeTheSnapshot:
                #expect(relaunched.computer == old)
                relaunched.snapshotIfDue()  // the snapshot the log is owed moves it
                #expect(relaunched.computer != old)
            case .afterTheNewID: #expect(relaunched.computer == "moved")
            case .afterTheSnapshot: #expect(relaunched.computer == first.computer)
            }
            let edited = noting(state, step: step)
            relaunched.save(edited)
            #expect(relaunched.flush() == nil)
            // One log appended to at a time: the old one is as the kill left it, or removed by the move's snapshot (the
            // one after the kill does not know it: its id was kept without the list of this computer's old ones).
            #expect(folders.size(folders.logFile(old)) == (kill == .afterTheNewID ? oldSize : -1))
            #expect(folders.size(folders.logFile(relaunched.computer)) > 0)
            let again = try saver(folders, policy: newLogBeyond(logBound))
            #expect(again.computer == relaunched.computer && again.loaded == edited)
            #expect(try saver(folders, computer: "b").loaded == edited)
            #expect(folders.printout == edited)
        }
    }

    @Test func anOldLogIsKeptWhileAPeersSnapshotDoesNotCoverItAndRemovedOnceEveryOneDoes() throws {
        try withFolders { folders in
            let first = try savingTheLibrary(folders)
            var state = library
            let old = first.computer
            let reports = Reports()
            let peer = try saver(folders, computer: "b", reports: reports, policy: everyAppend)
            state = noted(state, gallery: 0, image: 0, "the peer's")
            peer.save(state)
            #expect(peer.flush() == nil)  // its snapshot covers the old log as far as it is now
            var step = 1
            editUntilANewLog(first, &state, step: &step)
            let oldSize = folders.size(folders.logFile(old))
            #expect(oldSize > 0)
            #expect(try retired(folders, "a") == [old])
            // Another snapshot of this computer's: the peer's still covers the old log in part.
            state = noting(state, step: step)
            first.save(state)
            #expect(first.flush() == nil)
            #expect(folders.size(folders.logFile(old)) == oldSize)
            // The peer reads on and writes a snapshot covering it whole; this computer's next snapshot removes it.
            peer.takeInChanges()
            #expect(reports.merged.withLock { $0.last } == state)
            state = noted(state, gallery: 1, image: 1, "the peer's again")
            peer.save(state)
            #expect(peer.flush() == nil)
            first.takeInChanges()
            state = noting(state, step: step + 1)
            first.save(state)
            #expect(first.flush() == nil)
            #expect(folders.size(folders.logFile(old)) == -1)
            #expect(try retired(folders, "a").isEmpty)
            // Nothing lost for the peer, nor for a launch, nor for the printout.
            peer.takeInChanges()
            #expect(reports.merged.withLock { $0.last } == state)
            #expect(reports.errors.withLock { $0 }.isEmpty)
            #expect(try saver(folders, computer: "c").loaded == state)
            #expect(try saver(folders, computer: "b").loaded == state)
            #expect(folders.printout == state)
        }
    }

    @Test func aPeerWhoseSnapshotArrivesAfterTheOldLogWentReadsTheSameLibrary() throws {
        try withFolders { folders in
            let first = try savingTheLibrary(folders)
            var state = library
            let old = first.computer
            // A peer edits and snapshots, then goes away for months: its snapshot has not reached this computer.
            let peer = try saver(folders, computer: "b", policy: everyAppend)
            state = noted(state, gallery: 0, image: 0, "the peer's")
            peer.save(state)
            #expect(peer.flush() == nil)
            let peerSnapshotFile = folders.snapshotFile(peer.computer)
            let peerSnapshot = try Data(contentsOf: peerSnapshotFile)
            try FileManager.default.removeItem(at: peerSnapshotFile)
            var step = 1
            editUntilANewLog(first, &state, step: &step)
            #expect(folders.size(folders.logFile(old)) == -1)
            // It comes back: its snapshot, written last and covering the old log in part, is the one a launch reads.
            try peerSnapshot.write(to: peerSnapshotFile)
            #expect(try saver(folders, computer: "b").loaded == state)
            #expect(try saver(folders, computer: "c").loaded == state)
            #expect(folders.printout == state)
            // A launch reading the shown gallery first has it too once the rest is in.
            #expect(whole(try saver(folders, computer: "d", restLaterBeyond: 0)) == state)
        }
    }

    @Test func aRunningReaderFindingAnOldLogGoneBeforeItReadItWholeLosesNothing() throws {
        try withFolders { folders in
            let first = try savingTheLibrary(folders)
            var state = library
            let old = first.computer
            // A reader that never writes a snapshot: nothing of it holds the removal back.
            let reports = Reports()
            let reader = try saver(folders, computer: "b", reports: reports)
            var step = 0
            while first.computer == old {
                state = noting(state, step: step)
                step += 1
                first.save(state)
                #expect(first.flush() == nil)
                if first.computer == old {
                    reader.takeInChanges()
                    #expect(reports.merged.withLock { $0.last } == state)
                }
            }
            #expect(folders.size(folders.logFile(old)) == -1)
            reader.takeInChanges()
            #expect(reports.merged.withLock { $0.last } == state)
            #expect(reader.library == state)
            #expect(reports.errors.withLock { $0 }.isEmpty)
        }
    }

    @Test func theLiveLogIsNeverRemovedNorALinkFollowed() throws {
        try withFolders { folders in
            let first = try saver(folders, policy: everyAppend)
            first.save(library)
            #expect(first.flush() == nil)
            // A kill after the list of old ids was kept and before the new id was: the list names the live log.
            try Data((first.computer + "\nlinked\n").utf8).write(
                to: folders.stateFolder("a").appendingPathComponent("journal-retired"))
            let outside = folders.root.appendingPathComponent("outside.log")
            try Data("kept".utf8).write(to: outside)
            try FileManager.default.createSymbolicLink(at: folders.logFile("linked"), withDestinationURL: outside)
            let relaunched = try saver(folders, policy: everyAppend)
            #expect(relaunched.computer == first.computer)
            let edited = noted(library, gallery: 0, image: 0, "after")
            relaunched.save(edited)
            #expect(relaunched.flush() == nil)
            #expect(folders.size(folders.logFile(first.computer)) > 0)
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folders.logFile("linked").path) != "")
            #expect(try Data(contentsOf: outside) == Data("kept".utf8))
            #expect(try saver(folders, computer: "b").loaded == edited)
        }
    }

    @Test func aSnapshotRemovesAFewOldLogsAtMost() throws {
        try withFolders { folders in
            let first = try saver(folders, policy: everyAppend)
            first.save(library)
            #expect(first.flush() == nil)
            // Six old logs of this computer's (copies of its log: the same entries), none covered by a snapshot yet.
            let olds = (1...6).map { "old-\($0)" }
            for old in olds {
                try FileManager.default.copyItem(at: folders.logFile(first.computer), to: folders.logFile(old))
            }
            try Data(olds.map { $0 + "\n" }.joined().utf8).write(
                to: folders.stateFolder("a").appendingPathComponent("journal-retired"))
            let relaunched = try saver(folders, policy: everyAppend)
            var state = library
            for step in 0..<2 {
                state = noting(state, step: step)
                relaunched.save(state)
                #expect(relaunched.flush() == nil)
                let left = olds.filter { folders.size(folders.logFile($0)) > 0 }
                #expect(left == (step == 0 ? Array(olds.suffix(2)) : []), "step \(step)")
                #expect(try retired(folders, "a") == left, "step \(step)")
            }
            #expect(try saver(folders, computer: "b").loaded == state)
        }
    }

    @Test func aLogPastTheLimitDoesNotStopSaves() throws {
        try withFolders { folders in
            // No snapshot but the one the first save owes: the notes after it are in the log alone.
            let policy = JournalSaver.SnapshotPolicy(minimumLogBytes: .max, snapshotShare: 1)
            let first = try saver(folders, policy: policy)
            first.save(library)
            #expect(first.flush() == nil)
            let old = first.computer
            let covered = folders.size(folders.logFile(old))
            var notes = [library]
            var sizes: [Int] = []
            for (index, note) in ["one", "two", "three"].enumerated() {
                notes.append(noted(notes.last!, gallery: 0, image: index, note))
                first.save(notes.last!)
                #expect(first.flush() == nil)
                sizes.append(folders.size(folders.logFile(old)))
            }
            let twoRecords = sizes[1] - covered
            // A log larger than a launch reads: its computer goes on in a new one, and the log is read as another
            // computer's, as far as the limit past what the snapshot covers.
            let reports = Reports()
            let relaunched = try saver(folders, reports: reports, policy: policy, logLimit: twoRecords)
            #expect(relaunched.computer != old)
            #expect(relaunched.loaded == notes[2])
            let edited = noted(notes[2], gallery: 1, image: 0, "after")
            relaunched.save(edited)
            #expect(relaunched.flush() == nil)
            #expect(reports.errors.withLock { $0 }.isEmpty)
            // The snapshot that save owes covers the old log as far as it was read, and replaces the old id's; the old
            // log stays, since entries past what it covers read.
            #expect(!FileManager.default.fileExists(atPath: folders.snapshotFile(old).path))
            #expect(folders.size(folders.logFile(old)) == sizes[2])
            // So the next launch reads on from there, and has the third note too.
            let next = try saver(folders, policy: policy, logLimit: twoRecords)
            #expect(next.computer == relaunched.computer)
            #expect(next.loaded == noted(edited, gallery: 0, image: 2, "three"))
        }
    }
}
