import Foundation
import GLibKit
import GalleryCore
import Synchronization

/// The bytes of every image the library keeps, in the app's data folder (not the cache, which may be
/// deleted at any time): `<directory>/<first 2 hex digits>/<sha256>`, named by their SHA-256 so the same
/// bytes are stored once however many images refer to them, written whole (0600, folders 0700) before any
/// image names them and on the disk before any state file does (`makeDurable`, which the state's saver calls
/// before each write), and checked against their name when read. The library's folder may be a link the user
/// made; `originals` and all in it are reached through `LibraryFolder`, never through a link another computer
/// put there. Blocking: call it off the main loop.
public final class OriginalsStore: Sendable {
    /// How a kept original looks against its name.
    public enum Condition: Error, Equatable, Sendable {
        case intact
        case missing
        /// Present, but its bytes are not those it is named after (cut short, changed on disk).
        case damaged
    }

    public let directory: URL
    /// The originals kept since launch: a launch's removal of unreferenced originals, which runs meanwhile,
    /// spares them (a drop of bytes whose file was about to go).
    private let keptThisRun = Mutex(Set<String>())
    /// Written since the last `makeDurable`, and not yet on the disk: the files, and the folders (their names
    /// below the library's folder) whose new entries (a file renamed in, a folder made) are not.
    private let unsynced = Mutex((files: [String](), folders: Set<[String]>()))
    /// Held through a `makeDurable`: a second caller returns only once the first one's files are on the disk too.
    private let syncing = Mutex(())

    /// Originals are written without waiting for the disk; `makeDurable` flushes them together.
    private static let writer = FileWriter(durability: .syncedLater, mode: .new(0o600))

    public init(directory: URL) {
        self.directory = directory
    }

    /// Where the original named `sha256` is kept (whether it is there or not); nil for a name that is no SHA-256.
    public func path(for sha256: String) -> String? {
        guard KeptOriginal.isValidName(sha256) else { return nil }
        return directory.appendingPathComponent(String(sha256.prefix(2)), isDirectory: true)
            .appendingPathComponent(sha256).path
    }

    /// The file of the original named `sha256` when it is there: a file, reached through no link.
    public func existingPath(for sha256: String) -> String? {
        guard let path = path(for: sha256), (try? folder(of: sha256))?.kind(of: sha256) == .regularFile else {
            return nil
        }
        return path
    }

    /// The names of the folders below the library's that hold `sha256`: `originals` and its prefix.
    private func folderNames(of sha256: String) -> [String] {
        [directory.lastPathComponent, String(sha256.prefix(2))]
    }

    /// The folder that holds (or would hold) the original `sha256`, opened without following a link below the
    /// library's folder; made when `creating`.
    private func folder(of sha256: String, creating: Bool = false) throws(FileError) -> LibraryFolder {
        guard KeptOriginal.isValidName(sha256) else { throw FileError(code: EINVAL) }
        return try LibraryFolder.open(directory.deletingLastPathComponent(), creating: creating)
            .folder(at: folderNames(of: sha256), creating: creating)
    }

    /// Keeps `data` and returns its SHA-256. Bytes kept before are not written again (unless what is on
    /// disk under their name has another size: a file cut short is replaced).
    @discardableResult
    public func keep(_ data: Data) throws(FileError) -> String {
        let sha256 = Checksum.sha256(data)
        try keep(data, named: sha256)
        return sha256
    }

    /// Keeps `data`, whose SHA-256 the caller computed already.
    public func keep(_ data: Data, named sha256: String) throws(FileError) {
        guard KeptOriginal.isValidName(sha256) else { throw FileError(code: EINVAL) }
        let keptBefore = !keptThisRun.withLock { $0.insert(sha256).inserted }
        let names = folderNames(of: sha256)
        if let existing = try? folder(of: sha256), let status = existing.status(of: sha256),
            (status.st_mode & S_IFMT) == S_IFREG, Int(status.st_size) == data.count
        {
            // Perhaps written a moment ago by another drop of the same bytes, whose flush may not have come yet.
            if keptBefore {
                unsynced.withLock { unsynced in
                    unsynced.files.append(sha256)
                    unsynced.folders.insert(names)
                }
            }
            return
        }
        let library = try LibraryFolder.open(directory.deletingLastPathComponent(), creating: true)
        // A new folder's entry is in the one above it, up to the library's.
        let newFolders: [[String]] =
            library.kind(of: names[0]) != .folder
            ? [[], [names[0]]]
            : (try? library.folder(names[0]))?.kind(of: names[1]) != .folder ? [[names[0]]] : []
        let folder = try library.folder(at: names, creating: true)
        try Self.writer.write(data, named: sha256, in: folder, policy: .replace)
        unsynced.withLock { unsynced in
            unsynced.files.append(sha256)
            unsynced.folders.insert(names)
            unsynced.folders.formUnion(newFolders)
        }
    }

