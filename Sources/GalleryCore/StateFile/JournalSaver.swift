import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Saves the library as the journal holds it (<doc:LibraryJournal>): each save's changes (`LibraryReplica.changes`)
/// are committed and appended to this computer's log as one entry, off the caller's thread and paced (`SavePacing`);
/// a snapshot is written now and then
/// (`SnapshotPolicy`); the other computers' logs are read from where the last reading stopped when the folder changes
/// (`takeInChanges`), and the library they make is handed to `onMerged`.
public final class JournalSaver: Sendable {
    /// When a snapshot is written: once the log appended since the last one reaches `minimumLogBytes`, or a
    /// `snapshotShare`-th of that snapshot's size if more. A launch then replays at most that much log on top of
    /// the snapshot, and writing snapshots costs at most `snapshotShare` bytes per byte of log: the write cost of
    /// an edit stays the size of the edit, and a launch's reading the size of the library, whatever the library.
    /// A snapshot written once this computer's log has passed `newLogBeyond` bytes moves it to a new log first (a new
    /// id), and covers the old one whole, so that the log a launch checks whole stays short, and none reaches
    /// `JournalLogFile.limit`, past which it could no longer be opened.
    public struct SnapshotPolicy: Sendable {
        public var minimumLogBytes: Int
        public var snapshotShare: Int
        public var newLogBeyond: Int

        public init(minimumLogBytes: Int, snapshotShare: Int, newLogBeyond: Int = 16 << 20) {
            self.minimumLogBytes = minimumLogBytes
            self.snapshotShare = snapshotShare
            self.newLogBeyond = newLogBeyond
        }

        /// A mebibyte of log is some four thousand edits, replayed in milliseconds; a quarter of the snapshot keeps
        /// a launch's replay under a quarter of its reading, and the snapshots' writes at four times the log's. A
        /// launch checks its own log whole, a slice at a time: 16 MiB of it is sixteen snapshots of a 10,000-image
        /// library (a mebibyte of log between two), still a short check; a million images' snapshot
        /// (some 570 MB) lets more than that in between, so each of its snapshots moves to a new log.
        public static let standard = SnapshotPolicy(minimumLogBytes: 1 << 20, snapshotShare: 4)

        func isDue(logBytes: Int, lastSnapshotBytes: Int) -> Bool {
            logBytes >= max(minimumLogBytes, lastSnapshotBytes / max(1, snapshotShare))
        }
    }

    /// The name of the file, in this computer's own state folder, that holds its id in the journal.
    public static let computerFileName = "journal-computer"
    /// The file, in this computer's own state folder, of the ids it appended under before its present one, one a line:
    /// their logs are its to remove.
    static let retiredFileName = "journal-retired"
    /// The most old logs one snapshot removes: what a snapshot costs stays a few files, however many are due.
    static let removalsPerSnapshot = 4
    private static let snapshotPrefix = "snapshot-"
    private static let snapshotSuffix = ".json"
    private static let logSuffix = ".log"
    /// Room left in a record for an entry's stamp around its change.
    private static let entryOverhead = 256

    /// What the caller asked for, apart from the journal so that `save` never waits for the disk.
    private struct Requests {
        var pending: GalleryState?
        /// Images that landed since `pending` (or, with none pending, since the state last asked for), in order: put in
        /// here, on the saver's thread, so that the caller's thread does not make its gallery's saved list again.
        var landed: [(galleryID: String, images: [IndexedImage])] = []
        /// The galleries of the state last asked for, else of the library read: those that images can land in here.
        var galleries: Set<String> = []
        var scheduled = false
        var writingNow = false
        var askedWhileWriting = false
        var pacing = SavePacing()

        var hasPending: Bool { pending != nil || !landed.isEmpty }
    }

    /// The journal as this computer holds it; its lock is held while the log is appended to or another is read.
    private struct Journal {
        var replica: LibraryReplica
        /// What `replica` shows: the library before the next save's edit.
        var saved: GalleryState
        /// The last state the caller asked to save: after a merge, until the caller's saves take it in, their edits
        /// are the changes from it.
        var base: GalleryState
        var computer: String
        var log: JournalLogFile
        /// For each log, the offset just past the last entry taken in, and its size when read.
        var offsets: [String: Int]
        var sizes: [String: Int] = [:]
        var logBytesSinceSnapshot = 0
        var lastSnapshotBytes = 0
        /// The launch read no snapshot and replayed every log: the first save's snapshot spares the next launch that.
        var snapshotOwed = false
        var snapshotScheduled = false
        /// The snapshot's sections the launch left for after its first screen; nil once they are in.
        var rest: Rest?
        /// The ids this computer appended under before it moved to a new log (kept in its state folder): their
        /// snapshots go at its next snapshot, their logs once every snapshot covers them.
        var retired: [String] = []
        /// The logs and snapshots in the folder when the last reading looked for logs removed: a log gone, or a
        /// snapshot changed, is when a reader may find one it had not read whole gone.
        var seen: [String: [Int]] = [:]
    }

    /// What a launch that read the shown gallery first has still to read: the snapshot's other sections.
    private struct Rest: Sendable {
        var file: JournalSnapshotFile
        var sections: [Int]
    }

    /// Whether the rest of the library is in, and who waits for it.
    private struct Whole {
        var isWhole: Bool
        var started = false
        var waiting: [@Sendable (GalleryState) -> Void] = []
    }

