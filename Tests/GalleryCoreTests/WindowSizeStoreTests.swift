import Foundation
import Testing

@testable import GalleryCore

@Suite struct WindowSizeStoreTests {
    private func temporaryStore() throws -> WindowSizeStore {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("window-\(UUID().uuidString)")
        return WindowSizeStore(fileURL: folder.appendingPathComponent("image-gallery/window.json"))
    }

    @Test func theLastSizeIsKeptInTheStateFolderApartFromTheGalleries() throws {
        #expect(
            LibraryPaths(XDGDirectories(environment: ["HOME": "/home/u"])).windowSizeFile.path
                == "/home/u/.local/state/image-gallery/window.json")
        #expect(
            LibraryPaths(XDGDirectories(environment: ["HOME": "/home/u", "XDG_STATE_HOME": "/s"])).windowSizeFile.path
                == "/s/image-gallery/window.json")
        let store = try temporaryStore()
        #expect(store.load() == .standard)
        store.save(WindowSize(width: 1280, height: 1000, maximized: true))
        #expect(store.load() == WindowSize(width: 1280, height: 1000, maximized: true))
        store.save(WindowSize(width: 10, height: 10))
        #expect(store.load() == WindowSize(width: 1280, height: 1000, maximized: true))
    }

    @Test func theGalleryWidthIsKeptWhenKnownAndOlderFilesStillLoad() throws {
        let store = try temporaryStore()
        store.save(WindowSize(width: 1280, height: 1000, galleryWidth: 1040))
        #expect(store.load().galleryWidth == 1040)
        try Data(#"{"width":900,"height":700,"maximized":false}"#.utf8).write(to: store.fileURL)
        #expect(store.load() == WindowSize(width: 900, height: 700))
        #expect(store.load().galleryWidth == nil)
    }

    @Test func aFileThePreviousVersionWroteIsRead() throws {
        let store = try temporaryStore()
        try FileManager.default.createDirectory(
            at: store.fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Foundation's `JSONEncoder` wrote it, on one line and in its own order.
        try Data(#"{"maximized":true,"galleryWidth":1040,"height":1000,"width":1280}"#.utf8).write(to: store.fileURL)
        #expect(store.load() == WindowSize(width: 1280, height: 1000, maximized: true, galleryWidth: 1040))
        store.save(WindowSize(width: 1300, height: 1000))
        #expect(
            try String(contentsOf: store.fileURL, encoding: .utf8)
                == "{\n  \"height\" : 1000,\n  \"maximized\" : false,\n  \"width\" : 1300\n}")
    }

    @Test func nonsenseInTheFileGivesTheStandardSize() throws {
        let store = try temporaryStore()
        try FileManager.default.createDirectory(
            at: store.fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        for text in [#"{"width":-3,"height":10,"maximized":false}"#, #"{"width":900,"height":700}"#, "big", ""] {
            try Data(text.utf8).write(to: store.fileURL)
            #expect(store.load() == .standard)
        }
    }
}