    /// Puts every original written since the last call on the disk: each file, then each folder that gained
    /// an entry, once. Call it before writing a state that may name them; it returns once they are all there,
    /// also those another caller was flushing meanwhile. A file that cannot be flushed is tried again next time.
    /// Returns how many files it flushed.
    @discardableResult
    public func makeDurable() throws(FileError) -> Int {
        let (flushed, failure): (Int, FileError?) = syncing.withLock { _ in
            let (files, folders) = unsynced.withLock { unsynced in
                defer { unsynced = ([], []) }
                return unsynced
            }
            var failure: FileError?
            var failed: [String] = []
            var flushed = 0
            let library = try? LibraryFolder.open(directory.deletingLastPathComponent())
            var opened: [String: LibraryFolder] = [:]
            for sha256 in files {
                let prefix = String(sha256.prefix(2))
                if opened[prefix] == nil { opened[prefix] = try? library?.folder(at: folderNames(of: sha256)) }
                // Gone meanwhile (bytes that proved no picture): nothing names it.
                guard let descriptor = try? opened[prefix]?.openFile(sha256, flags: O_RDONLY) else { continue }
                if fsync(descriptor) != 0 {
                    failure = failure ?? FileError(code: errno, step: .sync, path: path(for: sha256))
                    failed.append(sha256)
                } else {
                    flushed += 1
                }
                close(descriptor)
            }
            for names in folders { (names.isEmpty ? library : try? library?.folder(at: names))?.sync() }
            if failure != nil { unsynced.withLock { $0.files += failed } }
            return (flushed, failure)
        }
        if let failure { throw failure }
        return flushed
    }

    /// Writes `data` again under its name whatever is on disk there: an original found missing or damaged,
    /// whose bytes came back from its source. Bytes that are not those `sha256` names are refused.
    public func repair(_ data: Data, named sha256: String) throws(FileError) {
        guard KeptOriginal.isValidName(sha256), Checksum.sha256(data) == sha256 else { throw FileError(code: EINVAL) }
        keptThisRun.withLock { _ = $0.insert(sha256) }
        try FileWriter.kept.write(data, named: sha256, in: try folder(of: sha256, creating: true), policy: .replace)
    }

    /// Deletes the original named `sha256` (bytes kept for a drop that proved no picture).
    public func remove(_ sha256: String) {
        (try? folder(of: sha256))?.remove(sha256)
    }

    /// The original's bytes when they are there and match their name; else why not.
    public func read(_ sha256: String) -> Result<Data, Condition> {
        let data: Data
        do throws(FileReader.Failure) {
            // A prefix folder that is a link holds none of the library's originals.
            guard let folder = try? folder(of: sha256) else { return .failure(.missing) }
            data = try FileReader.read(sha256, in: folder)
        } catch {
            return .failure(error == .missing ? .missing : .damaged)
        }
        return Checksum.sha256(data) == sha256 ? .success(data) : .failure(.damaged)
    }

    public func condition(of sha256: String) -> Condition {
        switch read(sha256) {
        case .success: .intact
        case .failure(let condition): condition
        }
    }

    /// Deletes the originals whose names are not in `referenced` and that were not kept in this run, every folder
    /// at once (`startPruning` does it a folder at a time). Returns how many went.
    @discardableResult
    public func prune(
        keeping referenced: @autoclosure () -> Set<String>, unreferencedFor grace: TimeInterval = 0, record: URL? = nil,
        now: Date = Date()
    ) -> Int {
        // Worked out only when there are originals: a library that keeps none builds no set of its images.
        guard var pruning = startPruning(unreferencedFor: grace, record: record, now: now) else { return 0 }
        let referenced = Set(referenced().compactMap(OriginalDigest.init(name:)))
        while pruneNextFolder(&pruning, keeping: referenced) {}
        return pruning.removed
    }

