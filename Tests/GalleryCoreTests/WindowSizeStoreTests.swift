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
            WindowSizeStore.defaultFileURL(environment: ["HOME": "/home/u"]).path
                == "/home/u/.local/state/image-gallery/window.json")
        #expect(
            WindowSizeStore.defaultFileURL(environment: ["HOME": "/home/u", "XDG_STATE_HOME": "/s"]).path
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

    @Test func nonsenseInTheFileGivesTheStandardSize() throws {
        let store = try temporaryStore()
        try FileManager.default.createDirectory(
            at: store.fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        for text in [#"{"width":-3,"height":10,"maximized":false}"#, "big", ""] {
            try Data(text.utf8).write(to: store.fileURL)
            #expect(store.load() == .standard)
        }
    }
}
