import Foundation
import Synchronization
import Testing

@testable import GalleryCore

private func image(_ id: String, note: String? = nil, tags: [String] = []) -> GalleryImage {
    var image = GalleryImage(id: ImageID(id), url: "https://e.org/\(id).png", aspectRatio: 1)
    image.note = note
    image.tags = tags
    return image
}

private func images(_ ids: String) -> [GalleryImage] { ids.split(separator: " ").map { image(String($0)) } }

/// Two galleries, G (a b c d) and K (k1 k2), as both computers last shared them.
private let base = GalleryState(galleries: [
    Gallery(id: "g", name: "G", images: ["a", "b", "c", "d"].map { image($0) }),
    Gallery(id: "k", name: "K", images: ["k1", "k2"].map { image($0) }),
])

/// The merge each computer makes of the other's file: both must be the same.
private func mergedBothWays(_ one: GalleryState, _ other: GalleryState, base: GalleryState = base) -> GalleryState {
    let merged = GalleryState.merged(base: base, theirs: one, ours: other)
    let converse = GalleryState.merged(base: base, theirs: other, ours: one)
    #expect(merged == converse, "the two computers merge differently")
    return merged
}

private func ids(_ state: GalleryState, _ galleryID: String) -> [String] {
    state.galleries.first { $0.id == galleryID }?.images.map(\.id.rawValue) ?? []
}

private func edited(_ edit: (inout GalleryState) -> Void) -> GalleryState {
    var state = base
    edit(&state)
    return state
}

@Suite("Two computers' edits merged")
struct SyncMergeTests {
    @Test func imagesAddedOnBothSidesAreAllIn() {
        let one = edited { $0.galleries[0].images.append(image("x")) }
        let other = edited {
            $0.galleries[0].images.insert(image("y"), at: 0)
            $0.galleries[1].images.append(image("z"))
        }
        let merged = mergedBothWays(one, other)
        #expect(ids(merged, "g") == ["y", "a", "b", "c", "d", "x"])
        #expect(ids(merged, "k") == ["k1", "k2", "z"])
    }

    @Test func aMoveOnOneSideAndADeleteOnTheOtherAreBothKept() {
        let one = edited { $0.galleries[0].images = images("d a b c") }
        let other = edited { $0.galleries[0].images.remove(at: 1) }  // b deleted
        #expect(ids(mergedBothWays(one, other), "g") == ["d", "a", "c"])
    }

    @Test func concurrentReordersOfOneGalleryKeepEachSidesMoves() {
        let one = edited { $0.galleries[0].images = images("b c d a") }
        let other = edited { $0.galleries[0].images = images("c a b d") }  // c first
        #expect(ids(mergedBothWays(one, other), "g") == ["c", "b", "d", "a"])
    }

    @Test func aCopyIntoAnotherGalleryAndANoteOnTheOriginalAreBothKept() {
        let one = edited { state in
            var copy = state.galleries[0].images[0]
            copy.id = ImageID("a-copy")
            state.galleries[1].images.append(copy)
        }
        let other = edited { $0.galleries[0].images[0].note = "the first" }
        let merged = mergedBothWays(one, other)
        #expect(ids(merged, "k") == ["k1", "k2", "a-copy"])
        #expect(merged.galleries[0].images[0].note == "the first")
    }

    @Test func anImageMovedToAnotherGalleryTakesTheOtherSidesNoteAlong() {
        let one = edited { state in
            let moved = state.galleries[0].images.remove(at: 2)  // c into K
            state.galleries[1].images.append(moved)
        }
        let other = edited { $0.galleries[0].images[2].note = "kept for the light" }
        let merged = mergedBothWays(one, other)
        #expect(ids(merged, "g") == ["a", "b", "d"])
        #expect(ids(merged, "k") == ["k1", "k2", "c"])
        #expect(merged.galleries[1].images[2].note == "kept for the light")
    }

    @Test func notesWrittenOnBothSidesAreBothKept() {
        let one = edited { $0.galleries[0].images[0].note = "from the laptop" }
        let other = edited { $0.galleries[0].images[0].note = "from the desktop" }
        #expect(mergedBothWays(one, other).galleries[0].images[0].note == "from the desktop\n\nfrom the laptop")
    }