    /// A removal of unreferenced originals under way, one prefix folder at a time (`pruneNextFolder`): run at launch,
    /// when no undo can bring back an image removed earlier, an original goes when its name is not referenced and it
    /// was not kept in this run, the check made under the lock a keep takes, at the moment it would go. With a
    /// `record` (a file of this computer's own), an original goes only once it has been found unreferenced for
    /// `grace`: in a folder a sync tool shares, another computer's original may arrive before the state that names it,
    /// and a delete here would be carried to the computer still using it.
    public struct Pruning: Sendable {
        fileprivate var folders: [String]
        fileprivate var next = 0
        fileprivate let grace: TimeInterval
        fileprivate let record: URL?
        fileprivate let now: Date
        fileprivate let firstSeen: [String: Double]
        fileprivate var stillWaiting: [String: Double] = [:]
        /// How many originals went so far.
        public fileprivate(set) var removed = 0

        /// How many prefix folders are left to look through.
        public var foldersLeft: Int { folders.count - next }
    }

    /// Starts a removal of unreferenced originals; nil when the store holds no folder of them (nothing to do, and no
    /// set of the library's originals to build).
    public func startPruning(unreferencedFor grace: TimeInterval = 0, record: URL? = nil, now: Date = Date())
        -> Pruning?
    {
        // Listed and deleted only through folders that are no link: a link may lead to anyone's files.
        let folders = (try? originalsFolder())?.names().filter { $0.utf8.count == 2 } ?? []
        guard !folders.isEmpty else { return nil }
        let firstSeen: [String: Double] =
            record.flatMap { JSONFile.read($0.path)?.object?.compactMapValues(\.double) } ?? [:]
        return Pruning(folders: folders, grace: grace, record: record, now: now, firstSeen: firstSeen)
    }

    /// Looks through the next prefix folder, deleting what `referenced` does not name; after the last, writes the
    /// record of the originals still waiting for their grace. Returns whether folders are left.
    public func pruneNextFolder(_ pruning: inout Pruning, keeping referenced: Set<OriginalDigest>) -> Bool {
        guard pruning.next < pruning.folders.count else { return false }
        let folderName = pruning.folders[pruning.next]
        pruning.next += 1
        if let folder = try? originalsFolder().folder(folderName) {
            for name in folder.names() {
                // A killed write's temporary file (".<name>.<random>.part") goes too.
                let digest = OriginalDigest(name: name)
                let isOriginal = digest != nil
                if let digest, referenced.contains(digest) { continue }
                if isOriginal && pruning.record != nil {
                    let seen = pruning.firstSeen[name] ?? pruning.now.timeIntervalSince1970
                    if pruning.now.timeIntervalSince1970 - seen < pruning.grace {
                        pruning.stillWaiting[name] = seen
                        continue
                    }
                }
                // Under the lock: a keep of the same bytes waits, then writes the file again.
                keptThisRun.withLock { kept in
                    guard !kept.contains(name) else { return }
                    if isOriginal || name.hasSuffix(".part") { pruning.removed += folder.remove(name) ? 1 : 0 }
                }
            }
        }
        guard pruning.next == pruning.folders.count else { return true }
        if let record = pruning.record, pruning.stillWaiting != pruning.firstSeen {
            try? FileWriter.makeFolders(record.deletingLastPathComponent().path)
            try? FileWriter(durability: .flushed, mode: .new(0o600), temporaryName: .hiddenTmp).write(
                JSONFile.text(.object(pruning.stillWaiting.mapValues { .number($0) })), to: record.path,
                policy: .replace)
        }
        return false
    }

    /// The `originals` folder, opened without following a link below the library's folder.
    private func originalsFolder() throws(FileError) -> LibraryFolder {
        try LibraryFolder.open(directory.deletingLastPathComponent()).folder(directory.lastPathComponent)
    }

    /// Every original's name and size on disk.
    public func list() -> [(sha256: String, byteCount: Int)] {
        var result: [(String, Int)] = []
        guard
            let originals = try? LibraryFolder.open(directory.deletingLastPathComponent()).folder(
                directory.lastPathComponent)
        else { return [] }
        for folderName in originals.names() where folderName.utf8.count == 2 {
            guard let folder = try? originals.folder(folderName) else { continue }
            for name in folder.names() where KeptOriginal.isValidName(name) {
                if let status = folder.status(of: name), status.st_mode & S_IFMT == S_IFREG {
                    result.append((name, Int(status.st_size)))
                }
            }
        }
        return result
    }
}