    private let folder: LibraryFolder
    private let libraryFolder: LibraryFolder
    private let stateFolder: URL
    private let logLimit: Int
    private let policy: SnapshotPolicy
    private let runInBackground: RunInBackground
    private let clock: SavePacing.Clock
    private let journal: Mutex<Journal>
    private let requests = Mutex(Requests())
    /// Held from taking what is pending until it is in the log: a flush waits for an append already on its way.
    private let writing = Mutex(())
    /// Held while a snapshot is encoded and written: one at a time, never holding the journal.
    private let snapshotWriting = Mutex(())
    private let onError: @Sendable (String) -> Void
    private let onMerged: @Sendable (_ merged: GalleryState, _ ours: GalleryState) -> Void
    private let beforeWrite: @Sendable () throws -> Void
    private let whole: Mutex<Whole>
    /// Left once the rest of the library is in: what needs the whole library (a flush, a state file taken in) waits.
    private let restRead = DispatchGroup()

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

    /// The library as the journal held it when this saver opened it: when the launch left the rest for later
    /// (`readRest`), every gallery, but only the shown one with its images.
    public let loaded: GalleryState

    /// The galleries whose images the launch left for later, with the count of images the snapshot gives each.
    public let unreadCounts: [String: Int]

    /// This computer's id in the journal: its log is `journal/<computer>.log`.
    public var computer: String { journal.withLock { $0.computer } }

    /// Opens the journal of the library in `library` (blocking: the launch's reading): the newest snapshot read
    /// whole, then every log from the offset it covers.
    /// - Parameters:
    ///   - stateFolder: this computer's own folder, never synced: it keeps this computer's id.
    ///   - carryingOver: the library's older `state.json` (the first launch of the journal, or one killed before its
    ///     first snapshot), under stamps every edit's win over: taking it in again changes nothing.
    ///   - onMerged: other computers' entries were taken in; `merged` holds them on top of `ours`, the last state
    ///     asked to save. Called where the reading runs.
    ///   - beforeWrite: called before each append; when it throws, the save fails as a failed append does.
    ///   - restLaterBeyond: when the newest snapshot's sections but the shown gallery's hold more than this many
    ///     bytes, only the shown gallery's is read now (the others are in `loaded` without their images), the rest
    ///     by `readRest`.
    ///   - logLimit: the most of a log read at once (`JournalLogFile.limit`; smaller in tests).
    public init(
        library: LibraryFolder, stateFolder: URL, carryingOver: GalleryState? = nil,
        restLaterBeyond: Int? = nil, policy: SnapshotPolicy = .standard, logLimit: Int = JournalLogFile.limit,
        runInBackground: @escaping RunInBackground = onThreadOfItsOwn,
        clock: SavePacing.Clock = .system,
        onError: @escaping @Sendable (String) -> Void,
        onMerged: @escaping @Sendable (_ merged: GalleryState, _ ours: GalleryState) -> Void = { _, _ in },
        beforeWrite: @escaping @Sendable () throws -> Void = {}
    ) throws(JournalLogFile.Failure) {
        self.libraryFolder = library
        self.stateFolder = stateFolder
        self.logLimit = logLimit
        self.policy = policy
        self.runInBackground = runInBackground
        self.clock = clock
        self.onError = onError
        self.onMerged = onMerged
        self.beforeWrite = beforeWrite
        do throws(FileError) {
            folder = try library.folder(JournalLogFile.folderName, creating: true)
        } catch {
            throw .failed(error)
        }
        var replica = LibraryReplica()
        var offsets: [String: Int] = [:]
        let journalFolder = folder
        var shownFirst =
            carryingOver == nil
            ? restLaterBeyond.flatMap { Self.readingShownFirst(in: journalFolder, beyond: $0) } : nil
        var snapshot =
            shownFirst.map { (snapshot: $0.contents.snapshot, size: $0.rest.file.size) }
            ?? Self.newestSnapshot(in: folder)
        if let read = snapshot {
            replica = read.snapshot.replica
            offsets = read.snapshot.covers
            // Moved out of what was read, so that the edits applied below change the table in place, not a copy of it.
            snapshot?.snapshot.replica = LibraryReplica()
            shownFirst?.contents.snapshot.replica = LibraryReplica()
        }
        var computer = try Self.computer(in: stateFolder)
        let opened: (file: JournalLogFile, read: JournalLog.Read)
        // The live log is never one of them: a kill after the list was kept and before the new id was leaves it there.
        var retired = Self.retiredComputers(in: stateFolder).filter { $0 != computer }
        var movedNow = false
        do throws(JournalLogFile.Failure) {
            opened = try JournalLogFile.open(
                in: library, computer: computer, covered: offsets[computer] ?? 0, limit: logLimit)
        } catch .damaged, .tooLarge {
            // Its readers keep what it holds (this launch too, below, as another computer's log); this computer goes
            // on in a log of its own.
            retired.append(computer)
            try Self.keepRetired(retired, in: stateFolder)
            movedNow = true
            computer = try Self.makeComputer(in: stateFolder)
            opened = try JournalLogFile.open(in: library, computer: computer, limit: logLimit)
        }
        // Its values lose to every edit's (`LibraryReplica(carryingOver:)`): taken in again, it changes nothing.
        if let carryingOver { replica.merge(LibraryReplica(carryingOver: carryingOver, by: computer)) }
        for entry in opened.read.entries { replica.apply(entry) }
        offsets[computer] = opened.read.end
        var sizes: [String: Int] = [:]
        for other in Self.otherLogs(in: folder, besides: computer) {
            guard let read = Self.readLog(other, in: folder, from: offsets[other] ?? 0, limit: logLimit) else {
                continue
            }
            for entry in read.read.entries { replica.apply(entry) }
            offsets[other] = read.read.end
            sizes[other] = read.size
        }
        // A launch reading the shown gallery first looks once the rest is in (`takeInRest`), so that `loaded` holds
        // the shown gallery's images alone.
        let seen =
            shownFirst == nil
            ? Self.takeInRemovedLogs(into: &replica, offsets: &offsets, in: folder, besides: computer) : [:]
        let state = replica.state
        loaded = state
        requests.withLock { $0.galleries = Set(state.galleries.map(\.id)) }
        var unread: [String: Int] = [:]
        if let shownFirst {
            for index in shownFirst.rest.sections {
                guard let gallery = shownFirst.contents.sections[index].gallery else { continue }
                unread[gallery, default: 0] += shownFirst.contents.sections[index].imageCount
            }
        }
        unreadCounts = unread
        var journal = Journal(
            replica: replica, saved: state, base: state, computer: computer, log: opened.file, offsets: offsets,
            sizes: sizes)
        journal.rest = shownFirst?.rest
        whole = Mutex(Whole(isWhole: shownFirst == nil))
        journal.lastSnapshotBytes = snapshot?.size ?? 0
        // A log left behind is read past its snapshot at each launch until a snapshot covers what was read of it.
        journal.snapshotOwed = snapshot == nil || movedNow
        journal.retired = retired
        journal.seen = seen
        journal.logBytesSinceSnapshot = max(0, opened.read.end - (snapshot?.snapshot.covers[computer] ?? 0))
        self.journal = Mutex(journal)
        if shownFirst != nil { restRead.enter() }
    }