    @Test func tagsAddedOnOneSideAndRemovedOnTheOtherAreBothApplied() {
        let tagged = edited { $0.galleries[0].images[0].tags = ["red", "sea"] }
        var one = tagged
        one.galleries[0].images[0].tags.append("night")
        var other = tagged
        other.galleries[0].images[0].tags.removeAll { $0 == "red" }
        #expect(mergedBothWays(one, other, base: tagged).galleries[0].images[0].tags == ["sea", "night"])
    }

    @Test func aDeleteAgainstAnEditOfTheSameImageKeepsTheEditedImage() {
        let one = edited { $0.galleries[0].images.remove(at: 0) }
        let other = edited { $0.galleries[0].images[0].note = "do not lose me" }
        let merged = mergedBothWays(one, other)
        #expect(ids(merged, "g") == ["a", "b", "c", "d"])
        #expect(merged.galleries[0].images[0].note == "do not lose me")
        // What the app records by itself (the image's kept original, its shape) saves nothing from a delete.
        let recorded = edited { $0.galleries[0].images[0].aspectRatio = 1.5 }
        #expect(ids(mergedBothWays(one, recorded), "g") == ["b", "c", "d"])
    }

    @Test func aKeptOriginalRecordedOnOneSideAndANoteAndTagsOnTheOtherAllReachTheImage() {
        let original = KeptOriginal(
            sha256: String(repeating: "a", count: 64), byteCount: 3, pixelWidth: 2, pixelHeight: 1, format: "png")
        let one = edited { state in
            state.galleries[0].images[1].original = original
            state.galleries[0].images[1].origin = ImageOrigin(arrival: .drop, page: "https://e.org/page")
        }
        let other = edited { state in
            state.galleries[0].images[1].note = "the harbour"
            state.galleries[0].images[1].tags = ["sea"]
        }
        let image = mergedBothWays(one, other).galleries[0].images[1]
        #expect(image.original == original)
        #expect(image.origin?.page == "https://e.org/page")
        #expect(image.note == "the harbour")
        #expect(image.tags == ["sea"])
    }

    @Test func aWritesLineageTravelsThroughTheFileFormatWithTheNewImageFields() throws {
        var state = base
        state.galleries[0].images[0].note = "n"
        state.galleries[0].images[0].tags = ["t"]
        state.galleries[0].images[0].origin = ImageOrigin(arrival: .paste)
        let lineage = Lineage(revision: "r2", takenIn: [Lineage(revision: "r1", takenIn: [])])
        let text = String(decoding: StateFileFormat.encode(lineage.stamped(state)), as: UTF8.self)
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(fields["revision"] as? String == "r2")
        #expect(fields["ancestors"] as? [String] == ["r1"])
        let (read, readLineage) = Lineage.split(try StateFileFormat.decode(Data(text.utf8)))
        #expect(read == state)
        #expect(readLineage == lineage)
    }

    @Test func galleriesCreatedOnBothSidesAreBothInTheSameOrder() {
        let one = edited { $0.galleries.append(Gallery(id: "n1", name: "Laptop's")) }
        let other = edited { $0.galleries.append(Gallery(id: "n2", name: "Desktop's")) }
        let merged = mergedBothWays(one, other).galleries.map(\.id)
        #expect(merged.count == 4 && Set(merged) == ["g", "k", "n1", "n2"] && merged.starts(with: ["g", "k"]))
    }

    @Test func aRenameAndAReorderOfGalleriesAreBothKept() {
        let one = edited { $0.galleries[0].name = "Sea" }
        let other = edited { $0.galleries.reverse() }
        let merged = mergedBothWays(one, other)
        #expect(merged.galleries.map(\.name) == ["K", "Sea"])
    }

    @Test func twoRenamesOfOneGalleryEndTheSameOnBothSides() {
        let one = edited { $0.galleries[0].name = "Sea" }
        let other = edited { $0.galleries[0].name = "Ocean" }
        #expect(["Sea", "Ocean"].contains(mergedBothWays(one, other).galleries[0].name))
    }

