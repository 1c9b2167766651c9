import Foundation
import Synchronization
import Testing

@testable import GalleryCore

/// A fresh directory under the system temporary directory, removed by `cleanUp()`.
private struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("gallery-store-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func cleanUp() { try? FileManager.default.removeItem(at: url) }

    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }
}

private func sampleState() -> GalleryState {
    GalleryState(galleries: [
        Gallery(
            id: "g1", name: "Holidays",
            images: [
                GalleryImage(id: ImageID("a"), url: "file:///home/me/Pictures/a%20b.jpg", aspectRatio: 1.5),
                GalleryImage(id: ImageID("b"), url: "https://example.org/img/cat.png?x=1&y=2", aspectRatio: 0.75),
                GalleryImage(id: ImageID("c"), url: "data:image/png;base64,iVBORw0KGgo=", aspectRatio: 1),
            ]),
        Gallery(id: "g2", name: "Ünïcødé \"quoted\"", images: []),
    ])
}

private func loadedState(_ result: StateStore.LoadResult) -> GalleryState? {
    if case .loaded(let state) = result { return state }
    return nil
}

private func keptAt(_ result: StateStore.LoadResult) -> URL? {
    if case .unreadable(_, let url) = result { return url }
    return nil
}

private func matches(_ name: String, pattern: String) -> Bool {
    name.range(of: pattern, options: .regularExpression) != nil
}

