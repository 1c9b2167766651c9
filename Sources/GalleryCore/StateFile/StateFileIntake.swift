import Foundation

/// A `state.json` in the library folder, in the state file's format (<doc:StateFile>), as the journal takes it in
/// (<doc:LibraryJournal>): the first one this computer finds in a folder is carried over, under stamps every edit's
/// win over; after that, one whose bytes differ from the last taken in (a backup put back, an older version of the
/// app on another computer) is merged in as this computer's edits, stamped now, three-way against the last one taken
/// in. This computer's record of the last one taken in, and a copy of it, are kept in its own state folder, never
/// synced.
public struct StateFileIntake: Sendable {
    /// The name of the record, in this computer's own state folder.
    public static let recordName = "journal-state-file.json"
    /// The name of the copy of the last file taken in, the common state of the next one's merge.
    public static let copyName = "journal-state-file-copy.json"

    public let store: StateStore
    private let record: URL
    private let copy: StateStore

    /// Whether a changed file is taken as it is (the data folder, which no sync tool shares: a backup put back by
    /// hand), not merged.
    public let takenAsItIs: Bool

    public init(_ paths: LibraryPaths) {
        self.init(
            store: StateStore.library(paths), stateFolder: paths.computerState,
            takenAsItIs: !paths.location.isShareable)
    }

    init(store: StateStore, stateFolder: URL, takenAsItIs: Bool = false) {
        self.store = store
        self.takenAsItIs = takenAsItIs
        record = stateFolder.appendingPathComponent(Self.recordName)
        copy = StateStore(fileURL: stateFolder.appendingPathComponent(Self.copyName))
    }

    /// What the folder's `state.json` is to the journal.
    public enum Finding: Equatable, Sendable {
        /// No file, or the one last taken in.
        case known
        /// The first file this computer finds in this folder: carried over.
        case first
        /// Bytes other than the last taken in: taken in as this computer's edits.
        case changed
    }

    /// Which file was taken in: where, its bytes' length and CRC-32, and the file's identity on disk, which spares
    /// reading it again while it stays the same file.
    public struct Fingerprint: Equatable, Sendable {
        let folder: String
        let size: Int
        let checksum: UInt32
        let revision: StateStore.Revision?
    }

    /// What `look` found: the file's fingerprint and bytes, when it read them.
    public struct Look: Sendable {
        public let finding: Finding
        public let fingerprint: Fingerprint?
        let bytes: [UInt8]?
    }

    /// Looks at the folder's file: read only when it is not the file the record names.
    public func look() -> Look {
        guard let revision = store.revision() else { return Look(finding: .known, fingerprint: nil, bytes: nil) }
        let folder = store.fileURL.deletingLastPathComponent().standardizedFileURL.path
        let recorded = readRecord().flatMap { $0.folder == folder ? $0 : nil }
        if let recorded, recorded.revision == revision {
            return Look(finding: .known, fingerprint: recorded, bytes: nil)
        }
        guard let bytes = try? StateFileBytes.read(store.resolvedFileURL.path, followingLink: store.followsLink) else {
            return Look(finding: recorded == nil ? .first : .known, fingerprint: nil, bytes: nil)
        }
        let fingerprint = Fingerprint(
            folder: folder, size: bytes.count, checksum: CRC32.checksum(bytes), revision: revision)
        guard let recorded else { return Look(finding: .first, fingerprint: fingerprint, bytes: bytes) }
        let same = recorded.size == fingerprint.size && recorded.checksum == fingerprint.checksum
        return Look(finding: same ? .known : .changed, fingerprint: fingerprint, bytes: bytes)
    }

    /// The last file taken in from this folder, as it was: the common state of the next one's merge.
    public func lastTakenIn() -> GalleryState? {
        guard case .loaded(let state) = copy.read() else { return nil }
        return Lineage.withoutLineage(state)
    }

    /// Records what `look` found as the file last taken in, once what it holds is in the journal: a copy of its
    /// bytes, then its fingerprint. Written only when a file is taken in, never by an edit.
    public func remember(_ look: Look) {
        guard let fingerprint = look.fingerprint else { return }
        if let bytes = look.bytes {
            do {
                try FileWriter.makeFolders(record.deletingLastPathComponent().path)
                try FileWriter.kept.write(Data(bytes), to: copy.fileURL.path, policy: .replace)
            } catch {
                return
            }
        }
        var fields: [String: Any] = [
            "folder": fingerprint.folder, "size": fingerprint.size, "checksum": Int(fingerprint.checksum),
        ]
        if let revision = fingerprint.revision {
            fields["revision"] = [
                String(revision.device), String(revision.inode), String(revision.size), String(revision.modified),
            ]
        }
        guard let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]) else { return }
        try? FileWriter.makeFolders(record.deletingLastPathComponent().path)
        try? FileWriter.kept.write(data, to: record.path, policy: .replace)
    }

    /// Takes the folder's file into `saver`, as this computer's edits, when it is not the one last taken in (the app
    /// running, a file that lands is new input however it is found); blocking. A file half written or from a newer
    /// version is left for its next change.
    public func takeIn(into saver: JournalSaver) {
        let found = look()
        guard found.finding != .known, let bytes = found.bytes, let raw = try? StateStore.decode(bytes),
            raw.version <= GalleryState.currentVersion
        else { return }
        let taken = saver.takeIn(
            library: Lineage.withoutLineage(raw), base: lastTakenIn(), asItIs: takenAsItIs, adopting: false)
        if taken == nil { remember(found) }
    }

    private func readRecord() -> Fingerprint? {
        guard let data = try? FileReader.read(record.path, limit: 64 * 1024),
            let fields = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let folder = fields["folder"] as? String, let size = fields["size"] as? Int,
            let checksum = (fields["checksum"] as? Int).flatMap(UInt32.init(exactly:))
        else { return nil }
        var revision: StateStore.Revision?
        if let parts = fields["revision"] as? [String], parts.count == 4, let device = UInt64(parts[0]),
            let inode = UInt64(parts[1]), let fileSize = Int64(parts[2]), let modified = Int64(parts[3])
        {
            revision = StateStore.Revision(device: device, inode: inode, size: fileSize, modified: modified)
        }
        return Fingerprint(folder: folder, size: size, checksum: checksum, revision: revision)
    }
}
