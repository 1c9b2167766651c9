import Foundation

/// Where this computer keeps the library (state.json and originals/): the data folder, unless the user
/// moved it (into a folder a sync tool shares, say), which a small settings file of this computer's
/// own remembers (`settings.json` in the app's config folder, `libraryFolder`). Read once, when the paths
/// are resolved; a move writes the file and updates this value. What belongs to one computer (window sizes)
/// stays in its own folders wherever the library is.
public struct LibraryLocation: Sendable {
    public let settingsFile: URL
    /// The data folder's own place, where the library lives until it is moved.
    public let defaultFolder: URL
    /// The settings as read or last written: fields of another version's are written back as they were.
    private var settings: [String: JSONValue]

    public init(settingsFile: URL, defaultFolder: URL) {
        self.settingsFile = settingsFile
        self.defaultFolder = defaultFolder
        settings = JSONFile.read(settingsFile.path)?.object ?? [:]
    }

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
        guard let path = settings[field]?.string, path.hasPrefix("/") else { return nil }
        return URL(fileURLWithPath: path, isDirectory: true)
    }

    /// Remembers `folder` as the library's (and `movedFrom`, the folder it left, until its leftovers are
    /// removed), keeping the settings' other fields; written whole and flushed, so a crash leaves the old
    /// folder named or the new, never neither.
    public mutating func remember(_ folder: URL, movedFrom: URL? = nil) throws(FileError) {
        var settings = settings
        settings["libraryFolder"] = .string(folder.standardizedFileURL.path)
        settings["movedFrom"] = movedFrom.map { .string($0.standardizedFileURL.path) }
        try FileWriter.makeFolders(settingsFile.deletingLastPathComponent().path)
        try FileWriter(durability: .flushed, mode: .keepExisting(orNew: 0o600), temporaryName: .hiddenTmp)
            .write(JSONFile.text(.object(settings)), to: settingsFile.path, policy: .replace)
        self.settings = settings
    }
}
