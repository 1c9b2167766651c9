import Foundation

/// Every place the app keeps something, resolved once from the XDG folders when the app starts and handed
/// to whoever reads or writes there: the library's folder (state file, originals) as this computer's settings
/// name it, and the folders of this computer's own (settings, window size, records, cache).
public struct LibraryPaths: Sendable {
    /// The name of the app's folder in each XDG folder (and of its installed data).
    public static let appFolderName = "image-gallery"

    public let directories: XDGDirectories
    /// Where the library lives now; a move changes it.
    public private(set) var location: LibraryLocation
    /// What this computer alone keeps, even of a library another computer may write: never in the library's folder.
    public let computerState: URL
    /// Downloads not yet kept as originals, and other bytes that may be fetched again.
    public let cacheFolder: URL
    /// Where bytes pasted or dropped before the library kept originals were written: read there until carried over.
    public let imports: URL

    public init(_ directories: XDGDirectories) {
        self.directories = directories
        let dataFolder = directories.dataHome.appendingPathComponent(Self.appFolderName, isDirectory: true)
        location = LibraryLocation(
            settingsFile: directories.configHome.appendingPathComponent(Self.appFolderName, isDirectory: true)
                .appendingPathComponent("settings.json"),
            defaultFolder: dataFolder)
        computerState = directories.stateHome.appendingPathComponent(Self.appFolderName, isDirectory: true)
        cacheFolder = directories.cacheHome.appendingPathComponent(Self.appFolderName, isDirectory: true)
        imports = dataFolder.appendingPathComponent("imported", isDirectory: true)
    }

    /// The data folder's own place for the library, where it lives until it is moved.
    public var dataFolder: URL { location.defaultFolder }

    /// This computer's settings: where the library lives.
    public var settingsFile: URL { location.settingsFile }

    /// The folder the library lives in now.
    public var libraryFolder: URL { location.folder }

    public var stateFile: URL { libraryFolder.appendingPathComponent("state.json") }

    public var originals: URL { libraryFolder.appendingPathComponent("originals", isDirectory: true) }

    /// The size the last window had.
    public var windowSizeFile: URL { computerState.appendingPathComponent("window.json") }

    /// The addresses on the user's own network that the user here approved, for a library another computer writes.
    public var localAddressesFile: URL { computerState.appendingPathComponent("local-addresses.json") }

    /// When each original no image names was first found so, for a library a sync tool shares.
    public var unreferencedOriginalsFile: URL { computerState.appendingPathComponent("unreferenced-originals.json") }

    /// Names `folder` as the library's in this computer's settings (and `movedFrom`, the folder it left, until
    /// its leftovers are removed); the paths follow it.
    public mutating func remember(_ folder: URL, movedFrom: URL? = nil) throws(FileError) {
        try location.remember(folder, movedFrom: movedFrom)
    }
}