    // MARK: Saving

    /// Saves `newState` off the caller's thread: at once after a quiet spell, else when the saver's turn comes
    /// (`SavePacing`), the newest state asked for by then.
    public func save(_ newState: GalleryState) {
        let galleries = Set(newState.galleries.map(\.id))
        request { requests in
            requests.pending = newState
            requests.landed = []
            requests.galleries = galleries
        }
    }

    /// Saves images that landed in a gallery (each at its index among the gallery's images once those before it in
    /// `images` are in), the library otherwise as last asked for: the caller hands on what landed, not the library.
    /// False, and nothing asked, when that library has no such gallery (a first launch's gallery, made and not yet
    /// saved): the caller saves the whole library instead.
    @discardableResult
    public func save(landed images: [IndexedImage], in galleryID: String) -> Bool {
        var isKnown = false
        request { requests in
            isKnown = requests.galleries.contains(galleryID)
            if isKnown { requests.landed.append((galleryID, images)) }
        }
        return isKnown
    }

    private func request(_ asking: (inout Requests) -> Void) {
        let now = clock.now()
        let wait: Duration? = requests.withLock { requests in
            asking(&requests)
            if requests.writingNow { requests.askedWhileWriting = true }
            guard !requests.scheduled && !requests.writingNow else { return nil }
            requests.scheduled = true
            return requests.pacing.wait(at: now)
        }
        if let wait { scheduleWrite(after: wait) }
    }

    private func scheduleWrite(after wait: Duration) {
        runInBackground(wait) { [self] in _ = writePending(scheduled: true) }
    }

    /// Blocks until everything asked for is in the log, appended at once whatever the pacing; at most `timeout`
    /// seconds; returns why it is not, if it is not.
    public func flush(timeout: Double = 10) -> String? {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<String?>(nil)
        runInBackground(.zero) { [self] in
            let reason = writePending(scheduled: false)
            outcome.withLock { $0 = reason }
            done.signal()
        }
        guard done.wait(timeout: .now() + timeout) == .success else {
            return trPlural(
                "saving took longer than {count} second", "saving took longer than {count} seconds", Int(timeout))
        }
        return outcome.withLock { $0 }
    }

    /// Commits and appends what is pending; returns why it is not in the log, if it is not.
    private func writePending(scheduled: Bool) -> String? {
        // Edits made on the shown gallery alone are written once the rest is in: their changes are found against it.
        if !scheduled { awaitWhole() }
        return writing.withLock { _ in writePendingAlone(scheduled: scheduled) }
    }

    private func writePendingAlone(scheduled: Bool) -> String? {
        if scheduled && !whole.withLock({ $0.isWhole }) {
            // Kept pending: the rest's arrival writes it.
            requests.withLock { $0.scheduled = false }
            return nil
        }
        let (asked, landed) = requests.withLock { requests in
            defer { (requests.pending, requests.landed) = (nil, []) }
            if scheduled { requests.scheduled = false }
            requests.writingNow = true
            requests.askedWhileWriting = false
            return (requests.pending, requests.landed)
        }
        var time: (start: ContinuousClock.Instant, cost: Duration)?
        defer { finishWrite(time) }
        guard asked != nil || !landed.isEmpty else { return nil }
        let (start, startTime) = (clock.now(), clock.threadTime())
        let (pending, outcome) = journal.withLock { journal in
            let pending = Self.putting(landed, in: asked ?? journal.base)
            return (pending, append(pending, to: &journal))
        }
        time = (start, clock.threadTime() - startTime)
        switch outcome {
        case .appended(let snapshotDue):
            if snapshotDue { scheduleSnapshot() }
            return nil
        case .failed(let reason):
            requests.withLock { requests in
                if requests.pending == nil { requests.pending = pending }  // tried again by the next save or flush
            }
            onError(reason)
            return reason
        }
    }

    /// `state` with the images that landed since put in, each at its index.
    private static func putting(_ landed: [(galleryID: String, images: [IndexedImage])], in state: GalleryState)
        -> GalleryState
    {
        var state = state
        for (galleryID, images) in landed {
            guard let gallery = state.galleries.firstIndex(where: { $0.id == galleryID }) else { continue }
            for image in images {
                state.galleries[gallery].images.insert(
                    image.image, at: min(image.index, state.galleries[gallery].images.count))
            }
        }
        return state
    }

