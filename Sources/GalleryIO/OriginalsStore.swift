import Foundation
import GalleryCore
import GtkKit
import Synchronization

/// The bytes of every image the library keeps, in the app's data folder (not the cache, which may be
/// deleted at any time): `<directory>/<first 2 hex digits>/<sha256>`, named by their SHA-256 so the same
/// bytes are stored once however many images refer to them, written whole (0600, folders 0700) before any
/// image names them and on the disk before any state file does (`makeDurable`, which the state's saver calls
/// before each write), and checked against their name when read. Blocking: call it off the main loop.
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
    /// Written since the last `makeDurable`, and not yet on the disk: the files, and the folders whose new
    /// entries (a file renamed in, a folder made) are not.
    private let unsynced = Mutex((files: [String](), folders: Set<String>()))
    /// Held through a `makeDurable`: a second caller returns only once the first one's files are on the disk too.
    private let syncing = Mutex(())

    /// Originals are written without waiting for the disk; `makeDurable` flushes them together.
    private static let writer = FileWriter(durability: .syncedLater, mode: .new(0o600))

    public init(directory: URL) {
        self.directory = directory
    }

    /// `originals` in the library's folder: `$XDG_DATA_HOME/image-gallery/originals` unless this
    /// computer's settings name another folder (`LibraryLocation`).
    public static func defaultDirectory(_ directories: XDGDirectories = XDGDirectories()) -> URL {
        LibraryLocation(directories).folder.appendingPathComponent("originals", isDirectory: true)
    }

    /// Where the original named `sha256` is kept (whether it is there or not); nil for a name that is no SHA-256.
    public func path(for sha256: String) -> String? {
        guard KeptOriginal.isValidName(sha256) else { return nil }
        return directory.appendingPathComponent(String(sha256.prefix(2)), isDirectory: true)
            .appendingPathComponent(sha256).path
    }

    /// The file of the original named `sha256` when it is there.
    public func existingPath(for sha256: String) -> String? {
        guard let path = path(for: sha256), FileReader.kind(of: path) == .regularFile else { return nil }
        return path
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
        guard let path = path(for: sha256) else { throw FileError(code: EINVAL) }
        let keptBefore = !keptThisRun.withLock { $0.insert(sha256).inserted }
        var status = stat()
        if stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, Int(status.st_size) == data.count {
            // Perhaps written a moment ago by another drop of the same bytes, whose flush may not have come yet.
            if keptBefore {
                unsynced.withLock { unsynced in
                    unsynced.files.append(path)
                    unsynced.folders.insert((path as NSString).deletingLastPathComponent)
                }
            }
            return
        }
        let folder = (path as NSString).deletingLastPathComponent
        var newFolders: [String] = []
        if FileReader.kind(of: folder) != .folder {
            try FileWriter.makeFolders(folder)
            // The new folder's entry is in the originals folder, and that one's, when new too, in the library's.
            newFolders = [directory.path, directory.deletingLastPathComponent().path]
        }
        try Self.writer.write(data, to: path, policy: .replace)
        unsynced.withLock { unsynced in
            unsynced.files.append(path)
            unsynced.folders.insert(folder)
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
            for path in files {
                let descriptor = open(path, O_RDONLY | O_CLOEXEC)
                // Gone meanwhile (bytes that proved no picture): nothing names it.
                guard descriptor >= 0 else { continue }
                if fsync(descriptor) != 0 {
                    failure = failure ?? FileError(code: errno, step: .sync, path: path)
                    failed.append(path)
                } else {
                    flushed += 1
                }
                close(descriptor)
            }
            for folder in folders { FileWriter.syncFolder(folder) }
            if failure != nil { unsynced.withLock { $0.files += failed } }
            return (flushed, failure)
        }
        if let failure { throw failure }
        return flushed
    }

    /// Writes `data` again under its name whatever is on disk there: an original found missing or damaged,
    /// whose bytes came back from its source. Bytes that are not those `sha256` names are refused.
    public func repair(_ data: Data, named sha256: String) throws(FileError) {
        guard let path = path(for: sha256), Checksum.sha256(data) == sha256 else { throw FileError(code: EINVAL) }
        keptThisRun.withLock { _ = $0.insert(sha256) }
        try FileWriter.makeFolders((path as NSString).deletingLastPathComponent)
        try FileWriter.kept.write(data, to: path, policy: .replace)
    }

    /// Deletes the original named `sha256` (bytes kept for a drop that proved no picture).
    public func remove(_ sha256: String) {
        guard let path = path(for: sha256) else { return }
        unlink(path)
    }

    /// The original's bytes when they are there and match their name; else why not.
    public func read(_ sha256: String) -> Result<Data, Condition> {
        guard let path = path(for: sha256) else { return .failure(.missing) }
        let data: Data
        do throws(FileReader.Failure) {
            data = try FileReader.read(path)
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

    /// Deletes the originals whose names are not in `referenced` and that were not kept in this run: run at
    /// launch, when no undo can bring back an image removed earlier. With a `record` (a file of this computer's
    /// own), an original goes only once it has been found unreferenced for `grace`: in a folder a sync tool shares,
    /// another computer's original may arrive before the state that names it, and a delete here would be carried
    /// to the computer still using it. Returns how many went.
    @discardableResult
    public func prune(
        keeping referenced: @autoclosure () -> Set<String>, unreferencedFor grace: TimeInterval = 0, record: URL? = nil,
        now: Date = Date()
    ) -> Int {
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        // Worked out only when there are originals: a library that keeps none builds no set of its images.
        guard !folders.isEmpty else { return 0 }
        let referenced = referenced()
        let firstSeen: [String: Double] =
            record.flatMap { try? Data(contentsOf: $0) }
            .flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Double] } ?? [:]
        var stillWaiting: [String: Double] = [:]
        var removed = 0
        for folder in folders where folder.utf8.count == 2 {
            let folderPath = directory.appendingPathComponent(folder).path
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folderPath)) ?? [] {
                // A killed write's temporary file (".<name>.<random>.part") goes too.
                let isOriginal = KeptOriginal.isValidName(name)
                guard !isOriginal || !referenced.contains(name) else { continue }
                if isOriginal && record != nil {
                    let seen = firstSeen[name] ?? now.timeIntervalSince1970
                    if now.timeIntervalSince1970 - seen < grace {
                        stillWaiting[name] = seen
                        continue
                    }
                }
                // Under the lock: a keep of the same bytes waits, then writes the file again.
                keptThisRun.withLock { kept in
                    guard !kept.contains(name) else { return }
                    if isOriginal || name.hasSuffix(".part") { removed += unlink(folderPath + "/" + name) == 0 ? 1 : 0 }
                }
            }
        }
        if let record, stillWaiting != firstSeen,
            let data = try? JSONSerialization.data(withJSONObject: stillWaiting, options: [.sortedKeys])
        {
            try? FileWriter.makeFolders(record.deletingLastPathComponent().path)
            try? FileWriter(durability: .flushed, mode: .new(0o600), temporaryName: .hiddenTmp)
                .write(data, to: record.path, policy: .replace)
        }
        return removed
    }

    /// Every original's name and size on disk.
    public func list() -> [(sha256: String, byteCount: Int)] {
        var result: [(String, Int)] = []
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for folder in folders where folder.utf8.count == 2 {
            let folderPath = directory.appendingPathComponent(folder).path
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folderPath)) ?? []
            where KeptOriginal.isValidName(name) {
                var status = stat()
                if stat(folderPath + "/" + name, &status) == 0 { result.append((name, Int(status.st_size))) }
            }
        }
        return result
    }
}
