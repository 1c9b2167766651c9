import Foundation
import Testing

@testable import GalleryCore

@Suite struct LibraryLocationTests {
    @Test func theLibraryLivesInTheDataFolderUntilTheSettingsNameAnother() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("location-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = ["HOME": home.path]
        let location = LibraryLocation(XDGDirectories(environment: environment))
        #expect(
            StateStore.defaultFileURL(environment: environment).path == home.path
                + "/.local/share/image-gallery/state.json")
        // Settings of this computer's own, with a field of another version's, which stays.
        try FileManager.default.createDirectory(
            at: location.settingsFileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"other": 3}"#.utf8).write(to: location.settingsFileURL)
        try location.remember(URL(fileURLWithPath: "/srv/Sync/Gallery/", isDirectory: true))
        #expect(location.folder.path == "/srv/Sync/Gallery")
        #expect(StateStore.defaultFileURL(environment: environment).path == "/srv/Sync/Gallery/state.json")
        let settings = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: location.settingsFileURL)) as? [String: Any])
        #expect(settings["other"] as? Int == 3)
        #expect(location.settingsFileURL.path == home.path + "/.config/image-gallery/settings.json")
    }
}