    private enum AppendOutcome {
        case appended(snapshotDue: Bool)
        case failed(reason: String)
    }

    /// Under the journal's lock: `new`'s changes, committed and appended.
    private func append(_ new: GalleryState, to journal: inout Journal) -> AppendOutcome {
        let outstandingMerge = journal.base != journal.saved
        // A caller that took a merge in saves it back whole: nothing of its own to write.
        if outstandingMerge && new == journal.saved {
            journal.base = new
            return .appended(snapshotDue: false)
        }
        var changes = journal.replica.changes(
            from: outstandingMerge ? Self.before(new, base: journal.base, saved: journal.saved) : journal.saved, to: new
        )
        if outstandingMerge {
            // Edits on `ours` carry the merge taken in since: only what is the caller's own is written.
            changes.removeAll { journal.replica.holds($0) }
        }
        let fitting = changes.filter {
            JournalEntry.encodedSize(of: $0) + Self.entryOverhead <= JournalRecord.entryLimit
        }
        let refused = fitting.count < changes.count
        changes = fitting
        // Taken in once written, in place: a copy of the replica to fall back on would cost the library, not the edit.
        let entries = journal.replica.entries(committing: changes, by: journal.computer)
        if !entries.isEmpty {
            do {
                try append(entries, to: &journal)
            } catch {
                return .failed(reason: "\(error)")
            }
        }
        var touched: Set<String>? = []
        var named = Set<ImageID>()
        for entry in entries { journal.replica.apply(entry, touched: &touched, named: &named) }
        journal.base = new
        if outstandingMerge || refused {
            // Made from the library before the edit, as the replica held it: the edit's galleries made again.
            journal.saved =
                touched.flatMap { journal.replica.state(updating: journal.saved, touched: $0, named: named) }
                ?? journal.replica.state
        } else {
            journal.saved = new
        }
        if refused {
            onError(tr("a change is larger than 8 MiB and is not saved; it stays in this window until you close it"))
        }
        if outstandingMerge && journal.saved != new { onMerged(journal.saved, new) }
        let due =
            !journal.snapshotScheduled
            && (journal.snapshotOwed
                || policy.isDue(logBytes: journal.logBytesSinceSnapshot, lastSnapshotBytes: journal.lastSnapshotBytes))
        if due { journal.snapshotScheduled = true }
        return .appended(snapshotDue: due)
    }

