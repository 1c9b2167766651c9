import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Saves off the caller's thread, one write at a time, the newest state asked for; while saves keep coming, paced
/// by what its writes take (`SavePacing`), so a drop landing is not slowed by writing the whole library again
/// and again; a flush (quit, a move of the library) writes at once.
/// Before each write it checks that the file is still the one it last read or wrote: when another
/// copy of the app (or a sync tool) wrote it meanwhile, both sides' changes are merged, written, and
/// handed to `onMerged`, so neither silently loses the other's edits. A write that fails stays
/// pending: the next save or `flush` tries again. A file that is half written or gone for a moment
/// is waited for, and one from a newer version is never written over.
public final class BackgroundStateSaver: Sendable {
    private struct State {
        /// The newest state asked for and not yet written, and whether a write is on its way to take it (queued, or
        /// waiting for its turn: `pacing`).
        var pending: GalleryState?
        var scheduled = false
        /// A write is running, and a save was asked for meanwhile: its turn is known once the write ends.
        var writingNow = false
        var askedWhileWriting = false
        var pacing = SavePacing()
        /// The last state this copy asked to save, what the file holds (as far as this copy knows)
        /// and its revision. They differ after a merge, until this copy's own state takes the merge
        /// in: every save until then is merged again, so the other copy's changes never leave the
        /// file. Only a write or a read of the file changes them.
        var base: GalleryState
        var onDisk: GalleryState
        var diskRevision: StateStore.Revision?
        /// Every state this copy wrote or read lately, by revision (`Lineage`), the newest last: a
        /// file from elsewhere is merged against the newest of them it was made from.
        var history = Lineage.History()
        /// The state read at launch, until `history` has been read (off the GTK thread, before any write).
        var unreadHistoryOf: GalleryState?
        /// The state read at launch, until the file's revision has been read again and a last write of this
        /// computer's that the file no longer holds merged back (`readLaunchAlone`).
        var unreadLaunch: GalleryState?
        /// Since when the file has been missing or half written, while this copy waits for it.
        var waitingSince: Date?
    }

    private let store: StateStore
    /// Runs a write off the caller's thread, now or once a duration has passed (the app's job scheduler).
    private let runInBackground: RunInBackground
    /// Held while the file is checked, merged and written: one write at a time, in the order asked.
    private let writing = Mutex(StateEncoder())
    private let state: Mutex<State>
    private let onError: @Sendable (String) -> Void
    private let onMerged: @Sendable (_ merged: GalleryState, _ ours: GalleryState) -> Void
    private let onConflictCopiesMerged: @Sendable (Int) -> Void
    /// Puts on the disk what a state may name and is not there yet (the library's originals).
    private let beforeWrite: @Sendable () throws -> Void
    /// How long a missing or half-written file is waited for before this copy writes its own.
    private let patience: TimeInterval
    private let clock: SavePacing.Clock
    /// This computer's own copies of the last file it read from elsewhere and of the last it wrote: a
    /// sync tool may put another computer's file over this one's while the app is not running (killed,
    /// or quit before the exchange), with no conflict copy; the next launch merges its last write back in
    /// against the last state both had.
    private let lastReadStores: [StateStore]
    /// Which of `lastReadStores` the next read goes to (the oldest).
    private let nextReadSlot = Mutex(0)
    private let lastWrittenStore: StateStore?

    /// Runs `work` off the caller's thread once `after` has passed.
    public typealias RunInBackground = @Sendable (_ after: Duration, _ work: @escaping @Sendable () -> Void) -> Void

