import Foundation
import Testing

@testable import GalleryCore

/// In a folder the user chose, which another computer writes too, no link by the state's names (state.json, its
/// lock, a conflict copy) is followed; in the data folder, the user's own symlinked state.json still is.
@Suite struct StateStoreLinkTests {
    let library: URL
    let outside: URL

    init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("gallery-link-tests-\(UUID())")
        library = base.appendingPathComponent("library", isDirectory: true)
        outside = base.appendingPathComponent("outside", isDirectory: true)
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("a bystander's file".utf8).write(to: outside.appendingPathComponent("bystander"))
    }

    private func cleanUp() { try? FileManager.default.removeItem(at: library.deletingLastPathComponent()) }

    private func link(_ name: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(
            atPath: library.appendingPathComponent(name).path, withDestinationPath: target)
    }

    private func outsideNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: outside.path).sorted()
    }

    private func kind(_ name: String) throws -> FileAttributeType? {
        try FileManager.default.attributesOfItem(atPath: library.appendingPathComponent(name).path)[.type]
            as? FileAttributeType
    }

    private let state = GalleryState(galleries: [
        Gallery(
            id: "g", name: "Mine", images: [GalleryImage(id: ImageID("a"), url: "https://e.org/a.png", aspectRatio: 1)])
    ])

    @Test func aLinkedStateFileInAChosenFolderIsSetAsideAndNeverWrittenThrough() throws {
        defer { cleanUp() }
        let target = outside.appendingPathComponent("state.json")
        try StateStore(fileURL: target).save(state)
        let before = try Data(contentsOf: target)
        try link("state.json", to: target.path)
        let store = StateStore(fileURL: library.appendingPathComponent("state.json"), followsLink: false)
        #expect(store.read() == .failed(reason: StateStore.linkRefused))
        guard case .unreadable(_, let keptAt) = store.load() else { throw CancellationError() }
        #expect(keptAt.lastPathComponent.hasPrefix("state.json.corrupt-"))
        try store.save(state)
        #expect(try kind("state.json") == .typeRegular)
        #expect(try Data(contentsOf: target) == before)
        #expect(try outsideNames() == ["bystander", "state.json"])
    }

    @Test func theUsersOwnLinkedStateFileInTheDataFolderIsWrittenThrough() throws {
        defer { cleanUp() }
        let target = outside.appendingPathComponent("state.json")
        try link("state.json", to: target.path)
        let store = StateStore(fileURL: library.appendingPathComponent("state.json"))
        try store.save(state)
        #expect(try kind("state.json") == .typeSymbolicLink)
        #expect(StateStore(fileURL: target).read() == .loaded(state))
    }
}
