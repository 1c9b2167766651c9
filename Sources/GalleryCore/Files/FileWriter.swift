import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The one way the app writes a file, the way GLib's `g_file_set_contents` does: the whole file
/// beside its place first, then renamed into it, so no reader ever sees half of it. How hard it
/// holds on to the bytes (`Durability`), what the file's mode is (`Mode`) and what the temporary
/// file is called are the writer's; whether an existing file is replaced is each write's `Policy`.
/// Blocking: call it off the main loop.
public struct FileWriter: Sendable {
    public enum Durability: Sendable {
        /// Every byte is on the disk before the file counts: the file is synced before it is renamed
        /// into place, and the folder after.
        case flushed
        /// For a cache, which a crash may only cost fetching again: nothing waits for the disk.
        case cache
        /// Synced later by whoever wrote it, before anything names the file (`OriginalsStore.makeDurable`):
        /// many files flushed together cost one wait for the disk, not one each.
        case syncedLater
    }

    public enum Mode: Sendable {
        /// A new file's mode, less the umask (as `open` makes it).
        case new(mode_t)
        /// The mode (and owner, where allowed) of the file being replaced, else this one; exactly,
        /// not what the umask makes of it.
        case keepExisting(orNew: mode_t)
    }

    public enum Policy: Sendable {
        /// Replaces whatever is at the path in one step.
        case replace
        /// Never replaces a file: the name is claimed (`O_EXCL`) only once the temporary file is
        /// written, and the temporary file renamed over the claim.
        case createNew
        /// Never replaces a file, and is written at the path itself, without a temporary file: only
        /// in a folder no one reads yet (an export's hidden folder, renamed into place when whole).
        case createInPlace
    }

    /// What the temporary file beside the target is called.
    public struct TemporaryName: Sendable {
        private let make: @Sendable (_ fileName: String) -> String

        /// ".state.json.<UUID>.tmp": hidden, and found again by its prefix and suffix to clean up
        /// after a killed save.
        public static let hiddenTmp = TemporaryName { ".\($0).\(UUID().uuidString).tmp" }
        /// ".cat.jpg.1A2B3C4D.part": hidden in a folder people see, and short enough for any name.
        public static let hiddenPart = TemporaryName { ".\($0.prefix(200)).\(UUID().uuidString.prefix(8)).part" }
        /// "<name>.<random number>~": beside a file in the app's cache.
        public static let tilde = TemporaryName { "\($0).\(UInt64.random(in: 0...UInt64.max))~" }

        /// A new temporary name for a file called `fileName`.
        public func name(for fileName: String) -> String { make(fileName) }
    }

    public let durability: Durability
    public let mode: Mode
    public let temporaryName: TemporaryName

    public init(durability: Durability, mode: Mode = .new(0o644), temporaryName: TemporaryName = .hiddenPart) {
        self.durability = durability
        self.mode = mode
        self.temporaryName = temporaryName
    }

    /// Files people save and keep (Save As…, Save to Folder…, an export): flushed, 0644.
    public static let document = FileWriter(durability: .flushed)
    /// Files only this app reads again (downloads, thumbnails): private to the user, not flushed.
    public static let cache = FileWriter(durability: .cache, mode: .new(0o600), temporaryName: .tilde)
    /// Bytes the app keeps as the only copy of an image (a paste, a dropped image with no address):
    /// private to the user, flushed.
    public static let kept = FileWriter(durability: .flushed, mode: .new(0o600))

    /// `mkdir -p` whose new folders are private to the user (0700, as the XDG base directory
    /// specification asks); a folder that exists keeps its mode.
    public static func makeFolders(_ path: String) throws(FileError) {
        var partial = ""
        for component in URL(fileURLWithPath: path).standardizedFileURL.pathComponents.dropFirst() {
            partial += "/" + component
            if mkdir(partial, 0o700) != 0 && errno != EEXIST {
                throw FileError(code: errno, step: .create, path: partial)
            }
        }
    }

    /// Writes `data` at `path` as `policy` says.
    public func write(_ data: Data, to path: String, policy: Policy) throws(FileError) {
        _ = try write(data, toFirstFreeOf: CollectionOfOne(path), policy: policy)
    }