    @Test func aGalleryDeletedOnOneSideGoesUnlessTheOtherChangedIt() {
        let deleted = edited { $0.galleries.remove(at: 1) }
        let untouched = edited { $0.galleries[0].images.append(image("x")) }
        #expect(mergedBothWays(deleted, untouched).galleries.map(\.id) == ["g"])
        let changed = edited { $0.galleries[1].images.append(image("k3")) }
        #expect(ids(mergedBothWays(deleted, changed), "k") == ["k1", "k2", "k3"])
    }

    @Test func withNoCommonStateEverythingEitherSideHasIsKept() {
        let one = GalleryState(galleries: [Gallery(id: "g", name: "G", images: [image("a"), image("b")])])
        let other = GalleryState(galleries: [Gallery(id: "g", name: "G", images: [image("b"), image("c")])])
        let merged = GalleryState.merged(theirs: one, ours: other)
        #expect(merged == GalleryState.merged(theirs: other, ours: one))
        #expect(Set(ids(merged, "g")) == ["a", "b", "c"])
    }

    @Test func whatCameInIsSaidInASentence() {
        let after = edited { $0.galleries[0].images += (0..<12).map { image("new\($0)") } }
        #expect(IncomingChanges(before: base, after: after).message == "12 images added on another computer")
        let one = edited { $0.galleries[0].images.removeFirst() }
        #expect(IncomingChanges(before: base, after: one).message == "1 image deleted on another computer")
    }
}

/// A folder a sync tool writes into, with a saver that runs each write at once on the caller's thread, and keeps what it
/// asks to run later until the test runs it (`runWaiting`).
private final class SyncedFolder: Sendable {
    let directory: URL
    let file: URL
    let merges = Mutex<[GalleryState]>([])
    let copiesMerged = Mutex(0)
    let errors = Mutex<[String]>([])
    let waiting = Mutex<[(after: Duration, work: @Sendable () -> Void)]>([])

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "synced-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        file = directory.appendingPathComponent("state.json")
    }

    func saver(
        loaded: GalleryState, loadedRevision: StateStore.Revision?? = nil, patience: TimeInterval = 600,
        localFolder: URL? = nil
    ) -> BackgroundStateSaver {
        BackgroundStateSaver(
            store: StateStore(fileURL: file), loaded: loaded, loadedRevision: loadedRevision,
            runInBackground: { [self] wait, work in
                guard wait > .zero else { return work() }
                waiting.withLock { $0.append((wait, work)) }
            }, patience: patience,
            localFolder: localFolder,
            onError: { [self] message in errors.withLock { $0.append(message) } },
            onMerged: { [self] merged, _ in merges.withLock { $0.append(merged) } },
            onConflictCopiesMerged: { [self] count in copiesMerged.withLock { $0 += count } })
    }

    /// What another computer's sync tool puts in the folder.
    func write(_ state: GalleryState, as name: String = "state.json") throws {
        try StateStore.encode(state).write(to: directory.appendingPathComponent(name))
    }

    var onDisk: GalleryState? {
        guard let data = try? Data(contentsOf: file) else { return nil }
        return (try? StateStore.decode(data)).map { Lineage.split($0).state }
    }

    /// How long each piece of work asked to run later was to wait.
    var waits: [Duration] { waiting.withLock { $0.map(\.after) } }

    /// Runs what was asked to run later, as if its time had come.
    func runWaiting() {
        let due = waiting.withLock { waiting in
            defer { waiting = [] }
            return waiting
        }
        for item in due { item.work() }
    }

    var names: [String] { (try? FileManager.default.contentsOfDirectory(atPath: directory.path))?.sorted() ?? [] }
}

@Suite("A library in a synced folder")
struct SyncedFolderTests {
    @Test func anotherComputersFileIsTakenInWithoutBeingWrittenBack() throws {
        let folder = try SyncedFolder()
        try StateStore(fileURL: folder.file).save(base)
        let saver = folder.saver(loaded: base)
        let theirs = edited { $0.galleries[0].images.append(image("x")) }
        try folder.write(theirs)
        let revision = StateStore(fileURL: folder.file).revision()
        saver.takeInChanges()
        #expect(folder.merges.withLock { $0 } == [theirs])
        #expect(StateStore(fileURL: folder.file).revision() == revision)
        // Nothing more came: a second look merges nothing.
        saver.takeInChanges()
        #expect(folder.merges.withLock { $0.count } == 1)
    }

