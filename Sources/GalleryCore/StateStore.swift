import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Reads and writes the gallery's JSON state file, the way `g_file_set_contents` does: a temporary
/// file beside the target, fsync, rename over it. A file that cannot be read is moved aside, never
/// overwritten.
public struct StateStore: Sendable {
    public enum LoadResult: Equatable, Sendable {
        case loaded(GalleryState)
        /// No file yet: a first launch.
        case missing
        /// The file could not be used; it was moved to `keptAt` so nothing is lost.
        case unreadable(reason: String, keptAt: URL)
    }

    public struct SaveError: Error, CustomStringConvertible {
        public let description: String
    }

    public let fileURL: URL

    public init(fileURL: URL) { self.fileURL = fileURL }

    /// `$XDG_DATA_HOME/image-gallery/state.json` (or `~/.local/share/...`).
    public static func defaultFileURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        XDGDirectories(environment: environment).dataHome
            .appendingPathComponent("image-gallery", isDirectory: true)
            .appendingPathComponent("state.json")
    }

    public func load(now: Date = Date()) -> LoadResult {
        let data: Data
        do {
            data = try Data(contentsOf: resolvedFileURL)
        } catch {
            if !FileManager.default.fileExists(atPath: fileURL.path) { return .missing }
            return keepAside(
                reason: tr("it could not be opened ({reason})", ["reason": error.localizedDescription]), now: now)
        }
        do {
            let state = try Self.decode(data)
            guard state.version <= GalleryState.currentVersion else {
                return keepAside(
                    reason: tr(
                        "it was written by a newer version (format {format})", ["format": String(state.version)]),
                    now: now)
            }
            return .loaded(state.galleries.isEmpty ? .initial : state)
        } catch {
            return keepAside(reason: tr("it is not a valid gallery file"), now: now)
        }
    }

    private func keepAside(reason: String, now: Date) -> LoadResult {
        let stamp = Int(now.timeIntervalSince1970)
        var target = fileURL.appendingPathExtension("corrupt-\(stamp)")
        var attempt = 1
        while FileManager.default.fileExists(atPath: target.path) {
            target = fileURL.appendingPathExtension("corrupt-\(stamp)-\(attempt)")
            attempt += 1
        }
        guard rename(fileURL.path, target.path) == 0 else {
            // It stays where it is; saving is refused below so it is not overwritten either.
            return .unreadable(reason: reason, keptAt: fileURL)
        }
        return .unreadable(reason: reason, keptAt: target)
    }

    /// Encodes the state stably (fields in name order, pretty) so diffs and tests are readable.
    public static func encode(_ state: GalleryState) -> Data { StateFileFormat.encode(state) }

    /// Reads a state file's bytes; numbers in fields this version does not know keep their text.
    public static func decode(_ data: Data) throws -> GalleryState { try StateFileFormat.decode(data) }

    /// Identifies one version of the file on disk, to notice that someone else wrote it.
    public struct Revision: Equatable, Sendable {
        let device: UInt64
        let inode: UInt64
        let size: Int64
        let modified: Int64
    }

    /// The file the state lives in: a symlinked state.json (dotfile managers) is followed to its
    /// target, so saving replaces the target and keeps the link.
    public var resolvedFileURL: URL {
        var url = fileURL
        for _ in 0..<16 {
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path) else { break }
            url = URL(fileURLWithPath: destination, relativeTo: url.deletingLastPathComponent()).standardizedFileURL
        }
        return url
    }

    /// The version on disk now, nil when there is no file.
    public func revision() -> Revision? {
        var info = stat()
        guard stat(resolvedFileURL.path, &info) == 0 else { return nil }
        return Revision(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }

    /// Temporary files a killed save left beside the file (older than `cutoff`: a save in flight
    /// in another copy of the app lives for milliseconds). Returns how many were removed.
    @discardableResult
    public func removeStaleTemporaryFiles(olderThan cutoff: Date) -> Int {
        let target = resolvedFileURL
        let directory = target.deletingLastPathComponent()
        let prefix = ".\(target.lastPathComponent)."
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var removed = 0
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            let path = directory.appendingPathComponent(name).path
            let modified =
                (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? .distantFuture
            if modified < cutoff, unlink(path) == 0 { removed += 1 }
        }
        return removed
    }

    /// Writes atomically: temporary file beside the target, fsync, rename, fsync the directory. The
    /// file keeps its mode (and owner, where allowed). Returns the revision written.
    @discardableResult
    public func save(_ state: GalleryState) throws -> Revision? {
        var encoder = StateEncoder()
        return try save(state, encoder: &encoder)
    }

    /// Saves as `save(_:)` does, encoding with `encoder`, which reuses the text of images unchanged since its last.
    @discardableResult
    func save(_ state: GalleryState, encoder: inout StateEncoder) throws -> Revision? {
        let data = encoder.encode(state)
        let target = resolvedFileURL
        try Self.makeFolders(target.deletingLastPathComponent())
        do throws(FileError) {
            try Self.writer.write(data, to: target.path, policy: .replace)
        } catch {
            throw SaveError(description: Self.message(error))
        }
        return revision()
    }

    /// The mode the file had (0600, private, for a new one), not what the umask makes of it: a mode
    /// someone gave the file is theirs to keep. Temporary files named as `removeStaleTemporaryFiles` finds them.
    private static let writer = FileWriter(
        durability: .flushed, mode: .keepExisting(orNew: 0o600),
        temporaryName: .hiddenTmp)

    private static func message(_ error: FileError) -> String {
        let words = ["path": error.path ?? "", "reason": error.description]
        return switch error.step {
        case .create, nil: tr("cannot create {path}: {reason}", words)
        case .setMode: tr("cannot set the mode of {path}: {reason}", words)
        case .write: tr("cannot write {path}: {reason}", words)
        case .sync: tr("cannot sync {path}: {reason}", words)
        case .replace: tr("cannot replace {path}: {reason}", words)
        }
    }

    /// An exclusive lock on the state's folder (`.state.json.lock`, flock), held while a copy of the
    /// app checks, merges and replaces the file, so two copies never interleave.
    public func lockFolder() throws -> FolderLock {
        let target = resolvedFileURL
        try Self.makeFolders(target.deletingLastPathComponent())
        let path = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).lock").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw SaveError(description: tr("cannot lock {path}: {reason}", ["path": path, "reason": errnoText()]))
        }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let reason = errnoText()
                close(descriptor)
                throw SaveError(description: tr("cannot lock {path}: {reason}", ["path": path, "reason": reason]))
            }
        }
        return FolderLock(descriptor: descriptor)
    }

    public struct FolderLock: Sendable {
        let descriptor: Int32
        public func unlock() { close(descriptor) }  // closing releases the flock
    }

    /// `mkdir -p` (new folders 0700), with the system's reason when it fails (a file where a folder should be, no space).
    private static func makeFolders(_ directory: URL) throws {
        do throws(FileError) {
            try FileWriter.makeFolders(directory.path)
        } catch {
            throw SaveError(
                description: tr(
                    "cannot create the folder {path}: {reason}",
                    ["path": error.path ?? "", "reason": error.description]))
        }
        var info = stat()
        guard stat(directory.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw SaveError(description: tr("{path} is not a folder", ["path": directory.path]))
        }
    }

    private func errnoText() -> String { FileError(code: errno).description }
}

