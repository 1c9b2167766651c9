import Foundation
import Synchronization
import Testing

@testable import GalleryCore

/// A clock the test moves by hand: work asked to run later runs when the test moves past its time, work asked to run
/// now runs at once on the caller's thread.
private final class ManualClock: Sendable {
    private struct Timeline {
        var elapsed = Duration.zero
        var waiting: [(at: Duration, work: @Sendable () -> Void)] = []
        /// The processor time the saver's thread has taken: the cost of its writes.
        var threadTime = Duration.zero
    }

    private let start = ContinuousClock.now
    private let timeline = Mutex(Timeline())

    var clock: SavePacing.Clock {
        SavePacing.Clock(
            now: { [self] in start.advanced(by: timeline.withLock { $0.elapsed }) },
            threadTime: { [self] in
                // A write's cost later at each reading: a write, read as it begins and as it ends, takes writeCost.
                timeline.withLock { timeline in
                    defer { timeline.threadTime += PacedSaver.writeCost }
                    return timeline.threadTime
                }
            })
    }

    /// The saver's `runInBackground`.
    func run(after delay: Duration, _ work: @escaping @Sendable () -> Void) {
        guard delay > .zero else { return work() }
        timeline.withLock { $0.waiting.append(($0.elapsed + delay, work)) }
    }

    /// Time passing while a write runs: nothing waiting runs meanwhile.
    func pass(_ duration: Duration) { timeline.withLock { $0.elapsed += duration } }

    /// Moves the time on and runs what has become due.
    func advance(by duration: Duration) {
        let due = timeline.withLock { timeline in
            timeline.elapsed += duration
            let now = timeline.elapsed
            defer { timeline.waiting.removeAll { $0.at <= now } }
            return timeline.waiting.filter { $0.at <= now }
        }
        for item in due { item.work() }
    }

    var waitingCount: Int { timeline.withLock { $0.waiting.count } }
}

/// How many writes began.
private final class Tally: Sendable {
    let count = Mutex(0)
}

/// A saver that writes on the caller's thread, each append taking `writeCost` of processor time, after the flush of
/// the originals it names took `flushCost` of the manual clock's time (waiting for the disk).
private final class PacedSaver: Sendable {
    static let flushCost = Duration.milliseconds(50)
    static let writeCost = Duration.milliseconds(10)
    /// How long after a write began the next may begin while saves keep coming.
    static let turn = writeCost * SavePacing.spacing

    let directory: URL
    let clock: ManualClock
    let saver: JournalSaver
    private let writeCount: Tally

    var library: URL { directory.appendingPathComponent("library") }

    init(duringFirstWrite: @escaping @Sendable (JournalSaver) -> Void = { _ in }) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("gallery-pacing-tests-\(UUID().uuidString)", isDirectory: true)
        let clock = ManualClock()
        let writeCount = Tally()
        let saverForHook = Mutex<JournalSaver?>(nil)
        saver = try JournalSaver(
            library: LibraryFolder.open(directory.appendingPathComponent("library"), creating: true),
            stateFolder: directory.appendingPathComponent("state"), runInBackground: { clock.run(after: $0, $1) },
            clock: clock.clock, onError: { Issue.record("unexpected save error: \($0)") },
            beforeWrite: {
                clock.pass(Self.flushCost)
                let first = writeCount.count.withLock { count in
                    count += 1
                    return count == 1
                }
                if first, let saver = saverForHook.withLock({ $0 }) { duringFirstWrite(saver) }
            })
        self.clock = clock
        self.writeCount = writeCount
        saverForHook.withLock { $0 = saver }
    }

    var writes: Int { writeCount.count.withLock { $0 } }

    /// The first gallery's name in the library the journal holds.
    var onDisk: String? {
        guard let folder = try? LibraryFolder.open(library),
            let state = JournalSaver.read(library: folder, carryingOver: nil, computer: "reader")
        else { return nil }
        return state.galleries.first?.name
    }

    func cleanUp() { try? FileManager.default.removeItem(at: directory) }
}

