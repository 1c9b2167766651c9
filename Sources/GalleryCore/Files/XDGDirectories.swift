import Foundation

/// The XDG base directories, with their documented fallbacks.
public struct XDGDirectories: Sendable {
    public let dataHome: URL
    public let cacheHome: URL
    /// For what should outlive a restart but is no document: the window's size.
    public let stateHome: URL
    /// For this computer's settings: where the library lives.
    public let configHome: URL

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let home = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory(), isDirectory: true)
        func directory(_ variable: String, fallback: String) -> URL {
            if let value = environment[variable], value.hasPrefix("/") {
                return URL(fileURLWithPath: value, isDirectory: true)
            }
            return home.appendingPathComponent(fallback, isDirectory: true)
        }
        dataHome = directory("XDG_DATA_HOME", fallback: ".local/share")
        cacheHome = directory("XDG_CACHE_HOME", fallback: ".cache")
        stateHome = directory("XDG_STATE_HOME", fallback: ".local/state")
        configHome = directory("XDG_CONFIG_HOME", fallback: ".config")
    }
}