/// Saves off the caller's thread, one write at a time; when saves pile up only the newest is written.
/// Before each write it checks that the file is still the one it last read or wrote: when another
/// copy of the app (or a sync tool) wrote it meanwhile, both sides' changes are merged, written, and
/// handed to `onMerged`, so neither silently loses the other's edits. A write that fails stays
/// pending: the next save or `flush` tries again.
public final class BackgroundStateSaver: Sendable {
    private struct State {
        /// The newest state asked for and not yet written, and whether a write is on its way.
        var pending: GalleryState?
        var scheduled = false
        /// The last state this copy asked to save, what the file holds (as far as this copy knows)
        /// and its revision. They differ after a merge, until this copy's own state takes the merge
        /// in: every save until then is merged again, so the other copy's changes never leave the
        /// file. Only a write changes them.
        var base: GalleryState
        var onDisk: GalleryState
        var diskRevision: StateStore.Revision?
    }

    private let store: StateStore
    /// Runs a write off the caller's thread (the app's job scheduler).
    private let runInBackground: @Sendable (@escaping @Sendable () -> Void) -> Void
    /// Held while the file is checked, merged and written: one write at a time, in the order asked.
    private let writing = Mutex(StateEncoder())
    private let state: Mutex<State>
    private let onError: @Sendable (String) -> Void
    private let onMerged: @Sendable (_ merged: GalleryState, _ ours: GalleryState) -> Void