private func state(_ name: String) -> GalleryState {
    GalleryState(galleries: [
        Gallery(id: "g", name: name, images: [GalleryImage(id: ImageID("i"), url: "file:///a.png", aspectRatio: 1)])
    ])
}

@Suite struct SavePacingTests {
    @Test func aBurstOfSavesIsWrittenAtTheSaversPaceAndTheNewestLast() throws {
        let paced = try PacedSaver()
        defer { paced.cleanUp() }
        for n in 0..<50 { paced.saver.save(state("Save \(n)")) }
        // The first save came after a quiet spell: written at once; the others wait for one turn.
        #expect(paced.writes == 1)
        #expect(paced.onDisk == "Save 0")
        #expect(paced.clock.waitingCount == 1)
        // The turn comes `spacing` times the append's processor time after the write began, not before: the flush of
        // the originals counts in the time that passed, not in the cost.
        paced.clock.advance(by: PacedSaver.turn - PacedSaver.flushCost - .milliseconds(1))
        #expect(paced.writes == 1)
        paced.clock.advance(by: .milliseconds(1))
        #expect(paced.writes == 2)
        #expect(paced.onDisk == "Save 49")
        #expect(paced.clock.waitingCount == 0)
    }

    @Test func aSaveAfterAQuietSpellIsWrittenAtOnce() throws {
        let paced = try PacedSaver()
        defer { paced.cleanUp() }
        paced.saver.save(state("First"))
        #expect(paced.writes == 1)
        paced.clock.advance(by: PacedSaver.turn)
        paced.saver.save(state("After a while"))
        #expect(paced.writes == 2)
        #expect(paced.onDisk == "After a while")
        #expect(paced.clock.waitingCount == 0)
    }

    @Test func flushWritesAtOnceAndTheWaitingWriteTakesOnlyWhatCameAfter() throws {
        let paced = try PacedSaver()
        defer { paced.cleanUp() }
        paced.saver.save(state("First"))
        paced.saver.save(state("Second"))
        #expect(paced.writes == 1)
        #expect(paced.saver.flush() == nil)
        #expect(paced.writes == 2)
        #expect(paced.onDisk == "Second")
        // A save after the flush waits for the turn already scheduled, which writes it and nothing else.
        paced.saver.save(state("Third"))
        #expect(paced.writes == 2)
        paced.clock.advance(by: PacedSaver.turn)
        #expect(paced.writes == 3)
        #expect(paced.onDisk == "Third")
        paced.clock.advance(by: PacedSaver.turn * 2)
        #expect(paced.writes == 3)
    }

    @Test func anotherComputersLogTakenInAppendsWhatWaitsForItsTurnAtOnce() throws {
        let paced = try PacedSaver()
        defer { paced.cleanUp() }
        paced.saver.save(state("First"))
        paced.saver.save(state("Ours"))
        let other = try JournalSaver(
            library: LibraryFolder.open(paced.library), stateFolder: paced.directory.appendingPathComponent("other"),
            runInBackground: { _, work in work() }, onError: { Issue.record("unexpected save error: \($0)") })
        var theirs = state("First")
        theirs.sidebarVisible = false
        other.save(theirs)
        #expect(other.flush() == nil)
        paced.saver.takeInChanges()
        #expect(paced.writes == 2)
        #expect(paced.onDisk == "Ours")
        guard let folder = try? LibraryFolder.open(paced.library),
            let merged = JournalSaver.read(library: folder, carryingOver: nil, computer: "reader")
        else {
            Issue.record("the journal could not be read")
            return
        }
        #expect(merged.sidebarVisible == false)
    }

    @Test func aSaveAskedForWhileAWriteRunsWaitsForTheTurnThatWriteSets() throws {
        let paced = try PacedSaver(duringFirstWrite: { $0.save(state("Asked meanwhile")) })
        defer { paced.cleanUp() }
        paced.saver.save(state("First"))
        #expect(paced.writes == 1)
        #expect(paced.onDisk == "First")
        #expect(paced.clock.waitingCount == 1)
        paced.clock.advance(by: PacedSaver.turn)
        #expect(paced.writes == 2)
        #expect(paced.onDisk == "Asked meanwhile")
    }
}