    /// What `new` is found against while a merge is outstanding: `base`, the library last asked to save, but for each
    /// gallery `new` holds as the journal does (the merge taken in, no edit of the caller's), which is the journal's.
    /// A place is never found held, so such a gallery found against `base` would have every image placed again: the rest
    /// of a library read shown gallery first, saved back together with the edit after it, placed a million images.
    private static func before(_ new: GalleryState, base: GalleryState, saved: GalleryState) -> GalleryState {
        let asSaved = Dictionary(saved.galleries.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let asNew = Dictionary(new.galleries.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var before = base
        for index in before.galleries.indices {
            let id = before.galleries[index].id
            if let held = asSaved[id], asNew[id] == held { before.galleries[index] = held }
        }
        return before
    }

    /// Sets the saver's next turn by what this append took, and schedules the save asked for while it ran.
    private func finishWrite(_ time: (start: ContinuousClock.Instant, cost: Duration)?) {
        let now = clock.now()
        let wait: Duration? = requests.withLock { requests in
            requests.writingNow = false
            if let time { requests.pacing.wrote(at: time.start, cost: time.cost) }
            guard requests.askedWhileWriting, !requests.scheduled, requests.hasPending else { return nil }
            requests.askedWhileWriting = false
            requests.scheduled = true
            return requests.pacing.wait(at: now)
        }
        if let wait { scheduleWrite(after: wait) }
    }

    /// Takes in a whole library (a `state.json` put in the folder, a library moved here) as this computer's edits,
    /// stamped now: merged with the journal's three-way against `base` (the file taken in before), or, with none, with
    /// nothing either counts as deleted (`GalleryState.merged(theirs:ours:)`); its changes appended to the log,
    /// flushed; blocking. `asItIs` (the data folder, which no sync tool shares: a backup put back by hand) makes the
    /// library the file's, deletions and all. When `adopting` (the launch, before anyone holds the
    /// library), the merge becomes the caller's; otherwise it goes to `onMerged`. Returns why it is not in the log.
    @discardableResult
    public func takeIn(library: GalleryState, base: GalleryState? = nil, asItIs: Bool = false, adopting: Bool)
        -> String?
    {
        if let reason = writePending(scheduled: false) { return reason }
        let outcome: (reason: String?, merged: (GalleryState, GalleryState)?) = journal.withLock { journal in
            let merged =
                asItIs
                ? library
                : base.map { GalleryState.merged(base: $0, theirs: library, ours: journal.saved) }
                    ?? GalleryState.merged(theirs: library, ours: journal.saved)
            let entries = journal.replica.entries(
                committing: journal.replica.changes(from: journal.saved, to: merged), by: journal.computer)
            guard !entries.isEmpty else { return (nil, nil) }
            do {
                try append(entries, to: &journal)
            } catch {
                return ("\(error)", nil)
            }
            for entry in entries { journal.replica.apply(entry) }
            journal.saved = journal.replica.state
            if adopting { journal.base = journal.saved }
            return (nil, journal.saved != journal.base ? (journal.saved, journal.base) : nil)
        }
        if let reason = outcome.reason {
            onError(reason)
            return reason
        }
        if let (merged, ours) = outcome.merged { onMerged(merged, ours) }
        return nil
    }

    /// The library as the journal holds it now: what a launch shows once `takeIn(library:adopting:)` has run.
    public var library: GalleryState { journal.withLock { $0.saved } }

    /// Appends `entries` to this computer's log, once the originals they name are durable (`beforeWrite`) and while the
    /// journal's folder is still the library's.
    private func append(_ entries: [JournalEntry], to journal: inout Journal) throws {
        try beforeWrite()
        try checkLibraryFolder()
        let end = try journal.log.append(entries)
        journal.logBytesSinceSnapshot += end - (journal.offsets[journal.computer] ?? 0)
        journal.offsets[journal.computer] = end
    }

    /// Why the journal's folder is no longer the library's (moved away, a file put in its place): an append there
    /// would count as saved where no launch reads it.
    struct FolderGone: Error, CustomStringConvertible {
        let description: String
    }

    private func checkLibraryFolder() throws(FolderGone) {
        let library = folder.url.deletingLastPathComponent()
        var atPath = stat()
        guard stat(folder.url.path, &atPath) == 0, atPath.st_mode & S_IFMT == S_IFDIR,
            let opened = folder.ownStatus(), opened.st_dev == atPath.st_dev, opened.st_ino == atPath.st_ino
        else {
            throw FolderGone(description: tr("{path} is not a folder", ["path": library.path]))
        }
    }

    // MARK: The rest of the library

    /// Whether the whole library is in: false from a launch that read its shown gallery first until `readRest` is done.
    public var isWhole: Bool { whole.withLock { $0.isWhole } }

    /// Hands the whole library to `work` once the rest is in (after `onMerged` has it), where the reading runs; at
    /// once when it is in already. Reading it is `readRest`'s.
    public func whenWhole(_ work: @escaping @Sendable (_ whole: GalleryState) -> Void) {
        let now = whole.withLock { whole in
            if !whole.isWhole { whole.waiting.append(work) }
            return whole.isWhole
        }
        if now { work(library) }
    }

    /// Reads the snapshot's sections the launch left for later, on a thread of its own, takes them in, and hands the
    /// whole library to `onMerged` (the edits held until then written on top), then to those `whenWhole` names.
    public func readRest() {
        let starts = whole.withLock { whole in
            defer { whole.started = true }
            return !whole.isWhole && !whole.started
        }
        if starts { Thread.detachNewThread { [self] in takeInRest() } }
    }

    /// Blocks until the rest is in.
    private func awaitWhole() {
        guard !isWhole else { return }
        readRest()
        restRead.wait()
    }

    private func takeInRest() {
        guard let rest = journal.withLock({ $0.rest }) else { return }
        var contents = rest.file.contents
        contents.snapshot.replica = LibraryReplica()
        let isRead = rest.file.read(sections: rest.sections, into: &contents)
        // Moved out of what was read, so that merging the journal's replica in changes the table in place.
        var replica = contents.snapshot.replica
        contents.snapshot.replica = LibraryReplica()
        if !isRead {
            // What was read of it stays (each register whole and checked); the rest comes from the other files.
            replica.merge(Self.replicaWithout(snapshot: rest.file.name, in: folder))
        }
        let waiting = writing.withLock { _ in
            let merged: (GalleryState, GalleryState)? = journal.withLock { journal in
                // The larger replica takes the smaller in: taking in is the same in either order.
                replica.merge(journal.replica)
                journal.replica = replica
                journal.seen = Self.takeInRemovedLogs(
                    into: &journal.replica, offsets: &journal.offsets, in: folder, besides: journal.computer)
                journal.rest = nil
                journal.saved = journal.replica.state
                return journal.saved != journal.base ? (journal.saved, journal.base) : nil
            }
            let waiting = whole.withLock { whole in
                whole.isWhole = true
                defer { whole.waiting = [] }
                return whole.waiting
            }
            if requests.withLock({ $0.hasPending }) {
                // Its changes are found against the library the window showed, and its merge goes to `onMerged`.
                _ = writePendingAlone(scheduled: false)
            } else if let merged {
                onMerged(merged.0, merged.1)
            }
            return waiting
        }
        restRead.leave()
        let library = library
        for work in waiting { work(library) }
        takeInOtherLogs()
    }

    // MARK: Snapshots

    private func scheduleSnapshot() {
        runInBackground(.zero) { [self] in writeSnapshot() }
    }

    /// Writes a snapshot when this computer's log has grown past the policy's point since the last one and none is on
    /// its way: a launch finding the journal so (the app ended before its snapshot was written) would otherwise replay
    /// that log at every launch until the next edit. Only once the library is whole: a snapshot holds all of it.
    public func snapshotIfDue() {
        let due = journal.withLock { journal in
            guard journal.rest == nil, !journal.snapshotScheduled, journal.logBytesSinceSnapshot > 0,
                policy.isDue(logBytes: journal.logBytesSinceSnapshot, lastSnapshotBytes: journal.lastSnapshotBytes)
            else { return false }
            journal.snapshotScheduled = true
            return true
        }
        if due { scheduleSnapshot() }
    }

    /// Writes the library as the journal holds it now as this computer's snapshot, whole (temporary file, fsync,
    /// rename): encoded outside the journal's lock, so that saves go on meanwhile. A log past the policy's
    /// `newLogBeyond` is left first for a new one, so that the snapshot covers it whole; once the snapshot is written,
    /// those of the ids left behind are removed (it holds all they held), and their logs once no reader needs them
    /// (`removeCoveredLogs`).
    private func writeSnapshot() {
        snapshotWriting.withLock { _ in
            let (snapshot, computer, appended, retired) = journal.withLock { journal in
                if journal.offsets[journal.computer] ?? 0 >= policy.newLogBeyond { moveToNewLog(&journal) }
                return (
                    JournalSnapshot(replica: journal.replica, covers: journal.offsets), journal.computer,
                    journal.logBytesSinceSnapshot, journal.retired
                )
            }
            let bytes = snapshot.encoded
            do throws(FileError) {
                try Self.snapshotWriter.write(
                    Data(bytes), named: Self.snapshotPrefix + computer + Self.snapshotSuffix, in: folder,
                    policy: .replace)
                journal.withLock { journal in
                    journal.snapshotScheduled = false
                    journal.lastSnapshotBytes = bytes.count
                    journal.snapshotOwed = false
                    journal.logBytesSinceSnapshot -= appended
                }
                for id in retired where id != computer {
                    _ = folder.remove(Self.snapshotPrefix + id + Self.snapshotSuffix)
                }
                let gone = removeCoveredLogs(of: retired.filter { $0 != computer }, covers: snapshot.covers)
                guard !gone.isEmpty else { return }
                let left = journal.withLock { journal in
                    journal.retired.removeAll { gone.contains($0) }
                    return journal.retired
                }
                // Not kept, the list still names them: a launch finds their logs gone, and drops them then.
                try? Self.keepRetired(left, in: stateFolder)
            } catch {
                journal.withLock { $0.snapshotScheduled = false }
                onError("\(error)")
            }
        }
    }

    /// Under the journal's lock: this computer goes on under a new id, in a new log, and leaves the old one to its
    /// readers. The id is kept first, so that a kill at any point appends to one log only: the old one until the id
    /// is replaced, the new one after. When the new log cannot be made, this run goes on in the old log, and the
    /// next launch in the new one.
    private func moveToNewLog(_ journal: inout Journal) {
        do throws(JournalLogFile.Failure) {
            // Kept before the new id is, so that a kill between the two leaves no log of this computer's unknown.
            try Self.keepRetired(journal.retired + [journal.computer], in: stateFolder)
            let computer = try Self.makeComputer(in: stateFolder)
            let opened = try JournalLogFile.open(in: libraryFolder, computer: computer, limit: logLimit)
            journal.retired.append(journal.computer)
            journal.sizes[journal.computer] = journal.offsets[journal.computer]
            journal.computer = computer
            journal.log = opened.file
            journal.offsets[computer] = opened.read.end
        } catch {
            onError("\(error)")
        }
    }

    private static let snapshotWriter = FileWriter(
        durability: .flushed, mode: .new(0o600), temporaryName: .hiddenTmp)

    // MARK: Removing old logs

    /// Removes the logs of `ids` (this computer's, left behind) that no reader needs any more, at most
    /// `removalsPerSnapshot` of them: nothing past what `covers` (the snapshot just written) covers of it reads, and
    /// every snapshot in the folder covers as much. A launch reads a snapshot and each log past it, so no launch needs
    /// such a log; a reader that had not read it so far takes in a snapshot that covers it (`takeInRemovedLogs`).
    /// Returns the ids whose logs are gone.
    private func removeCoveredLogs(of ids: [String], covers: [String: Int]) -> [String] {
        var tables: [[String: Int]?]?
        var gone: [String] = []
        var removed = 0
        for id in ids {
            let name = id + Self.logSuffix
            guard let status = folder.status(of: name) else {
                gone.append(id)
                continue
            }
            guard removed < Self.removalsPerSnapshot, status.st_mode & S_IFMT == S_IFREG, let covered = covers[id],
                covered >= Int(status.st_size) || !Self.readsPast(covered, log: id, in: folder)
            else { continue }
            if tables == nil { tables = Self.snapshotsCovers(in: folder) }
            guard tables?.allSatisfy({ $0.map { ($0[id] ?? 0) >= covered } ?? false }) == true,
                folder.remove(name)
            else { continue }
            gone.append(id)
            removed += 1
        }
        return gone
    }

    /// Whether a whole record follows `offset` in `computer`'s log (a damaged log's readers stop before the damage):
    /// one record's length of it read at most.
    private static func readsPast(_ offset: Int, log computer: String, in folder: LibraryFolder) -> Bool {
        guard let descriptor = try? folder.openFile(computer + logSuffix, flags: O_RDONLY | O_NONBLOCK) else {
            return true
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return true }
        let end = min(Int(status.st_size), offset + JournalRecord.headerLength + JournalRecord.entryLimit + 1)
        guard let read = JournalLogFile.read(descriptor, from: offset, to: end, covered: end) else { return true }
        return read.end > offset
    }

    /// How far each snapshot in `folder` covers each log, newest first; nil for one whose table does not read.
    private static func snapshotsCovers(in folder: LibraryFolder) -> [[String: Int]?] {
        snapshotsByAge(in: folder).map { JournalSnapshotFile(named: $0, in: folder)?.contents.snapshot.covers }
    }

    /// Takes into `replica` each snapshot in `folder` that covers a log no longer there further than `offsets` say
    /// `replica` holds, and raises `offsets` (but `computer`'s) to what it covers: that log's computer removed it once
    /// every snapshot covered it, so what a reader had not read of it (a running reader when it went, one whose
    /// snapshot came after it went) is in such a snapshot. Returns the logs and snapshots it found (`Journal.seen`).
    @discardableResult
    private static func takeInRemovedLogs(
        into replica: inout LibraryReplica, offsets: inout [String: Int], in folder: LibraryFolder,
        besides computer: String
    ) -> [String: [Int]] {
        let seen = seenFiles(in: folder)
        for name in snapshotsByAge(in: folder) {
            guard let file = JournalSnapshotFile(named: name, in: folder),
                file.contents.snapshot.covers.contains(where: { log, covered in
                    seen[log + logSuffix] == nil && covered > offsets[log] ?? 0
                })
            else { continue }
            var contents = file.contents
            guard file.read(sections: contents.sections.indices, into: &contents) else { continue }
            replica.merge(contents.snapshot.replica)
            for (log, covered) in contents.snapshot.covers where log != computer {
                offsets[log] = max(offsets[log] ?? 0, covered)
            }
        }
        return seen
    }

    /// The logs in `folder` (each an empty list) and the snapshots (each its size and time of change).
    private static func seenFiles(in folder: LibraryFolder) -> [String: [Int]] {
        var seen: [String: [Int]] = [:]
        for name in folder.names() {
            if name.hasSuffix(logSuffix) {
                seen[name] = []
            } else if name.hasPrefix(snapshotPrefix) && name.hasSuffix(snapshotSuffix),
                let status = folder.status(of: name)
            {
                seen[name] = [Int(status.st_size), Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec)]
            }
        }
        return seen
    }

    // MARK: Taking in

    /// The folder changed: what is pending is appended first, then every other computer's log is read from where
    /// the last reading stopped (from its start when it got shorter or is damaged there), and the library they make
    /// is handed to `onMerged` when it changed.
    public func takeInChanges() {
        runInBackground(.zero) { [self] in
            // The rest's arrival reads every log again from where the launch stopped.
            guard whole.withLock({ $0.isWhole }) else { return }
            _ = writePending(scheduled: false)
            takeInOtherLogs()
        }
    }

    private func takeInOtherLogs() {
        let merged: (merged: GalleryState, ours: GalleryState)? = journal.withLock { journal in
            var tookIn = false
            // The galleries the entries change the images of (nil: more than images), and the images they name.
            var touched: Set<String>? = []
            var named = Set<ImageID>()
            if Self.seenFiles(in: folder) != journal.seen {
                let offsets = journal.offsets
                journal.seen = Self.takeInRemovedLogs(
                    into: &journal.replica, offsets: &journal.offsets, in: folder, besides: journal.computer)
                if journal.offsets != offsets {
                    tookIn = true
                    touched = nil
                }
            }
            for other in Self.otherLogs(in: folder, besides: journal.computer) {
                let offset = journal.offsets[other] ?? 0
                guard let status = folder.status(of: other + Self.logSuffix),
                    Int(status.st_size) != journal.sizes[other] || Int(status.st_size) < offset,
                    let read = Self.readLog(other, in: folder, from: offset, limit: logLimit)
                else { continue }
                for entry in read.read.entries { journal.replica.apply(entry, touched: &touched, named: &named) }
                tookIn = tookIn || !read.read.entries.isEmpty
                journal.offsets[other] = read.read.end
                journal.sizes[other] = read.size
            }
            guard tookIn else { return nil }
            // From the library last saved when it is the replica's, its other galleries' arrays shared: a comparison of
            // them costs nothing, here and in the window that takes the merge in.
            let state =
                touched.flatMap {
                    journal.base == journal.saved
                        ? journal.replica.state(updating: journal.saved, touched: $0, named: named) : nil
                } ?? journal.replica.state
            guard state != journal.saved else { return nil }
            journal.saved = state
            return (state, journal.base)
        }
        if let merged, merged.merged != merged.ours { onMerged(merged.merged, merged.ours) }
    }

    /// The library the journal in `library` holds (the newest snapshot read whole, then every log from the offset it
    /// covers), read without writing anything: no log is cut back or appended to and no id is made. Nil when the
    /// folder holds no journal; `carryingOver` as the saver takes it in, for `computer` (any id when this computer
    /// has none yet).
    public static func read(library: LibraryFolder, carryingOver: GalleryState?, computer: String) -> GalleryState? {
        guard let folder = try? library.folder(JournalLogFile.folderName) else {
            return carryingOver.map { LibraryReplica(carryingOver: $0, by: computer).state }
        }
        var replica = LibraryReplica()
        var offsets: [String: Int] = [:]
        if let snapshot = newestSnapshot(in: folder) {
            replica = snapshot.snapshot.replica
            offsets = snapshot.snapshot.covers
        }
        if let carryingOver { replica.merge(LibraryReplica(carryingOver: carryingOver, by: computer)) }
        for log in otherLogs(in: folder, besides: "") {
            guard let read = readLog(log, in: folder, from: offsets[log] ?? 0, limit: JournalLogFile.limit) else {
                continue
            }
            for entry in read.read.entries { replica.apply(entry) }
        }
        takeInRemovedLogs(into: &replica, offsets: &offsets, in: folder, besides: "")
        return replica.state
    }

    /// Whether `library`'s journal holds a snapshot (read whole or not): when it does not, the library's `state.json`
    /// is carried over again at each launch.
    public static func hasSnapshot(in library: LibraryFolder) -> Bool {
        guard let folder = try? library.folder(JournalLogFile.folderName) else { return false }
        return folder.names().contains { $0.hasPrefix(snapshotPrefix) && $0.hasSuffix(snapshotSuffix) }
    }

    /// This computer's id, if it has one yet: read, never made.
    public static func existingComputer(in stateFolder: URL) -> String? {
        let path = stateFolder.appendingPathComponent(computerFileName).path
        guard let data = try? FileReader.read(path, limit: 4096),
            let id = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
            JournalStamp.isValidComputer(id)
        else { return nil }
        return id
    }

    // MARK: Reading the folder

    /// The computers whose logs are in `folder`, but `computer`.
    private static func otherLogs(in folder: LibraryFolder, besides computer: String) -> [String] {
        folder.names().compactMap { name in
            guard name.hasSuffix(logSuffix) else { return nil }
            let id = String(name.dropLast(logSuffix.count))
            return id != computer && JournalStamp.isValidComputer(id) ? id : nil
        }.sorted()
    }

    /// `computer`'s log from `offset` on, at most `limit` bytes of it; from its start when it is shorter than
    /// `offset` (replaced) or damaged at `offset`. Offsets in what it returns are the log's.
    private static func readLog(_ computer: String, in folder: LibraryFolder, from offset: Int, limit: Int) -> (
        read: JournalLog.Read, size: Int
    )? {
        guard let descriptor = try? folder.openFile(computer + logSuffix, flags: O_RDONLY | O_NONBLOCK) else {
            return nil
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        let size = Int(status.st_size)
        func read(from start: Int) -> JournalLog.Read? {
            JournalLogFile.read(descriptor, from: start, to: start + min(size - start, limit), covered: start)
        }
        let start = offset <= size ? offset : 0
        guard let found = read(from: start) else { return nil }
        if start > 0 && found.stop == .damaged && found.end == start {
            return read(from: 0).map { ($0, size) }
        }
        return (found, size)
    }

    /// The snapshots in `folder`, newest first.
    private static func snapshotsByAge(in folder: LibraryFolder) -> [String] {
        let names = folder.names().filter { $0.hasPrefix(snapshotPrefix) && $0.hasSuffix(snapshotSuffix) }
        return names.compactMap { name in folder.status(of: name).map { (name, $0.st_mtim) } }
            .sorted { ($0.1.tv_sec, $0.1.tv_nsec) > ($1.1.tv_sec, $1.1.tv_nsec) }.map(\.0)
    }

    /// The newest snapshot in `folder` that reads whole (but `besides`), and its size.
    private static func newestSnapshot(in folder: LibraryFolder, besides: String? = nil) -> (
        snapshot: JournalSnapshot, size: Int
    )? {
        for name in snapshotsByAge(in: folder) where name != besides {
            guard let file = JournalSnapshotFile(named: name, in: folder) else { continue }
            var contents = file.contents
            guard file.read(sections: contents.sections.indices, into: &contents) else { continue }
            return (contents.snapshot, file.size)
        }
        return nil
    }

    /// The newest snapshot's table and its shown gallery's section (the one the state shows, else the first), when
    /// its other sections hold more than `beyond` bytes; nil when it has no such sections or does not read.
    private static func readingShownFirst(in folder: LibraryFolder, beyond: Int) -> (
        contents: JournalSnapshot.Contents, shown: String, rest: Rest
    )? {
        guard let name = snapshotsByAge(in: folder).first, let file = JournalSnapshotFile(named: name, in: folder)
        else { return nil }
        var contents = file.contents
        let galleries = contents.snapshot.replica.state
        guard
            let shown = galleries.galleries.first(where: { $0.id == galleries.shownGalleryID })?.id
                ?? galleries.galleries.first?.id
        else { return nil }
        let first = contents.sections.indices.filter { contents.sections[$0].gallery == shown }
        let rest = contents.sections.indices.filter { contents.sections[$0].gallery != shown }
        guard rest.reduce(0, { $0 + contents.sections[$1].length }) > beyond,
            file.read(sections: first, into: &contents)
        else { return nil }
        return (contents, shown, Rest(file: file, sections: rest))
    }

    /// The library every other snapshot and every log hold, read from their starts: what a launch reads when the
    /// snapshot it began with turns out damaged past its shown gallery.
    private static func replicaWithout(snapshot name: String, in folder: LibraryFolder) -> LibraryReplica {
        var replica = LibraryReplica()
        var offsets: [String: Int] = [:]
        if let other = newestSnapshot(in: folder, besides: name) {
            replica = other.snapshot.replica
            offsets = other.snapshot.covers
        }
        for log in otherLogs(in: folder, besides: "") {
            guard let read = readLog(log, in: folder, from: offsets[log] ?? 0, limit: JournalLogFile.limit) else {
                continue
            }
            for entry in read.read.entries { replica.apply(entry) }
        }
        return replica
    }

    /// This computer's id, kept in its own state folder; made the first time.
    private static func computer(in stateFolder: URL) throws(JournalLogFile.Failure) -> String {
        if let id = existingComputer(in: stateFolder) { return id }
        return try makeComputer(in: stateFolder)
    }

    /// The ids this computer appended under before its present one, as kept in its own state folder.
    private static func retiredComputers(in stateFolder: URL) -> [String] {
        let path = stateFolder.appendingPathComponent(retiredFileName).path
        guard let data = try? FileReader.read(path, limit: 1 << 20), let text = String(data: data, encoding: .utf8)
        else { return [] }
        return text.split(separator: "\n").map(String.init).filter(JournalStamp.isValidComputer)
    }

    /// Keeps `ids` as the ids this computer appended under before its present one (temporary file, fsync, rename).
    private static func keepRetired(_ ids: [String], in stateFolder: URL) throws(JournalLogFile.Failure) {
        do throws(FileError) {
            try FileWriter.makeFolders(stateFolder.path)
            try FileWriter.kept.write(
                Data(ids.map { $0 + "\n" }.joined().utf8),
                to: stateFolder.appendingPathComponent(retiredFileName).path, policy: .replace)
        } catch {
            throw .failed(error)
        }
    }

    /// A new id for this computer, kept in its own state folder.
    private static func makeComputer(in stateFolder: URL) throws(JournalLogFile.Failure) -> String {
        let id = UUID().uuidString.lowercased()
        do throws(FileError) {
            try FileWriter.makeFolders(stateFolder.path)
            try FileWriter.kept.write(
                Data((id + "\n").utf8), to: stateFolder.appendingPathComponent(computerFileName).path,
                policy: .replace)
        } catch {
            throw .failed(error)
        }
        return id
    }
}