    /// Writes `data` at the first of `paths` (all in one folder) that is free, or with `.replace`
    /// at the first; returns the path written. `EEXIST` when none is free.
    public func write(
        _ data: Data, toFirstFreeOf paths: some Sequence<String>,
        policy: Policy
    ) throws(FileError) -> String {
        var candidates = paths.makeIterator()
        guard let first = candidates.next() else { throw FileError(code: EEXIST, step: .create) }
        let folder = try LibraryFolder.open(URL(fileURLWithPath: first).deletingLastPathComponent())
        // The first path again, then the rest as they come: the paths may never end.
        let names = sequence(state: (Optional(first), candidates)) { state -> String? in
            defer { state.0 = nil }
            return (state.0 ?? state.1.next()).map { URL(fileURLWithPath: $0).lastPathComponent }
        }
        return folder.path(of: try write(data, toFirstFreeOf: names, in: folder, policy: policy))
    }

    /// Writes `data` as `name` in `folder`, never through a link: a link by that name is replaced, not followed.
    public func write(_ data: Data, named name: String, in folder: LibraryFolder, policy: Policy) throws(FileError) {
        _ = try write(data, toFirstFreeOf: CollectionOfOne(name), in: folder, policy: policy)
    }

    /// Writes `data` as the first of `names` that is free in `folder` (or with `.replace` as the first); returns
    /// the name written. Every step is taken in the folder's own descriptor, and none follows a link.
    public func write(
        _ data: Data, toFirstFreeOf names: some Sequence<String>, in folder: LibraryFolder, policy: Policy
    ) throws(FileError) -> String {
        var candidates = names.makeIterator()
        guard let first = candidates.next() else { throw FileError(code: EEXIST, step: .create) }
        if case .createInPlace = policy {
            var name = first
            while true {
                do throws(FileError) {
                    try writeFile(data, named: name, in: folder, existing: nil)
                    return name
                } catch  where error.code == EEXIST && error.step == .create {
                    guard let next = candidates.next() else { throw error }
                    name = next
                }
            }
        }
        let temporary = temporaryName.name(for: first)
        // Only a file's own mode is kept: a link's is no one's.
        let existing =
            policy == .replace ? folder.status(of: first).flatMap { $0.st_mode & S_IFMT == S_IFREG ? $0 : nil } : nil
        try writeFile(data, named: temporary, in: folder, existing: existing)
        var target = first
        if policy == .createNew {
            while true {
                // Claimed first (O_EXCL fails on any file, even one made a moment ago by someone
                // else), then the finished file is renamed over our own empty claim.
                do throws(FileError) {
                    close(try folder.openFile(target, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o644))
                    break
                } catch {
                    guard error.code == EEXIST, let next = candidates.next() else {
                        folder.remove(temporary)
                        throw error
                    }
                    target = next
                }
            }
        }
        do throws(FileError) {
            try folder.rename(temporary, to: target)
        } catch {
            if policy == .createNew { folder.remove(target) }
            folder.remove(temporary)
            throw error
        }
        if durability == .flushed { folder.sync() }
        return target
    }

    /// Creates `name` in `folder` (it must not exist) with `data`: its mode, every byte, synced when flushed.
    /// `existing` is the file it will replace, whose mode it takes when the writer keeps modes.
    private func writeFile(_ data: Data, named name: String, in folder: LibraryFolder, existing: stat?)
        throws(FileError)
    {
        let (openMode, exactMode): (mode_t, mode_t?) =
            switch mode {
            case .new(let mode): (mode, nil)
            case .keepExisting(let new): (0o600, existing.map { $0.st_mode & 0o7777 } ?? new)
            }
        let path = folder.path(of: name)
        let descriptor = try folder.openFile(name, flags: O_WRONLY | O_CREAT | O_EXCL, mode: openMode)
        var failure: FileError?
        if let exactMode, fchmod(descriptor, exactMode) != 0 {
            failure = FileError(code: errno, step: .setMode, path: path)
        }
        if exactMode != nil, let existing { _ = fchown(descriptor, existing.st_uid, existing.st_gid) }  // only root may
        if failure == nil, let code = Self.writeAll(data, to: descriptor) {
            failure = FileError(code: code, step: .write, path: path)
        }
        if failure == nil, durability == .flushed, fsync(descriptor) != 0 {
            failure = FileError(code: errno, step: .sync, path: path)
        }
        if close(descriptor) != 0, failure == nil { failure = FileError(code: errno, step: .write, path: path) }
        if let failure {
            folder.remove(name)
            throw failure
        }
    }

    /// Writes every byte of `data`; the error code, or nil.
    private static func writeAll(_ data: Data, to descriptor: Int32) -> Int32? {
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }

    /// Flushes a folder's entries (a file renamed into it) to the disk.
    public static func syncFolder(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }
}
