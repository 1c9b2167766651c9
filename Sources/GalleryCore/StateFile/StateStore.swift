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
        /// Loaded without `droppedFields` fields this version does not know, past what it keeps of them
        /// (`StateFileFormat.unknownTextLimit`): a newer version's, lost at the next save.
        case loadedWithoutUnknownFields(GalleryState, droppedFields: Int)
        /// No file yet: a first launch.
        case missing
        /// The file could not be used; it was moved to `keptAt` so nothing is lost.
        case unreadable(reason: String, keptAt: URL)

        /// The state loaded, nil when none was.
        public var state: GalleryState? {
            switch self {
            case .loaded(let state), .loadedWithoutUnknownFields(let state, _): state
            case .missing, .unreadable: nil
            }
        }
    }

    public struct SaveError: Error, CustomStringConvertible {
        public let description: String
    }

    public let fileURL: URL
    /// Whether a `state.json` that is a link is followed: in the data folder the user linked it themselves (their
    /// dotfiles); in a folder they chose, which another computer writes too, a link is set aside, never followed.
    public let followsLink: Bool

    public init(fileURL: URL, followsLink: Bool = true) {
        self.fileURL = fileURL
        self.followsLink = followsLink
    }

    /// The library's state file on this computer, where `paths` place it.
    public static func library(_ paths: LibraryPaths) -> StateStore {
        StateStore(fileURL: paths.stateFile, followsLink: !paths.location.isShareable)
    }

    public func load(now: Date = Date()) -> LoadResult {
        if isRefusedLink {
            return keepAside(reason: Self.linkRefused, now: now)
        }
        let bytes: [UInt8]
        do throws(StateFileBytes.Failure) {
            bytes = try StateFileBytes.read(resolvedFileURL.path, followingLink: followsLink)
        } catch {
            let reason: String
            switch error {
            case .missing:
                if !FileManager.default.fileExists(atPath: fileURL.path) { return .missing }
                reason = FileError(code: ENOENT).description
            case .tooLarge:
                let size = ByteCountFormatter.string(
                    fromByteCount: Int64(StateFileBytes.limit), countStyle: .binary)
                return keepAside(
                    reason: tr("it is larger than {size}, more than any gallery holds", ["size": size]), now: now)
            case .failed(let failure): reason = failure
            }
            return keepAside(reason: tr("it could not be opened ({reason})", ["reason": reason]), now: now)
        }
        do {
            let decoded = try bytes.withUnsafeBufferPointer { buffer throws(StateFileFormat.Invalid) in
                try StateFileFormat.decode(buffer)
            }
            let state = decoded.state
            guard state.version <= GalleryState.currentVersion else {
                return keepAside(
                    reason: tr(
                        "it was written by a newer version (format {format})", ["format": String(state.version)]),
                    now: now)
            }
            // The lineage older versions wrote is theirs: the journal keeps no revisions.
            let clean = Lineage.withoutLineage(state)
            let loaded = clean.galleries.isEmpty ? GalleryState.initial : clean
            guard decoded.droppedFields == 0 else {
                return .loadedWithoutUnknownFields(loaded, droppedFields: decoded.droppedFields)
            }
            return .loaded(loaded)
        } catch {
            return keepAside(reason: tr("it is not a valid gallery file"), now: now)
        }
    }

    /// What the file holds now, read without moving anything: in a synced folder a file that is not
    /// usable yet (half written, gone for a moment, from a newer version) is waited for, not replaced.
    public enum ReadResult: Equatable, Sendable {
        case loaded(GalleryState)
        case missing
        /// Not valid JSON (yet): someone may be writing it in place.
        case invalid
        /// Written by a newer version: this one must not write over it.
        case newer(version: Int)
        /// Larger than any state file (`StateFileBytes.limit`): refused from its size, not read.
        case tooLarge
        case failed(reason: String)
    }

    public func read() -> ReadResult {
        if isRefusedLink {
            return .failed(reason: Self.linkRefused)
        }
        let bytes: [UInt8]
        do throws(StateFileBytes.Failure) {
            bytes = try StateFileBytes.read(resolvedFileURL.path, followingLink: followsLink)
        } catch {
            switch error {
            case .missing:
                if !FileManager.default.fileExists(atPath: fileURL.path) { return .missing }
                return .failed(reason: FileError(code: ENOENT).description)
            case .tooLarge: return .tooLarge
            case .failed(let reason): return .failed(reason: reason)
            }
        }
        guard let state = try? Self.decode(bytes) else { return .invalid }
        guard state.version <= GalleryState.currentVersion else { return .newer(version: state.version) }
        return .loaded(state)
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

    /// Reads a state file's bytes in place, as `decode(_:)` reads them.
    static func decode(_ bytes: [UInt8]) throws(StateFileFormat.Invalid) -> GalleryState {
        try bytes.withUnsafeBufferPointer { buffer throws(StateFileFormat.Invalid) in
            try StateFileFormat.decode(buffer).state
        }
    }

    /// Identifies one version of the file on disk, to notice that someone else wrote it.
    public struct Revision: Equatable, Sendable {
        let device: UInt64
        let inode: UInt64
        let size: Int64
        let modified: Int64
    }

    /// The file the state lives in: a symlinked state.json (dotfile managers) is followed to its
    /// target, so saving replaces the target and keeps the link; unless links are not followed.
    public var resolvedFileURL: URL {
        guard followsLink else { return fileURL }
        var url = fileURL
        for _ in 0..<16 {
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path) else { break }
            url = URL(fileURLWithPath: destination, relativeTo: url.deletingLastPathComponent()).standardizedFileURL
        }
        return url
    }

    /// Why a linked state.json in a folder another computer writes is not read.
    static var linkRefused: String {
        tr("it is a link to another file, which the app does not follow in a shared folder")
    }

    /// Whether the file is a link this store does not follow.
    private var isRefusedLink: Bool {
        var info = stat()
        return !followsLink && lstat(fileURL.path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    /// The version on disk now, nil when there is no file.
    public func revision() -> Revision? {
        var info = stat()
        guard (followsLink ? stat(resolvedFileURL.path, &info) : lstat(fileURL.path, &info)) == 0 else { return nil }
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
    public func save(_ state: GalleryState) throws -> Revision? { try write(Self.encode(state)) }

    private func write(_ data: Data) throws -> Revision? {
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

    /// `mkdir -p` (new folders 0700), with the system's reason when it fails (a file in the way, a full disk).
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
}