@Suite struct StateStoreTests {
    @Test func roundTrip() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let store = StateStore(fileURL: dir.url.appendingPathComponent("state.json"))
        let state = sampleState()
        try store.save(state)
        let loaded = try #require(loadedState(store.load()))
        #expect(loaded == state)
        #expect(loaded.galleries[0].images.map(\.id.rawValue) == ["a", "b", "c"])
        #expect(loaded.galleries[1].name == "Ünïcødé \"quoted\"")
    }

    @Test func fileIsJSONWithExactlyTheDocumentedKeys() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let store = StateStore(fileURL: dir.url.appendingPathComponent("state.json"))
        try store.save(sampleState())
        let data = try Data(contentsOf: store.fileURL)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(root.keys) == ["version", "galleries"])
        #expect(root["version"] as? Int == 1)
        let galleries = try #require(root["galleries"] as? [[String: Any]])
        #expect(galleries.count == 2)
        #expect(Set(galleries[0].keys) == ["id", "name", "images"])
        #expect(galleries[0]["name"] as? String == "Holidays")
        let images = try #require(galleries[0]["images"] as? [[String: Any]])
        #expect(images.count == 3)
        for image in images { #expect(Set(image.keys) == ["id", "url", "aspectRatio"]) }
        // The id is a plain string, not a wrapped object.
        #expect(images[0]["id"] as? String == "a")
        #expect(images[1]["url"] as? String == "https://example.org/img/cat.png?x=1&y=2")
        #expect(images[0]["aspectRatio"] as? Double == 1.5)
        #expect(images[1]["aspectRatio"] as? Double == 0.75)
        // Slashes are not escaped (readable file).
        #expect(String(decoding: data, as: UTF8.self).contains("https://example.org/img/cat.png"))
    }

    @Test func saveIsAtomicAndReplacesTheOldFile() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let fileURL = dir.url.appendingPathComponent("state.json")
        try Data("old contents".utf8).write(to: fileURL)
        let store = StateStore(fileURL: fileURL)
        var state = sampleState()
        try store.save(state)
        #expect(try dir.contents() == ["state.json"])
        #expect(loadedState(store.load()) == state)

        state.galleries[0].images.removeFirst()
        try store.save(state)
        try store.save(state)
        #expect(try dir.contents() == ["state.json"])  // no leftover .state.json.*.tmp
        #expect(loadedState(store.load()) == state)
        #expect(try Data(contentsOf: fileURL) == StateStore.encode(state))
    }

    @Test func loadOfMissingFileIsMissing() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let store = StateStore(fileURL: dir.url.appendingPathComponent("state.json"))
        #expect(store.load() == .missing)
        // A missing directory too.
        let deeper = StateStore(fileURL: dir.url.appendingPathComponent("no/such/dir/state.json"))
        #expect(deeper.load() == .missing)
        #expect(try dir.contents().isEmpty)
    }

    @Test func emptyGalleryListLoadsAsInitial() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let fileURL = dir.url.appendingPathComponent("state.json")
        try Data(#"{"version": 1, "galleries": []}"#.utf8).write(to: fileURL)
        let loaded = try #require(loadedState(StateStore(fileURL: fileURL).load()))
        #expect(loaded.galleries.count == 1)
        #expect(loaded.galleries[0].images.isEmpty)
        #expect(loaded.version == 1)
    }

    @Test func corruptFileIsKeptAside() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let fileURL = dir.url.appendingPathComponent("state.json")
        let original = Data("{not json".utf8)
        try original.write(to: fileURL)
        let store = StateStore(fileURL: fileURL)
        let result = store.load(now: Date(timeIntervalSince1970: 1_700_000_000))
        let kept = try #require(keptAt(result))
        #expect(kept.lastPathComponent == "state.json.corrupt-1700000000")
        #expect(matches(kept.lastPathComponent, pattern: #"^state\.json\.corrupt-[0-9]+$"#))
        #expect(kept.deletingLastPathComponent().standardizedFileURL.path == dir.url.standardizedFileURL.path)
        #expect(try Data(contentsOf: kept) == original)
        #expect(!FileManager.default.fileExists(atPath: fileURL.path))
        #expect(try dir.contents() == ["state.json.corrupt-1700000000"])
        // With the bad file out of the way, the next load is a first launch, and saving is safe.
        #expect(store.load() == .missing)
        try store.save(sampleState())
        #expect(try Data(contentsOf: kept) == original)
    }

    @Test func corruptFileWithDefaultClockIsNamedWithDigits() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let fileURL = dir.url.appendingPathComponent("state.json")
        try Data([0xFF, 0x00, 0x7B]).write(to: fileURL)
        let kept = try #require(keptAt(StateStore(fileURL: fileURL).load()))
        #expect(matches(kept.lastPathComponent, pattern: #"^state\.json\.corrupt-[0-9]+$"#))
        #expect(try Data(contentsOf: kept) == Data([0xFF, 0x00, 0x7B]))
    }

    @Test func wrongShapeIsKeptAside() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let fileURL = dir.url.appendingPathComponent("state.json")
        let original = Data(#"{"version": 1, "galleries": [{"id": "g", "name": "x", "images": [{"url": 3}]}]}"#.utf8)
        try original.write(to: fileURL)
        let kept = try #require(keptAt(StateStore(fileURL: fileURL).load(now: Date(timeIntervalSince1970: 5))))
        #expect(kept.lastPathComponent == "state.json.corrupt-5")
        #expect(try Data(contentsOf: kept) == original)
    }

    @Test func newerVersionIsKeptAside() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let fileURL = dir.url.appendingPathComponent("state.json")
        let original = Data(#"{"version": 99, "galleries": [{"id": "g", "name": "Future", "images": []}]}"#.utf8)
        try original.write(to: fileURL)
        let result = StateStore(fileURL: fileURL).load(now: Date(timeIntervalSince1970: 1_234_567_890))
        guard case .unreadable(let reason, let kept) = result else {
            Issue.record("expected .unreadable, got \(result)")
            return
        }
        #expect(reason.contains("99"))
        #expect(kept.lastPathComponent == "state.json.corrupt-1234567890")
        #expect(try Data(contentsOf: kept) == original)
        #expect(!FileManager.default.fileExists(atPath: fileURL.path))
    }

    @Test func twoCorruptLoadsInTheSameSecondKeepBothCopies() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let fileURL = dir.url.appendingPathComponent("state.json")
        let store = StateStore(fileURL: fileURL)
        let now = Date(timeIntervalSince1970: 1_700_000_123.25)
        try Data("{not json".utf8).write(to: fileURL)
        let first = try #require(keptAt(store.load(now: now)))
        try Data("{still not json".utf8).write(to: fileURL)
        let second = try #require(keptAt(store.load(now: now.addingTimeInterval(0.5))))
        try Data("third".utf8).write(to: fileURL)
        let third = try #require(keptAt(store.load(now: now)))
        #expect(Set([first, second, third].map(\.lastPathComponent)).count == 3)
        #expect(first.lastPathComponent == "state.json.corrupt-1700000123")
        #expect(second.lastPathComponent.hasPrefix("state.json.corrupt-1700000123"))
        #expect(try Data(contentsOf: first) == Data("{not json".utf8))
        #expect(try Data(contentsOf: second) == Data("{still not json".utf8))
        #expect(try Data(contentsOf: third) == Data("third".utf8))
        #expect(try dir.contents().count == 3)
    }

    @Test func saveCreatesMissingDirectories() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let fileURL = dir.url.appendingPathComponent("data/image-gallery/state.json")
        let store = StateStore(fileURL: fileURL)
        try store.save(sampleState())
        #expect(loadedState(store.load()) == sampleState())
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: fileURL.deletingLastPathComponent().path)
                == ["state.json"])
    }

    @Test func saveUnderARegularFileThrows() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let blocker = dir.url.appendingPathComponent("blocker")
        try Data("I am a file".utf8).write(to: blocker)
        let store = StateStore(fileURL: blocker.appendingPathComponent("state.json"))
        #expect(throws: (any Error).self) { try store.save(sampleState()) }
        #expect(try Data(contentsOf: blocker) == Data("I am a file".utf8))
        #expect(try dir.contents() == ["blocker"])
    }

    @Test func failedSaveLeavesTheOldFileIntact() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        // A name that fits but whose temporary sibling (".<name>.<uuid>.tmp") exceeds NAME_MAX, so the
        // write fails after the directory exists, even for root (which ignores permission bits).
        let name = String(repeating: "s", count: 230) + ".json"
        let fileURL = dir.url.appendingPathComponent(name)
        let store = StateStore(fileURL: fileURL)
        let old = sampleState()
        try StateStore.encode(old).write(to: fileURL)
        var newer = old
        newer.galleries[0].images = []
        #expect(throws: StateStore.SaveError.self) { try store.save(newer) }
        #expect(loadedState(store.load()) == old)
        #expect(try dir.contents() == [name])
    }

    @Test func xdgDirectoriesHonourTheEnvironment() {
        let set = XDGDirectories(environment: [
            "HOME": "/home/u", "XDG_DATA_HOME": "/d/data", "XDG_CACHE_HOME": "/c/cache",
        ])
        #expect(set.dataHome.path == "/d/data")
        #expect(set.cacheHome.path == "/c/cache")

        let unset = XDGDirectories(environment: ["HOME": "/home/u"])
        #expect(unset.dataHome.path == "/home/u/.local/share")
        #expect(unset.cacheHome.path == "/home/u/.cache")

        // Relative (and empty) values are invalid per the spec and ignored.
        let relative = XDGDirectories(environment: [
            "HOME": "/home/u", "XDG_DATA_HOME": "rel/data", "XDG_CACHE_HOME": "",
        ])
        #expect(relative.dataHome.path == "/home/u/.local/share")
        #expect(relative.cacheHome.path == "/home/u/.cache")

        let mixed = XDGDirectories(environment: [
            "HOME": "/home/u", "XDG_CACHE_HOME": "./cache", "XDG_DATA_HOME": "/abs",
        ])
        #expect(mixed.dataHome.path == "/abs")
        #expect(mixed.cacheHome.path == "/home/u/.cache")
    }

    @Test func theLibrarysStateFileFollowsXDGDataHome() {
        let moved = XDGDirectories(environment: ["HOME": "/home/u", "XDG_DATA_HOME": "/x/share"])
        #expect(StateStore.library(LibraryPaths(moved)).fileURL.path == "/x/share/image-gallery/state.json")
        #expect(StateStore.library(LibraryPaths(moved)).followsLink)
        #expect(
            StateStore.library(LibraryPaths(XDGDirectories(environment: ["HOME": "/home/u"]))).fileURL.path
                == "/home/u/.local/share/image-gallery/state.json")
    }
}

/// Collects error messages from the saver's queue.
private final class ErrorLog: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []

    func append(_ message: String) {
        lock.lock()
        messages.append(message)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return messages
    }
}