    /// - Parameters:
    ///   - loaded: the state as read at launch (what the file held then).
    ///   - runInBackground: runs a write elsewhere; a thread of its own unless told.
    ///   - onMerged: the file had changed on disk; `merged` (written now) holds both sides' changes
    ///     made on top of `ours`. Called where the write runs.
    public init(
        store: StateStore, loaded: GalleryState,
        runInBackground: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { Thread.detachNewThread($0) },
        onError: @escaping @Sendable (String) -> Void,
        onMerged: @escaping @Sendable (_ merged: GalleryState, _ ours: GalleryState) -> Void = { _, _ in }
    ) {
        self.store = store
        self.runInBackground = runInBackground
        self.onError = onError
        self.onMerged = onMerged
        state = Mutex(State(base: loaded, onDisk: loaded, diskRevision: store.revision()))
    }

    public func save(_ newState: GalleryState) {
        let schedule = state.withLock { state in
            state.pending = newState
            let wasScheduled = state.scheduled
            state.scheduled = true
            return !wasScheduled
        }
        guard schedule else { return }
        runInBackground { [self] in _ = writePending() }
    }

    /// Blocks until everything asked for is on disk (at quit), at most `timeout` seconds (a hung
    /// network folder must not hang the quit); returns why it is not, if it is not.
    public func flush(timeout: Double = 10) -> String? {
        let done = DispatchSemaphore(value: 0)
        let outcome = FlushOutcome()
        runInBackground { [self] in
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
        writing.withLock { encoder in writePendingAlone(encoder: &encoder) }
    }

    private func writePendingAlone(encoder: inout StateEncoder) -> String? {
        let (pending, base, onDisk, diskRevision) = state.withLock { state in
            let taken = (state.pending, state.base, state.onDisk, state.diskRevision)
            state.pending = nil
            state.scheduled = false
            return taken
        }
        guard let pending else { return nil }
        do {
            // Two copies saving at once take turns: the check, the merge and the rename are one step.
            let folderLock = try store.lockFolder()
            defer { folderLock.unlock() }
            var theirs = onDisk
            var changedElsewhere = false
            if store.revision() != diskRevision {
                if case .loaded(let current) = store.load() {
                    theirs = current
                    changedElsewhere = true
                } else {
                    theirs = base  // gone or unreadable (moved aside): nothing of theirs to keep
                }
            }
            let written = theirs == base ? pending : GalleryState.merged(base: base, theirs: theirs, ours: pending)
            let revision = try store.save(written, encoder: &encoder)
            state.withLock { state in
                state.diskRevision = revision
                state.onDisk = written
                state.base = pending
            }
            if changedElsewhere && written != pending { onMerged(written, pending) }
            return nil
        } catch {
            state.withLock { state in
                if state.pending == nil { state.pending = pending }  // tried again by the next save or flush
            }
            onError("\(error)")
            return "\(error)"
        }
    }
}

/// What a flush found, handed from where it wrote to the thread that waits for it.
private final class FlushOutcome: Sendable {
    let reason = Mutex<String?>(nil)
}

/// The XDG base directories, with their documented fallbacks.
public struct XDGDirectories: Sendable {
    public let dataHome: URL
    public let cacheHome: URL
    /// For what should outlive a restart but is no document: the window's size.
    public let stateHome: URL

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let home = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory(), isDirectory: true)
        func directory(_ variable: String, fallback: String) -> URL {
            if let value = environment[variable], value.hasPrefix("/") {
                return URL(fileURLWithPath: value, isDirectory: true)
            }
            return home.appendingPathComponent(fallback, isDirectory: true)
        }
        dataHome = directory("XDG_DATA_HOME", fallback: ".local/share")
        cacheHome = directory("XDG_CACHE_HOME", fallback: ".cache")
        stateHome = directory("XDG_STATE_HOME", fallback: ".local/state")
    }
}
