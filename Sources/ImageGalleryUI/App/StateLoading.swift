import Dispatch
import Foundation
import GalleryCore
import GalleryIO
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Opens the library's journal (<doc:LibraryJournal>: its snapshot and logs, with the folder's `state.json` taken in
/// as `StateFileIntake` says) and prepares the library from it, as a job started before GTK is: a large library takes
/// longer to read than GTK takes to start.
final class StateLoading: Sendable {
    let intake: StateFileIntake
    /// What the saver tells, forwarded to the app once it listens: the saver is made before the app is.
    let events = Events()
    private let loaded = Mutex<Loaded?>(nil)
    private let done = DispatchSemaphore(value: 0)

    /// The saver, nil when the journal cannot be written (and why); what the folder's `state.json` held when it was
    /// read; and the library, prepared.
    struct Loaded: Sendable {
        var saver: JournalSaver?
        var saverFailure: String?
        var stateFile: StateStore.LoadResult
        var state: GalleryState
        var prepared: GalleryLibrary.Prepared
    }

    /// Handlers set once the app exists; until then what the saver tells (nothing, before any save) is dropped.
    final class Events: Sendable {
        let onError = Mutex<(@Sendable (String) -> Void)?>(nil)
        let onMerged = Mutex<(@Sendable (GalleryState, GalleryState) -> Void)?>(nil)
        let beforeWrite = Mutex<(@Sendable () throws -> Void)?>(nil)
    }

    init(paths: LibraryPaths, scheduler: JobScheduler) {
        intake = StateFileIntake(paths)
        scheduler.submit(.io, .visible) { [self] in
            let opened = Self.open(paths, intake: intake, events: events, scheduler: scheduler)
            loaded.withLock { $0 = opened }
            done.signal()
        }
    }

    private static func open(
        _ paths: LibraryPaths, intake: StateFileIntake, events: Events, scheduler: JobScheduler
    ) -> Loaded {
        let found = intake.look()
        let finding = found.finding
        let library = try? LibraryFolder.open(paths.libraryFolder, creating: true)
        // The file is carried over the first time, and again while no snapshot holds it (a launch killed before its
        // first snapshot, or no edit since).
        let carries = finding == .first || library.map(JournalSaver.hasSnapshot) != true
        let stateFile = carries || finding == .changed ? intake.store.load() : .missing
        let fileState = stateFile.state
        var saver: JournalSaver?
        var failure: String?
        do {
            guard let library else { throw FileError(code: ENOENT, path: paths.libraryFolder.path) }
            // A state file to merge in needs the whole library before the first screen.
            saver = try JournalSaver(
                library: library, stateFolder: stateFolder(paths), carryingOver: carries ? fileState : nil,
                restLaterBeyond: finding == .changed ? nil : restLaterBeyond,
                runInBackground: { wait, work in scheduler.submit(.io, .visible, after: wait, work) },
                onError: { message in events.onError.withLock { $0 }?(message) },
                onMerged: { merged, ours in events.onMerged.withLock { $0 }?(merged, ours) },
                beforeWrite: { try events.beforeWrite.withLock { $0 }?() })
        } catch {
            failure = "\(error)"
        }
        if let saver, finding == .changed, let fileState {
            saver.takeIn(library: fileState, base: intake.lastTakenIn(), asItIs: intake.takenAsItIs, adopting: true)
        }
        if saver != nil, finding != .known, stateFile.state != nil { intake.remember(found) }
        var state = saver?.library ?? fileState ?? .initial
        if state.galleries.isEmpty { state = .initial }
        return Loaded(
            saver: saver, saverFailure: failure, stateFile: stateFile, state: state,
            prepared: GalleryLibrary.Prepared(
                state, unreadCounts: saver?.isWhole == false ? saver?.unreadCounts ?? [:] : [:]))
    }

    /// A library whose galleries but the shown one hold more than this in the snapshot (some ten thousand images)
    /// shows that gallery first and reads the others after its first screen; a smaller one is read whole at once.
    private static let restLaterBeyond = 4 << 20

    /// The lock this process holds on this computer's id while it appends to its log.
    private static let computerLock = Mutex<Int32?>(nil)

    /// The folder that holds the id this run appends under: this computer's own, unless another copy of the app on
    /// this computer holds it (two appenders to one log would interleave their records and share their stamps), when
    /// this run takes an id of its own for its run, kept in a temporary folder.
    private static func stateFolder(_ paths: LibraryPaths) -> URL {
        let held = computerLock.withLock { held -> Bool in
            if held != nil { return true }
            try? FileWriter.makeFolders(paths.computerState.path)
            let path = paths.computerState.appendingPathComponent(JournalSaver.computerFileName + ".lock").path
            let descriptor = Glibc.open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { return false }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                close(descriptor)
                return false
            }
            held = descriptor
            return true
        }
        return held
            ? paths.computerState
            : FileManager.default.temporaryDirectory.appendingPathComponent("image-gallery-\(UUID().uuidString)")
    }

    /// Waits for the reading (on a launch, the time GTK took to start was the head start).
    func result() -> Loaded {
        done.wait()
        done.signal()
        return loaded.withLock { $0! }
    }
}
