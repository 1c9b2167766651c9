import Foundation

/// Where this computer keeps the library (state.json and originals/): the data folder, unless the user
/// moved it (into a folder a sync tool shares, say), which a small settings file of this computer's
/// own remembers (`$XDG_CONFIG_HOME/image-gallery/settings.json`, `libraryFolder`). What belongs to one
/// computer (window sizes) stays in its own folders wherever the library is.
public struct LibraryLocation: Sendable {
    public let directories: XDGDirectories

    public init(_ directories: XDGDirectories = XDGDirectories()) { self.directories = directories }

    public var settingsFileURL: URL {
        directories.configHome.appendingPathComponent("image-gallery/settings.json")
    }

    /// The data folder's own place, where the library lives until it is moved.
    public var defaultFolder: URL { directories.dataHome.appendingPathComponent("image-gallery", isDirectory: true) }

    /// Where bytes pasted or dropped before the library kept originals were written: read there until carried over.
    public var importsFolder: URL { defaultFolder.appendingPathComponent("imported", isDirectory: true) }

    /// The folder the library lives in now: the one the settings name (an absolute path), else the default.
    public var folder: URL {
        folder(named: "libraryFolder") ?? defaultFolder
    }

    /// Whether the library lives in a folder the user chose, which a sync tool may share with other computers.
    public var isShareable: Bool { folder.standardizedFileURL != defaultFolder.standardizedFileURL }

    /// The folder the library was moved out of, while what it left there is still to be removed
    /// (`LibraryMove.removeOld`); nil when there is none.
    public var movedFrom: URL? { folder(named: "movedFrom") }

    private func folder(named field: String) -> URL? {
        guard let path = settings[field] as? String, path.hasPrefix("/") else { return nil }
        return URL(fileURLWithPath: path, isDirectory: true)
    }

    private var settings: [String: Any] {
        guard let data = try? Data(contentsOf: settingsFileURL),
            let read = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [:] }
        return read
    }

    /// Remembers `folder` as the library's (and `movedFrom`, the folder it left, until its leftovers are
    /// removed), keeping the settings' other fields; written whole and flushed, so a crash leaves the old
    /// folder named or the new, never neither.
    public func remember(_ folder: URL, movedFrom: URL? = nil) throws(FileError) {
        var settings = settings
        settings["libraryFolder"] = folder.standardizedFileURL.path
        settings["movedFrom"] = movedFrom?.standardizedFileURL.path
        let data =
            (try? JSONSerialization.data(withJSONObject: settings, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        try FileWriter.makeFolders(settingsFileURL.deletingLastPathComponent().path)
        try FileWriter(durability: .flushed, mode: .keepExisting(orNew: 0o600), temporaryName: .hiddenTmp)
            .write(data, to: settingsFileURL.path, policy: .replace)
    }
}
