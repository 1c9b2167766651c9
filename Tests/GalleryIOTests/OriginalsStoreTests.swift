import Foundation
import GLibKit
import GalleryCore
import Synchronization
import Testing

@testable import GalleryIO

/// The library's originals: named by their bytes, written whole and private, checked when read, removed
/// only when nothing refers to them.
@Suite struct OriginalsStoreTests {
    let folder: TemporaryDirectory
    let store: OriginalsStore

    init() throws {
        folder = try TemporaryDirectory()
        store = OriginalsStore(directory: folder.url.appendingPathComponent("originals"))
    }

    private func mode(of path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    private func files() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: store.directory.path)
        return (enumerator?.allObjects as? [String] ?? []).filter { $0.contains("/") }.sorted()
    }

    /// A folder outside the library holding a bystander's `*.part` and a file named like an original, old enough to
    /// prune; `originals/<prefix>` links to it, as another computer may have made it.
    private func linkedPrefixFolder(_ prefix: String) throws -> (outside: TemporaryDirectory, before: [String: Data]) {
        let outside = try TemporaryDirectory()
        _ = try outside.write([1], to: ".cat.jpg.1A2B3C4D.part")
        _ = try outside.write([2], to: String(repeating: "ab", count: 32))
        try FileManager.default.createDirectory(at: store.directory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: store.directory.appendingPathComponent(prefix).path, withDestinationPath: outside.url.path)
        return (outside, try contents(of: outside))
    }

    private func contents(of folder: TemporaryDirectory) throws -> [String: Data] {
        var contents: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.url.path) {
            contents[name] = try Data(contentsOf: folder.url.appendingPathComponent(name))
        }
        return contents
    }

    @Test func aLinkedPrefixFolderIsNeitherWrittenThroughNorListedNorPruned() throws {
        defer { folder.remove() }
        let bytes = Data("bytes whose name falls under the linked folder".utf8)
        let sha256 = Checksum.sha256(bytes)
        let (outside, before) = try linkedPrefixFolder(String(sha256.prefix(2)))
        defer { outside.remove() }
        let error = try #require(throws: FileError.self) { try store.keep(bytes) }
        #expect(error.code == ELOOP)
        #expect(throws: FileError.self) { try store.repair(bytes, named: sha256) }
        #expect(store.existingPath(for: sha256) == nil)
        #expect(store.read(sha256) == .failure(.missing))
        #expect(store.read(String(repeating: "ab", count: 32)) == .failure(.missing))
        #expect(store.list().isEmpty)
        #expect(store.prune(keeping: []) == 0)
        store.remove(String(repeating: "ab", count: 32))
        #expect(try contents(of: outside) == before)
    }

    @Test func aLinkedOriginalIsNotReadAndARepairReplacesTheLinkNotItsTarget() throws {
        defer { folder.remove() }
        let bytes = Data("the original's bytes".utf8)
        let sha256 = try store.keep(bytes)
        let outside = try TemporaryDirectory()
        defer { outside.remove() }
        // The same bytes elsewhere: followed, the link would pass the check.
        let target = try outside.write(Array(bytes), to: "elsewhere")
        let path = try #require(store.path(for: sha256))
        unlink(path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        #expect(store.existingPath(for: sha256) == nil)
        #expect(store.read(sha256) == .failure(.damaged))
        try store.repair(bytes, named: sha256)
        #expect(store.existingPath(for: sha256) == path)
        #expect(try store.read(sha256).get() == bytes)
        #expect(try contents(of: outside) == ["elsewhere": bytes])
    }

    @Test func originalsAreNamedByTheirStandardSHA256() {
        defer { folder.remove() }
        // FIPS 180-2's examples, and the empty file.
        #expect(Checksum.sha256(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Checksum.sha256(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            Checksum.sha256(Data(repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        #expect(Checksum.sha256(Data("abc".utf8)) == Checksum.sha256("abc"))
    }

    @Test func theSameBytesTwiceAreStoredOnceUnderTheirSHA256() throws {
        defer { folder.remove() }
        let bytes = Data("a picture's bytes".utf8)
        let first = try store.keep(bytes)
        let second = try store.keep(bytes)
        let other = try store.keep(Data("other bytes".utf8))
        #expect(first == second)
        #expect(first == Checksum.sha256(bytes))
        #expect(other != first)
        let path = try #require(store.existingPath(for: first))
        #expect(path == store.directory.path + "/\(first.prefix(2))/\(first)")
        #expect(files() == [first, other].map { "\($0.prefix(2))/\($0)" }.sorted())
        #expect(try store.read(first).get() == bytes)
    }

    @Test func originalsAndTheirFoldersArePrivate() throws {
        defer { folder.remove() }
        let sha256 = try store.keep(Data([1, 2, 3]))
        let path = try #require(store.existingPath(for: sha256))
        #expect(try mode(of: path) == 0o600)
        #expect(try mode(of: (path as NSString).deletingLastPathComponent) == 0o700)
        #expect(try mode(of: store.directory.path) == 0o700)
    }

    @Test func bytesChangedOnDiskAreDamagedAndACutFileIsWrittenAgain() throws {
        defer { folder.remove() }
        let bytes = Data((0..<1000).map { UInt8($0 % 251) })
        let sha256 = try store.keep(bytes)
        let path = try #require(store.existingPath(for: sha256))
        try bytes.prefix(10).write(to: URL(fileURLWithPath: path))
        #expect(store.condition(of: sha256) == .damaged)
        try store.keep(bytes)
        #expect(store.condition(of: sha256) == .intact)
        try FileManager.default.removeItem(atPath: path)
        #expect(store.condition(of: sha256) == .missing)
    }

    @Test func aNameThatIsNoSHA256NamesNoFile() {
        defer { folder.remove() }
        #expect(store.path(for: "../../state.json") == nil)
        #expect(store.path(for: String(repeating: "A", count: 64)) == nil)
        #expect(store.read("../x") == .failure(.missing))
    }

    @Test func removalSparesWhatIsReferencedAndWhatThisRunKept() throws {
        defer { folder.remove() }
        // Kept by an earlier run: a fresh store is this launch's.
        let earlier = OriginalsStore(directory: store.directory)
        let referenced = try earlier.keep(Data("referenced".utf8))
        let unreferenced = try earlier.keep(Data("unreferenced".utf8))
        let keptAgain = try earlier.keep(Data("dropped again this run".utf8))
        let leftover = store.directory.appendingPathComponent("ab/.ab12.1234.part").path
        try FileWriter.makeFolders((leftover as NSString).deletingLastPathComponent)
        #expect(FileManager.default.createFile(atPath: leftover, contents: Data([1])))
        let keptNow = try store.keep(Data("dropped this run".utf8))
        try store.keep(Data("dropped again this run".utf8))
        #expect(store.prune(keeping: [referenced]) == 2)
        #expect(store.condition(of: referenced) == .intact)
        #expect(store.condition(of: unreferenced) == .missing)
        #expect(store.condition(of: keptNow) == .intact)
        #expect(store.condition(of: keptAgain) == .intact)
        #expect(!FileManager.default.fileExists(atPath: leftover))
    }

    @Test func inASharedFolderAnUnreferencedOriginalGoesOnlyAfterItsGrace() throws {
        defer { folder.remove() }
        // Another computer's original, arrived before the state that names it; kept by an earlier run here.
        let arrived = try OriginalsStore(directory: store.directory).keep(Data("from the laptop".utf8))
        let record = folder.url.appendingPathComponent("state/unreferenced-originals.json")
        let week: TimeInterval = 7 * 24 * 3600
        let launch = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(store.prune(keeping: [], unreferencedFor: week, record: record, now: launch) == 0)
        #expect(store.condition(of: arrived) == .intact)
        // Six days later it is still waiting; once the state names it, it is no longer counted.
        #expect(store.prune(keeping: [], unreferencedFor: week, record: record, now: launch + 6 * 24 * 3600) == 0)
        #expect(store.prune(keeping: [arrived], unreferencedFor: week, record: record, now: launch + week) == 0)
        #expect(store.prune(keeping: [], unreferencedFor: week, record: record, now: launch + week + 1) == 0)
        #expect(store.condition(of: arrived) == .intact)
        // Unreferenced a whole week: it goes.
        #expect(store.prune(keeping: [], unreferencedFor: week, record: record, now: launch + 2 * week + 1) == 1)
        #expect(store.condition(of: arrived) == .missing)
    }

    @Test func aRecordThePreviousVersionWroteIsRead() throws {
        defer { folder.remove() }
        let arrived = try OriginalsStore(directory: store.directory).keep(Data("from the laptop".utf8))
        let record = folder.url.appendingPathComponent("state/unreferenced-originals.json")
        try FileManager.default.createDirectory(
            at: record.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Foundation's `JSONSerialization` wrote it, on one line.
        try Data(#"{"\#(arrived)":1800000000.25}"#.utf8).write(to: record)
        let week: TimeInterval = 7 * 24 * 3600
        let launch = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(store.prune(keeping: [], unreferencedFor: week, record: record, now: launch + week) == 0)
        #expect(store.prune(keeping: [], unreferencedFor: week, record: record, now: launch + week + 1) == 1)
        #expect(store.condition(of: arrived) == .missing)
    }

    @Test func aFolderThatCannotBeWrittenFailsTheKeepAndLeavesNoFile() throws {
        defer { folder.remove() }
        // A file where the store's folder should be: every write fails (as a full disk does, with ENOTDIR).
        let blocked = OriginalsStore(directory: folder.url.appendingPathComponent("blocked"))
        _ = FileManager.default.createFile(atPath: blocked.directory.path, contents: Data([0]))
        #expect(throws: FileError.self) { try blocked.keep(Data([1, 2, 3])) }
        #expect(blocked.list().isEmpty)
        #expect(blocked.existingPath(for: Checksum.sha256(Data([1, 2, 3]))) == nil)
    }

    /// A state with one image for each original named.
    private func state(naming originals: [String], gallery name: String = "Kept") -> GalleryState {
        GalleryState(galleries: [
            Gallery(
                id: "g", name: name,
                images: originals.enumerated().map { index, sha256 in
                    var image = GalleryImage(
                        id: ImageID("i\(index)"), url: "https://example.org/\(index).jpg", aspectRatio: 1)
                    image.original = KeptOriginal(
                        sha256: sha256, byteCount: 1, pixelWidth: 1, pixelHeight: 1, format: "jpeg")
                    return image
                })
        ])
    }

    @Test func originalsAreFlushedTogetherBeforeTheFirstEditThatNamesThemIsWritten() throws {
        defer { folder.remove() }
        let library = folder.url.appendingPathComponent("library")
        let named = Mutex<[String]>([])
        // The journal's logs, all of them: what the library on disk names.
        let logged: @Sendable () -> String = {
            let journal = library.appendingPathComponent(JournalLogFile.folderName)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: journal.path)) ?? []
            return names.map { (try? String(contentsOf: journal.appendingPathComponent($0), encoding: .utf8)) ?? "" }
                .joined()
        }
        // What each save's flush found: how many files it put on the disk, and whether the journal named them already.
        let flushes = Mutex<[(flushed: Int, journalNamedThem: Bool)]>([])
        // The saver's writes (the first snapshot among them) end before the folder goes.
        let writes = DispatchGroup()
        defer { writes.wait() }
        let saver = try JournalSaver(
            library: LibraryFolder.open(library, creating: true),
            stateFolder: folder.url.appendingPathComponent("state"),
            runInBackground: { wait, work in
                writes.enter()
                JournalSaver.onThreadOfItsOwn(wait) {
                    work()
                    writes.leave()
                }
            },
            onError: { Issue.record("\($0)") },
            beforeWrite: { [store] in
                let flushed = try store.makeDurable()
                let text = logged()
                let journalNamedThem = named.withLock { $0.contains { text.contains($0) } }
                flushes.withLock { $0.append((flushed, journalNamedThem)) }
            })
        let kept = try (0..<3).map { try store.keep(Data("picture \($0)".utf8)) }
        named.withLock { $0 = kept }
        saver.save(state(naming: kept))
        #expect(saver.flush() == nil)
        // A save that names nothing new waits for no original.
        saver.save(state(naming: kept, gallery: "Renamed"))
        #expect(saver.flush() == nil)
        let seen = flushes.withLock { $0 }
        #expect(seen.map(\.flushed) == [3, 0])
        #expect(seen.map(\.journalNamedThem) == [false, true])
        let text = logged()
        #expect(kept.allSatisfy { text.contains($0) })
        // Bytes an earlier run kept (and flushed) are neither written nor flushed again.
        let relaunched = OriginalsStore(directory: store.directory)
        try relaunched.keep(Data("picture 1".utf8))
        #expect(try relaunched.makeDurable() == 0)
    }

    @Test func everyOriginalIsFlushedOnceHoweverManyWritersAndFlushesRunAtOnce() throws {
        defer { folder.remove() }
        let flushed = Mutex(0)
        // Four writers, each flushing after every keep as a save would: each file is flushed by one of them.
        DispatchQueue.concurrentPerform(iterations: 4) { writer in
            for picture in 0..<25 {
                do {
                    try store.keep(Data("writer \(writer), picture \(picture)".utf8))
                    let count = try store.makeDurable()
                    flushed.withLock { $0 += count }
                } catch {
                    Issue.record("\(error)")
                }
            }
        }
        #expect(flushed.withLock { $0 } == 100)
        #expect(try store.makeDurable() == 0)
        #expect(store.list().count == 100)
    }

    @Test func anOriginalThatCannotBeWrittenIsReportedAndLeftOutOfTheNextFlush() throws {
        defer { folder.remove() }
        let bytes = Data("a picture the disk has no room for".utf8)
        let sha256 = Checksum.sha256(bytes)
        // A file where its folder should be: the write fails, as on a full disk.
        try FileWriter.makeFolders(store.directory.path)
        #expect(FileManager.default.createFile(atPath: store.directory.path + "/" + sha256.prefix(2), contents: Data()))
        let other = try store.keep(Data("a picture with room".utf8))
        #expect(throws: FileError.self) { try store.keep(bytes) }
        #expect(store.existingPath(for: sha256) == nil)
        #expect(try store.makeDurable() == 1)
        #expect(store.condition(of: other) == .intact)
    }
}