    /// Runs each write on a thread of its own that first sleeps out the wait: for callers with no job scheduler (tests,
    /// tools), which write rarely.
    public static let onThreadOfItsOwn: RunInBackground = { wait, work in
        Thread.detachNewThread {
            let (seconds, attoseconds) = wait.components
            if wait > .zero { Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) * 1e-18) }
            work()
        }
    }

    /// - Parameters:
    ///   - loaded: the state as read at launch (what the file held then).
    ///   - loadedRevision: the file's version noted before `loaded` was read (nil: there was none), so that a file a
    ///     sync tool puts over it before this saver exists is merged in, not taken for the one read; when not given,
    ///     the file's version now.
    ///   - runInBackground: runs a write elsewhere once the duration has passed (at once for zero); on a thread of
    ///     its own unless told (`onThreadOfItsOwn`).
    ///   - onMerged: the file had changed on disk; `merged` (written now) holds both sides' changes
    ///     made on top of `ours`. Called where the write runs.
    ///   - onConflictCopiesMerged: that many conflict copies were merged into the file and removed.
    ///   - beforeWrite: called where the write runs, before each state is written; when it throws, the save
    ///     fails as a failed write does.
    public init(
        store: StateStore, loaded: GalleryState, loadedRevision: StateStore.Revision?? = nil,
        runInBackground: @escaping RunInBackground = onThreadOfItsOwn,
        patience: TimeInterval = 30, localFolder: URL? = nil, clock: SavePacing.Clock = .system,
        onError: @escaping @Sendable (String) -> Void,
        onMerged: @escaping @Sendable (_ merged: GalleryState, _ ours: GalleryState) -> Void = { _, _ in },
        onConflictCopiesMerged: @escaping @Sendable (Int) -> Void = { _ in },
        beforeWrite: @escaping @Sendable () throws -> Void = {}
    ) {
        self.store = store
        self.beforeWrite = beforeWrite
        self.runInBackground = runInBackground
        self.patience = patience
        self.clock = clock
        // A few, not one: the state both had may be older than the last read when the app was killed between
        // reading another computer's file and writing the merge.
        let kept = localFolder.map(Self.keptCopies(in:))
        lastReadStores = kept?.reads ?? []
        lastWrittenStore = kept?.lastWritten
        self.onError = onError
        self.onMerged = onMerged
        self.onConflictCopiesMerged = onConflictCopiesMerged
        let clean = Lineage.withoutLineage(loaded)
        state = Mutex(
            State(
                base: clean, onDisk: clean, diskRevision: loadedRevision ?? store.revision(), unreadHistoryOf: clean,
                unreadLaunch: clean))
    }

    /// This computer's own copies, in `folder`, of the last files it read from elsewhere and of its last write.
    struct KeptCopies {
        let reads: [StateStore]
        let lastWritten: StateStore

        /// The reads, oldest first, then the last write: the order a launch learns them in (`readHistoryAlone`).
        var byAge: [StateStore] {
            reads.sorted { ($0.modificationDate ?? .distantPast) < ($1.modificationDate ?? .distantPast) }
                + [lastWritten]
        }
    }

    static func keptCopies(in folder: URL) -> KeptCopies {
        KeptCopies(
            reads: (0..<4).map { StateStore(fileURL: folder.appendingPathComponent("last-read-state-\($0).json")) },
            lastWritten: StateStore(fileURL: folder.appendingPathComponent("last-written-state.json")))
    }

    /// Under `writing`, before anything that merges, once: which revision the file read at launch was (`load`
    /// leaves it out), read again, and whether this computer's last write is in it. Not in `init`: it reads the
    /// whole library several times, which the first screen must not wait for; the app asks for it after its
    /// first frame (`takeInChanges`), and a save before that does it first.
    private func readLaunchAlone() {
        let kept = readHistoryAlone()
        let taken = state.withLock { state in
            defer { state.unreadLaunch = nil }
            return state.unreadLaunch
        }
        guard let clean = taken, let (read, lineage) = readLaunchFile(clean) else { return }
        state.withLock { $0.history.name(lineage, ofLaunch: clean) }
        // A state in the shared folder: the base of the next launch's merges, once this one's are done. Kept with
        // its name, so that reading the copy needs no hash of its content; a copy this computer already keeps is
        // only marked the newest.
        defer {
            if let slot = kept.readSlots.first(where: { $0.revision == lineage.revision })?.slot {
                markNewest(slot)
            } else {
                rememberRead(lineage.stamped(read))
            }
        }
        guard let (lastWritten, lastLineage) = kept.lastWritten, let lastLineage,
            !lineage.all.contains(lastLineage.revision), lastWritten != read
        else { return }
        bringBack(lastWritten, lastLineage, into: read, lineage, loaded: clean)
    }

    /// The file read at launch, read again for its lineage (`load` leaves it out); the launch's own state stands
    /// for it when they are alike, so that the copy read here is not held.
    /// A file with no lineage is named by its content once the copy read here is let go.
    private func readLaunchFile(_ clean: GalleryState) -> (state: GalleryState, lineage: Lineage)? {
        let found: (state: GalleryState, lineage: Lineage?)? = {
            guard case .loaded(let raw) = store.read() else { return nil }
            let read = Lineage.withoutLineage(raw)
            if read == clean { return (clean, Lineage.written(in: raw)) }
            guard clean == .initial && read.galleries.isEmpty else { return nil }
            return (read, Lineage.written(in: raw))
        }()
        guard let found else { return nil }
        return (found.state, found.lineage ?? Lineage.named(byContentOf: found.state))
    }

    /// Under `writing`, before anything that merges: what this computer last wrote and read (up to five whole
    /// files), read once and off the GTK thread, then the state read at launch. Returns what the file of the last
    /// write held and which revision each copy of a read holds (nothing once read).
    private func readHistoryAlone() -> (lastWritten: KeptState?, readSlots: [(slot: Int, revision: String)]) {
        guard let launchState = state.withLock({ $0.unreadHistoryOf }) else { return (nil, []) }
        var history = Lineage.History()
        let byAge = lastReadStores.enumerated().sorted {
            ($0.element.modificationDate ?? .distantPast) < ($1.element.modificationDate ?? .distantPast)
        }
        var lastWritten: KeptState?
        var readSlots: [(slot: Int, revision: String)] = []
        for (slot, local) in byAge + [lastWrittenStore].compactMap({ $0 }).map({ (-1, $0) }) {
            if case .loaded(let raw) = local.read() {
                let (state, lineage) = Lineage.split(raw)
                // What the copies hold alike with the launch's state is held once, not once per copy.
                let shared = Lineage.History.sharingStorage(of: state, with: launchState)
                history.add(shared, lineage)
                if slot < 0 {
                    lastWritten = (shared, lineage)
                } else if let lineage {
                    readSlots.append((slot, lineage.revision))
                }
            }
        }
        nextReadSlot.withLock { $0 = byAge.first?.offset ?? 0 }
        history.add(launchState, nil)
        state.withLock { state in
            state.history = history
            state.unreadHistoryOf = nil
        }
        return (lastWritten, readSlots)
    }

    /// A state this computer kept in its own folder, and the lineage it was written with.
    private typealias KeptState = (state: GalleryState, lineage: Lineage?)

    /// Keeps a file read from elsewhere in this computer's own folder, over the oldest kept.
    private func rememberRead(_ raw: GalleryState) {
        guard !lastReadStores.isEmpty else { return }
        let slot = nextReadSlot.withLock { slot in
            defer { slot = (slot + 1) % lastReadStores.count }
            return slot
        }
        _ = try? lastReadStores[slot].save(raw)
    }

    /// Makes a kept copy of a read the newest, as writing it again would: the last the next reads write over.
    private func markNewest(_ slot: Int) {
        try? FileManager.default.setAttributes(
            [.modificationDate: Date()], ofItemAtPath: lastReadStores[slot].resolvedFileURL.path)
        nextReadSlot.withLock { next in
            if next == slot { next = (slot + 1) % lastReadStores.count }
        }
    }

    /// Merges this computer's last write, which the file no longer holds, into it.
    private func bringBack(
        _ lastWritten: GalleryState, _ lastLineage: Lineage, into file: GalleryState, _ fileLineage: Lineage?,
        loaded: GalleryState
    ) {
        let history = state.withLock { $0.history }
        let common = history.newest(commonTo: [fileLineage, lastLineage]) ?? file
        let merged = GalleryState.merged(base: common, theirs: file, ours: lastWritten)
        guard merged != file else { return }
        let lineage = Lineage(revision: RandomID.make(), takenIn: [fileLineage, lastLineage].compactMap { $0 })
        do {
            let folderLock = try store.lockFolder()
            defer { folderLock.unlock() }
            let revision = try store.save(lineage.stamped(merged))
            _ = try? lastWrittenStore?.save(lineage.stamped(merged))
            state.withLock { state in
                state.diskRevision = revision
                state.onDisk = merged
                state.history.add(merged, lineage)
            }
            onMerged(merged, loaded)
        } catch {
            onError("\(error)")
        }
    }

    /// Saves `newState` off the caller's thread: at once after a quiet spell, else when the saver's turn comes
    /// (`SavePacing`), the newest state asked for by then.
    public func save(_ newState: GalleryState) {
        let now = clock.now()
        let wait: Duration? = state.withLock { state in
            state.pending = newState
            if state.writingNow { state.askedWhileWriting = true }
            guard !state.scheduled && !state.writingNow else { return nil }
            state.scheduled = true
            return state.pacing.wait(at: now)
        }
        if let wait { scheduleWrite(after: wait) }
    }

    /// The write that takes what is pending once `wait` has passed.
    private func scheduleWrite(after wait: Duration) {
        runInBackground(wait) { [self] in _ = writing.withLock { writePendingAlone(encoder: &$0, scheduled: true) } }
    }

    /// The folder changed (the file, or a conflict copy beside it): what came in is merged, written
    /// when it must be, and handed to `onMerged`. The first call (or save) also does the launch's reading.
    public func takeInChanges() {
        runInBackground(.zero) { [self] in _ = writing.withLock { encoder in takeInChangesAlone(encoder: &encoder) } }
    }

    /// Blocks until everything asked for is on disk (at quit, before a move of the library), written at once
    /// whatever the pacing; at most `timeout` seconds (a hung
    /// network folder must not hang the quit); returns why it is not, if it is not.
    public func flush(timeout: Double = 10) -> String? {
        let done = DispatchSemaphore(value: 0)
        let outcome = FlushOutcome()
        runInBackground(.zero) { [self] in
            let reason = writePending()
            outcome.reason.withLock { $0 = reason }
            done.signal()
        }
        guard done.wait(timeout: .now() + timeout) == .success else {
            return trPlural(
                "saving took longer than {count} second", "saving took longer than {count} seconds", Int(timeout))
        }
        return outcome.reason.withLock { $0 }
    }

    /// In the background: the state's lock is held to take the request and to record what was written,
    /// never while the file is written, so `save` never waits for the disk.
    private func writePending() -> String? {
        writing.withLock { encoder in writePendingAlone(encoder: &encoder, scheduled: false) }
    }

    private func takeInChangesAlone(encoder: inout StateEncoder) -> String? {
        readLaunchAlone()
        // A save waiting for its turn keeps it when nothing came in: this copy's own write, seen by the folder's
        // watcher, brings it here too. One that failed and waits for nothing is tried again.
        let (pending, scheduled) = state.withLock { ($0.pending != nil, $0.scheduled) }
        if pending && !scheduled { return writePendingAlone(encoder: &encoder, scheduled: false) }
        let copies = store.conflictCopies()
        guard !copies.isEmpty || store.revision() != state.withLock({ $0.diskRevision }) else { return nil }
        let base = state.withLock { $0.base }
        state.withLock { state in
            if state.pending == nil { state.pending = base }
        }
        return writePendingAlone(encoder: &encoder, scheduled: false)
    }

    /// Writes what is pending; `scheduled` when this is the write a save scheduled (a flush or a change in the folder
    /// writes at once, and a scheduled write already on its way finds nothing or what came after).
    private func writePendingAlone(encoder: inout StateEncoder, scheduled: Bool) -> String? {
        readLaunchAlone()
        let start = takePending(scheduled: scheduled)
        var stateWrite: WriteTime?
        defer { finishWrite(stateWrite) }
        guard let pending = start.pending.map(Lineage.withoutLineage) else { return nil }
        do {
            // Two copies saving at once take turns: the check, the merge and the rename are one step.
            let folderLock = try store.lockFolder()
            defer { folderLock.unlock() }
            let file: FileNow
            switch checkFile(since: start, keeping: pending) {
            case .found(let found): file = found
            case .held(let reason): return reason
            }
            state.withLock { $0.waitingSince = nil }
            var merge = merged(pending, with: file, since: start)
            mergeConflictCopies(into: &merge, base: start.base)
            let written = try write(&merge, unlessFileHolds: file.holds, encoder: &encoder)
            stateWrite = written.time
            for copy in merge.copies { unlink(copy.path) }
            state.withLock { state in
                state.diskRevision = written.revision
                state.onDisk = merge.state
                state.base = pending
                state.history = merge.history
            }
            if (file.changedElsewhere || !merge.copies.isEmpty) && merge.state != pending {
                onMerged(merge.state, pending)
            }
            if !merge.copies.isEmpty { onConflictCopiesMerged(merge.copies.count) }
            return nil
        } catch {
            keepPending(pending)
            onError("\(error)")
            return "\(error)"
        }
    }

    /// What a write starts from: the state asked for, and what this copy knows of the file.
    private struct WriteStart {
        var pending: GalleryState?
        var base: GalleryState
        var onDisk: GalleryState
        var diskRevision: StateStore.Revision?
        var history: Lineage.History
    }

    /// When a state's write began and the processor time it took: what sets the saver's next turn.
    private typealias WriteTime = (start: ContinuousClock.Instant, cost: Duration)

    /// Takes what is pending as a write begins; saves asked for from now on wait for the turn it sets.
    private func takePending(scheduled: Bool) -> WriteStart {
        state.withLock { state in
            let start = WriteStart(
                pending: state.pending, base: state.base, onDisk: state.onDisk, diskRevision: state.diskRevision,
                history: state.history)
            state.pending = nil
            if scheduled { state.scheduled = false }
            state.writingNow = true
            state.askedWhileWriting = false
            return start
        }
    }

    /// The file as a write finds it, as far as this copy can tell.
    private struct FileNow {
        /// What it holds: what this copy last wrote or read, unless another writer changed it since.
        var state: GalleryState
        var lineage: Lineage?
        var changedElsewhere = false
        /// What the file holds now, as far as this copy can tell; nil when it is gone or was moved aside.
        var holds: GalleryState?
    }

    /// Whether a write may go on, and over what.
    private enum FileCheck {
        case found(FileNow)
        /// The file is being written elsewhere, or by a newer version: the state asked for stays pending.
        case held(reason: String)
    }

    /// Reads the file again when its revision is not the one this copy last wrote or read.
    private func checkFile(since start: WriteStart, keeping pending: GalleryState) -> FileCheck {
        var file = FileNow(state: start.onDisk, holds: start.onDisk)
        guard store.revision() != start.diskRevision else { return .found(file) }
        switch store.read() {
        case .loaded(let current):
            (file.state, file.lineage) = Lineage.split(current)
            file.holds = file.state
            file.changedElsewhere = true
        case .missing where start.diskRevision != nil, .invalid:
            if let reason = wait(keeping: pending) { return .held(reason: reason) }
            _ = store.load()  // still unusable after the wait: moved aside, kept, and replaced
            file.holds = nil
        case .newer(let version):
            keepPending(pending)
            let reason = tr(
                "it was written by a newer version (format {format}); your changes are kept in this window but not saved",
                ["format": String(version)])
            onError(reason)
            return .held(reason: reason)
        case .missing, .failed, .tooLarge:
            _ = store.load()  // moved aside when unreadable: nothing of theirs to keep
            file.holds = nil
        }
        return .found(file)
    }

    /// A state on its way to the file, and the lineages and history it is merged with.
    private struct Merge {
        var state: GalleryState
        var takenIn: [Lineage]
        var history: Lineage.History
        /// The conflict copies merged in: removed once the state is written.
        var copies: [URL] = []
    }

    /// This copy's edits, and what another writer put in the file since this copy last knew it.
    private func merged(_ pending: GalleryState, with file: FileNow, since start: WriteStart) -> Merge {
        // What the file would hold had nobody else written it: this copy's edits on what it last
        // knew of the file (they differ after a merge, until the window takes it in).
        let ourFile =
            start.onDisk == start.base
            ? pending : GalleryState.merged(base: start.base, theirs: start.onDisk, ours: pending)
        var merge = Merge(state: ourFile, takenIn: start.history.recentLineages, history: start.history)
        guard file.changedElsewhere else { return merge }
        // Against the newest state both this copy and the file's writer had (a sync tool may have put
        // their file over this copy's last write without a conflict copy): what they never saw is
        // not taken for deleted.
        let common = merge.history.newest(commonTo: [file.lineage]) ?? start.onDisk
        merge.state = GalleryState.merged(base: common, theirs: file.state, ours: ourFile)
        if let lineage = file.lineage {
            merge.takenIn.append(lineage)
            rememberRead(lineage.stamped(file.state))
        }
        merge.history.add(file.state, file.lineage)
        return merge
    }

    /// Merges in the conflict copies a sync tool left beside the file.
    private func mergeConflictCopies(into merge: inout Merge, base: GalleryState) {
        for copy in store.conflictCopies() {
            guard let read = StateStore.readCopy(copy) else { continue }  // half written or newer: left for later
            let (copied, copyLineage) = Lineage.split(read)
            // Against the newest state the copy was made from that this copy had too (all of which
            // the file now holds), else the oldest this copy knows.
            let common = merge.history.newest(commonTo: [copyLineage]) ?? merge.history.oldest ?? base
            merge.state = GalleryState.merged(base: common, theirs: copied, ours: merge.state)
            if let copyLineage { merge.takenIn.append(copyLineage) }
            merge.copies.append(copy)
        }
    }

    /// Writes the merged state under a new revision, unless the file holds it already: two computers never echo a
    /// file back and forth. Returns the file's revision, and what the write took when there was one.
    private func write(_ merge: inout Merge, unlessFileHolds fileHolds: GalleryState?, encoder: inout StateEncoder)
        throws -> (revision: StateStore.Revision?, time: WriteTime?)
    {
        guard merge.state != fileHolds else { return (store.revision(), nil) }
        let lineage = Lineage(revision: RandomID.make(), takenIn: merge.takenIn)
        // The state never names bytes that are not on the disk.
        try beforeWrite()
        let (start, startTime) = (clock.now(), clock.threadTime())
        let revision = try store.save(lineage.stamped(merge.state), encoder: &encoder)
        merge.history.add(merge.state, lineage)
        _ = try? lastWrittenStore?.save(lineage.stamped(merge.state), encoder: &encoder)
        return (revision, (start, clock.threadTime() - startTime))
    }

    /// Sets the saver's next turn by what this write took, and schedules the save asked for while it ran.
    private func finishWrite(_ stateWrite: WriteTime?) {
        let now = clock.now()
        let wait: Duration? = state.withLock { state in
            state.writingNow = false
            if let stateWrite { state.pacing.wrote(at: stateWrite.start, cost: stateWrite.cost) }
            guard state.askedWhileWriting, !state.scheduled, state.pending != nil else { return nil }
            state.askedWhileWriting = false
            state.scheduled = true
            return state.pacing.wait(at: now)
        }
        if let wait { scheduleWrite(after: wait) }
    }

    private func keepPending(_ pending: GalleryState) {
        state.withLock { state in
            if state.pending == nil { state.pending = pending }  // tried again by the next save or flush
        }
    }

    /// The file is missing or half written: another writer (a sync tool) may be at work. The save
    /// waits and tries again, up to `patience`; returns why it waits, or nil when it waited enough.
    private func wait(keeping pending: GalleryState) -> String? {
        let now = Date()
        let since = state.withLock { state in
            if state.waitingSince == nil { state.waitingSince = now }
            return state.waitingSince!
        }
        guard now.timeIntervalSince(since) < patience else {
            state.withLock { $0.waitingSince = nil }
            return nil
        }
        keepPending(pending)
        runInBackground(.seconds(1)) { [self] in
            let schedule = state.withLock { state in
                let wasScheduled = state.scheduled
                state.scheduled = true
                return !wasScheduled
            }
            if schedule { _ = writing.withLock { writePendingAlone(encoder: &$0, scheduled: true) } }
        }
        return tr("the gallery file is being written elsewhere; saving waits for it")
    }
}

/// What a flush found, handed from where it wrote to the thread that waits for it.
private final class FlushOutcome: Sendable {
    let reason = Mutex<String?>(nil)
}