    @Test func aConflictCopyIsMergedIntoTheFileAndRemoved() throws {
        let folder = try SyncedFolder()
        try StateStore(fileURL: folder.file).save(base)
        let saver = folder.saver(loaded: base)
        let ours = edited { $0.galleries[0].images.append(image("ours")) }
        saver.save(ours)
        // The sync tool keeps the other computer's version as the file and ours beside it.
        let theirs = edited {
            $0.galleries[0].images.remove(at: 0)
            $0.galleries.append(Gallery(id: "n", name: "New"))
        }
        try folder.write(ours, as: "state.sync-conflict-20261126-231500-ABCDEFG.json")
        try folder.write(theirs)
        saver.takeInChanges()
        let onDisk = try #require(folder.onDisk)
        #expect(ids(onDisk, "g") == ["b", "c", "d", "ours"])
        #expect(onDisk.galleries.map(\.id) == ["g", "k", "n"])
        #expect(folder.names.filter { $0.contains("sync-conflict") }.isEmpty)
        #expect(folder.copiesMerged.withLock { $0 } == 1)
        #expect(folder.merges.withLock { $0.last } == onDisk)
    }

    @Test func aHalfWrittenFileIsWaitedForNotOverwritten() throws {
        let folder = try SyncedFolder()
        try StateStore(fileURL: folder.file).save(base)
        let saver = folder.saver(loaded: base)
        let half = Data(StateStore.encode(base).prefix(20))
        try half.write(to: folder.file)
        let ours = edited { $0.galleries[0].images.append(image("ours")) }
        saver.save(ours)
        #expect(saver.flush() != nil)
        #expect(try Data(contentsOf: folder.file) == half)
        // The save and the flush each try again a second later.
        #expect(folder.waits == [.seconds(1), .seconds(1)])
        // The writer finishes: the next try writes both sides' edits.
        try folder.write(edited { $0.galleries[1].name = "Theirs" })
        folder.runWaiting()
        #expect(folder.waits.isEmpty)
        let onDisk = try #require(folder.onDisk)
        #expect(ids(onDisk, "g").last == "ours")
        #expect(onDisk.galleries[1].name == "Theirs")
    }

    @Test func aMissingFileIsNotRecreatedUntilItStaysMissing() throws {
        let folder = try SyncedFolder()
        try StateStore(fileURL: folder.file).save(base)
        let waiting = folder.saver(loaded: base)
        try FileManager.default.removeItem(at: folder.file)
        waiting.save(edited { $0.galleries[0].name = "Ours" })
        #expect(waiting.flush() != nil)
        #expect(!FileManager.default.fileExists(atPath: folder.file.path))
        // Without patience (gone for good, not in transit) the library is written again.
        try StateStore(fileURL: folder.file).save(base)
        let impatient = folder.saver(loaded: base, patience: 0)
        try FileManager.default.removeItem(at: folder.file)
        impatient.save(edited { $0.galleries[0].name = "Ours" })
        #expect(impatient.flush() == nil)
        #expect(folder.onDisk?.galleries[0].name == "Ours")
    }

    @Test func aFileFromANewerVersionIsNeverWrittenOver() throws {
        let folder = try SyncedFolder()
        try StateStore(fileURL: folder.file).save(base)
        let saver = folder.saver(loaded: base)
        var newer = base
        newer.version = GalleryState.currentVersion + 1
        try folder.write(newer)
        let written = try Data(contentsOf: folder.file)
        saver.save(edited { $0.galleries[0].name = "Ours" })
        let reason = try #require(saver.flush())
        #expect(reason.contains("newer version"))
        #expect(try Data(contentsOf: folder.file) == written)
        #expect(!folder.errors.withLock { $0 }.isEmpty)
    }

