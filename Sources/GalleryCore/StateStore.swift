import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads and writes the gallery's JSON state file, the way `g_file_set_contents` does: a temporary
/// file beside the target, fsync, rename over it. A file that cannot be read is moved aside, never
/// overwritten.
public struct StateStore: Sendable {
    public enum LoadResult: Equatable, Sendable {
        case loaded(GalleryState)
        /// No file yet: a first launch.
        case missing
        /// The file could not be used; it was moved to `keptAt` so nothing is lost.
        case unreadable(reason: String, keptAt: URL)
    }

    public struct SaveError: Error, CustomStringConvertible {
        public let description: String
    }

    public let fileURL: URL

    public init(fileURL: URL) { self.fileURL = fileURL }

    /// `$XDG_DATA_HOME/image-gallery/state.json` (or `~/.local/share/...`).
    public static func defaultFileURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        XDGDirectories(environment: environment).dataHome
            .appendingPathComponent("image-gallery", isDirectory: true)
            .appendingPathComponent("state.json")
    }

    public func load(now: Date = Date()) -> LoadResult {
        let data: Data
        do {
            data = try Data(contentsOf: fileURL)
        } catch {
            if !FileManager.default.fileExists(atPath: fileURL.path) { return .missing }
            return keepAside(reason: "it could not be opened (\(error.localizedDescription))", now: now)
        }
        do {
            let state = try JSONDecoder().decode(GalleryState.self, from: data)
            guard state.version <= GalleryState.currentVersion else {
                return keepAside(reason: "it was written by a newer version (format \(state.version))", now: now)
            }
            return .loaded(state.galleries.isEmpty ? .initial : state)
        } catch {
            return keepAside(reason: "it is not a valid gallery file", now: now)
        }
    }

    private func keepAside(reason: String, now: Date) -> LoadResult {
        let stamp = Int(now.timeIntervalSince1970)
        var target = fileURL.appendingPathExtension("corrupt-\(stamp)")
        var attempt = 1
        while FileManager.default.fileExists(atPath: target.path) {
            target = fileURL.appendingPathExtension("corrupt-\(stamp)-\(attempt)")
            attempt += 1
        }
        guard rename(fileURL.path, target.path) == 0 else {
            // It stays where it is; saving is refused below so it is not overwritten either.
            return .unreadable(reason: reason, keptAt: fileURL)
        }
        return .unreadable(reason: reason, keptAt: target)
    }

    /// Encodes the state stably (sorted keys, pretty) so diffs and tests are readable.
    public static func encode(_ state: GalleryState) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(state)
    }

    /// Writes atomically: temporary file in the same directory, fsync, rename, fsync the directory.
    public func save(_ state: GalleryState) throws {
        let data = try Self.encode(state)
        let directory = fileURL.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let temporary = directory.appendingPathComponent(".\(fileURL.lastPathComponent).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw SaveError(description: "cannot create \(temporary.path): \(errnoText())") }
        var failure: String?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = "cannot write \(temporary.path): \(errnoText())"
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = "cannot sync \(temporary.path): \(errnoText())" }
        close(descriptor)
        if failure == nil, rename(temporary.path, fileURL.path) != 0 {
            failure = "cannot replace \(fileURL.path): \(errnoText())"
        }
        if let failure {
            unlink(temporary.path)
            throw SaveError(description: failure)
        }
        let directoryDescriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    private func errnoText() -> String { String(cString: strerror(errno)) }
}

/// Saves off the caller's thread, one write at a time; when saves pile up only the newest is written.
public final class BackgroundStateSaver: @unchecked Sendable {
    private let store: StateStore
    private let queue = DispatchQueue(label: "io.github.imagegallery.save")
    private let lock = NSLock()
    private var pending: GalleryState?  // guarded by lock
    private let onError: @Sendable (String) -> Void

    public init(store: StateStore, onError: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.onError = onError
    }

    public func save(_ state: GalleryState) {
        lock.lock()
        let alreadyScheduled = pending != nil
        pending = state
        lock.unlock()
        guard !alreadyScheduled else { return }
        queue.async { [self] in writePending() }
    }

    /// Blocks until everything asked for is on disk (at quit).
    public func flush() {
        queue.sync { writePending() }
    }

    private func writePending() {
        lock.lock()
        let state = pending
        pending = nil
        lock.unlock()
        guard let state else { return }
        do {
            try store.save(state)
        } catch {
            onError("\(error)")
        }
    }
}

/// The XDG base directories, with their documented fallbacks.
public struct XDGDirectories: Sendable {
    public let dataHome: URL
    public let cacheHome: URL

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
    }
}
