import Foundation
import Testing

@testable import GalleryCore

@Suite struct LibraryPathsTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("paths-\(UUID().uuidString)")

    @Test func oneSetOfXDGFoldersGivesEveryPath() {
        let paths = LibraryPaths(
            XDGDirectories(environment: [
                "HOME": "/home/u", "XDG_DATA_HOME": "/d", "XDG_CONFIG_HOME": "/c", "XDG_STATE_HOME": "/s",
                "XDG_CACHE_HOME": "/k",
            ]))
        #expect(paths.dataFolder.path == "/d/image-gallery")
        #expect(paths.libraryFolder.path == "/d/image-gallery")
        #expect(paths.stateFile.path == "/d/image-gallery/state.json")
        #expect(paths.originals.path == "/d/image-gallery/originals")
        #expect(paths.imports.path == "/d/image-gallery/imported")
        #expect(paths.settingsFile.path == "/c/image-gallery/settings.json")
        #expect(paths.computerState.path == "/s/image-gallery")
        #expect(paths.windowSizeFile.path == "/s/image-gallery/window.json")
        #expect(paths.localAddressesFile.path == "/s/image-gallery/local-addresses.json")
        #expect(paths.unreferencedOriginalsFile.path == "/s/image-gallery/unreferenced-originals.json")
        #expect(paths.cacheFolder.path == "/k/image-gallery")
        #expect(!paths.location.isShareable)

        let fallbacks = LibraryPaths(XDGDirectories(environment: ["HOME": "/home/u"]))
        #expect(fallbacks.stateFile.path == "/home/u/.local/share/image-gallery/state.json")
        #expect(fallbacks.settingsFile.path == "/home/u/.config/image-gallery/settings.json")
        #expect(fallbacks.windowSizeFile.path == "/home/u/.local/state/image-gallery/window.json")
        #expect(fallbacks.cacheFolder.path == "/home/u/.cache/image-gallery")
    }

    @Test func aMovedLibraryTakesItsPathsAlongAndKeepsTheSettingsOtherFields() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let directories = XDGDirectories(environment: ["HOME": home.path])
        var paths = LibraryPaths(directories)
        // Settings of this computer's own, with a field of another version's, which stays.
        try FileManager.default.createDirectory(
            at: paths.settingsFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"other": 3}"#.utf8).write(to: paths.settingsFile)
        paths = LibraryPaths(directories)
        try paths.remember(URL(fileURLWithPath: "/srv/Sync/Gallery/", isDirectory: true), movedFrom: paths.dataFolder)
        #expect(paths.libraryFolder.path == "/srv/Sync/Gallery")
        #expect(paths.stateFile.path == "/srv/Sync/Gallery/state.json")
        #expect(paths.originals.path == "/srv/Sync/Gallery/originals")
        #expect(paths.location.isShareable)
        #expect(!StateStore.library(paths).followsLink)
        // What stays on this computer does not move with the library.
        #expect(paths.imports.path == home.path + "/.local/share/image-gallery/imported")
        #expect(paths.windowSizeFile.path == home.path + "/.local/state/image-gallery/window.json")
        let settings = try #require(JSONFile.read(paths.settingsFile.path))
        #expect(settings["other"] == .number("3"))
        let next = LibraryPaths(directories)
        #expect(next.stateFile == paths.stateFile)
        #expect(next.location.movedFrom?.path == home.path + "/.local/share/image-gallery")
    }

    @Test func theSettingsAreReadOnceWhenThePathsAreResolved() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let directories = XDGDirectories(environment: ["HOME": home.path])
        let paths = LibraryPaths(directories)
        try FileManager.default.createDirectory(
            at: paths.settingsFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"libraryFolder": "/srv/Elsewhere"}"#.utf8).write(to: paths.settingsFile)
        #expect(paths.libraryFolder == paths.dataFolder)
        #expect(LibraryPaths(directories).libraryFolder.path == "/srv/Elsewhere")
    }

    @Test func settingsThePreviousVersionWroteAreRead() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let directories = XDGDirectories(environment: ["HOME": home.path])
        let settingsFile = LibraryPaths(directories).settingsFile
        try FileManager.default.createDirectory(
            at: settingsFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Foundation's `JSONSerialization` wrote it, escaping every slash.
        let old = """
            {
              "libraryFolder" : "\\/srv\\/Sync\\/Gallery",
              "movedFrom" : "\\/home\\/u\\/.local\\/share\\/image-gallery",
              "other" : 3
            }
            """
        try Data(old.utf8).write(to: settingsFile)
        var paths = LibraryPaths(directories)
        #expect(paths.libraryFolder.path == "/srv/Sync/Gallery")
        #expect(paths.location.movedFrom?.path == "/home/u/.local/share/image-gallery")
        try paths.remember(paths.libraryFolder)
        #expect(
            try String(contentsOf: settingsFile, encoding: .utf8)
                == "{\n  \"libraryFolder\" : \"/srv/Sync/Gallery\",\n  \"other\" : 3\n}")
    }

    @Test func unusableSettingsLeaveTheLibraryInTheDataFolder() throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let directories = XDGDirectories(environment: ["HOME": home.path])
        let settingsFile = LibraryPaths(directories).settingsFile
        try FileManager.default.createDirectory(
            at: settingsFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        for text in [#"{"libraryFolder": "relative/folder"}"#, #"{"libraryFolder": 3}"#, "[1]", "{", ""] {
            try Data(text.utf8).write(to: settingsFile)
            let paths = LibraryPaths(directories)
            #expect(paths.libraryFolder == paths.dataFolder)
        }
    }
}