    @Test func launchesThatReadTheSameFileKeepOneCopyOfIt() throws {
        let folder = try SyncedFolder()
        let local = folder.directory.appendingPathComponent("local", isDirectory: true)
        try StateStore(fileURL: folder.file).save(Lineage(revision: "shared", takenIn: []).stamped(base))
        // Each launch reads the folder again after its first frame (`takeInChanges`).
        for _ in 0..<3 { folder.saver(loaded: base, localFolder: local).takeInChanges() }
        let copies = try FileManager.default.contentsOfDirectory(atPath: local.path).filter {
            $0.hasPrefix("last-read")
        }
        #expect(copies.count == 1)
        // A file from elsewhere is still kept beside it.
        let theirs = edited { $0.galleries[0].images.append(image("x")) }
        try folder.write(Lineage(revision: "theirs", takenIn: []).stamped(theirs))
        folder.saver(loaded: theirs, localFolder: local).takeInChanges()
        let after = try FileManager.default.contentsOfDirectory(atPath: local.path).filter { $0.hasPrefix("last-read") }
        #expect(after.count == 2)
    }

    @Test func aWriteASyncToolReplacedWhileTheAppWasDownIsMergedBackAtTheNextLaunch() throws {
        let laptop = try SyncedFolder()
        let desktop = try SyncedFolder()
        let local = laptop.directory.appendingPathComponent("local", isDirectory: true)
        // The library as both computers had it, as the app writes it: with its revision.
        let shared = Lineage(revision: "shared", takenIn: []).stamped(base)
        try StateStore(fileURL: laptop.file).save(shared)
        try StateStore(fileURL: desktop.file).save(shared)
        let ours = edited { $0.galleries[0].images.append(image("laptop's")) }
        laptop.saver(loaded: base, localFolder: local).save(ours)
        let theirs = edited { $0.galleries[0].images.remove(at: 0) }
        desktop.saver(loaded: base).save(theirs)
        // The laptop's app is killed; its sync tool puts the desktop's file over the laptop's, keeping no copy.
        try FileManager.default.removeItem(at: laptop.file)
        try FileManager.default.copyItem(at: desktop.file, to: laptop.file)
        // The launch's first look at the folder (the app's after its first frame).
        laptop.saver(loaded: theirs, localFolder: local).takeInChanges()
        let onDisk = try #require(laptop.onDisk)
        #expect(ids(onDisk, "g") == ["b", "c", "d", "laptop's"])
        #expect(laptop.merges.withLock { $0.last } == onDisk)
    }

    @Test func aFileASyncToolPutsOverTheLaunchsOwnBeforeItsSaverStartsIsMergedIn() throws {
        let laptop = try SyncedFolder()
        let desktop = try SyncedFolder()
        let local = laptop.directory.appendingPathComponent("local", isDirectory: true)
        let shared = Lineage(revision: "shared", takenIn: []).stamped(base)
        try StateStore(fileURL: laptop.file).save(shared)
        try StateStore(fileURL: desktop.file).save(shared)
        let ours = edited { $0.galleries[0].images.append(image("laptop's")) }
        laptop.saver(loaded: base, localFolder: local).save(ours)
        let theirs = edited { $0.galleries[0].images.remove(at: 0) }
        desktop.saver(loaded: base).save(theirs)
        // The laptop's app is killed and launched again: it reads its own last write...
        let store = StateStore(fileURL: laptop.file)
        let revision = store.revision()
        let loaded = try #require(store.load().state)
        #expect(ids(loaded, "g") == ["a", "b", "c", "d", "laptop's"])
        // ...and its sync tool puts the desktop's file over it, keeping no copy, before the launch's saver starts.
        try FileManager.default.removeItem(at: laptop.file)
        try FileManager.default.copyItem(at: desktop.file, to: laptop.file)
        laptop.saver(loaded: loaded, loadedRevision: revision, localFolder: local).takeInChanges()
        let onDisk = try #require(laptop.onDisk)
        #expect(ids(onDisk, "g") == ["b", "c", "d", "laptop's"])
        #expect(laptop.merges.withLock { $0.last } == onDisk)
    }
}
