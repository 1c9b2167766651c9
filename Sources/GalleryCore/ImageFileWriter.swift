import Foundation

/// Writes images the user saves (Save As…, Save to Folder…) the way the state file is written: the
/// whole file beside its place first, synced, then renamed into place, so no reader ever sees half
/// an image. Blocking: call it off the main loop.
public enum ImageFileWriter {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Writes `data` at `path`, replacing a file there (the user chose to).
    public static func write(_ data: Data, to path: String) throws(Failure) {
        let target = URL(fileURLWithPath: path)
        let temporary = try writeTemporary(data, beside: target)
        guard rename(temporary.path, target.path) == 0 else {
            let reason = errnoText()
            unlink(temporary.path)
            throw Failure(description: reason)
        }
        syncFolder(target.deletingLastPathComponent())
    }

    /// Writes `data` into `folder` as `name`, or "name (2)", "name (3)"… when that is taken: no
    /// file already there is replaced. Returns the name written.
    public static func writeBesideOthers(_ data: Data, named name: String, in folder: String) throws(Failure) -> String {
        let folderURL = URL(fileURLWithPath: folder, isDirectory: true)
        let temporary = try writeTemporary(data, beside: folderURL.appendingPathComponent(name))
        for number in 1...10_000 {
            let candidate = SavedImageName.numbered(name, number)
            let target = folderURL.appendingPathComponent(candidate)
            // The name is claimed first (O_EXCL fails on any existing file, even one made a moment
            // ago by someone else), then the finished file is renamed over our own empty claim.
            let claim = open(target.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if claim < 0 {
                if errno == EEXIST { continue }
                let reason = errnoText()
                unlink(temporary.path)
                throw Failure(description: reason)
            }
            close(claim)
            guard rename(temporary.path, target.path) == 0 else {
                let reason = errnoText()
                unlink(target.path)
                unlink(temporary.path)
                throw Failure(description: reason)
            }
            syncFolder(folderURL)
            return candidate
        }
        unlink(temporary.path)
        throw Failure(description: String(cString: strerror(EEXIST)))
    }

    private static func writeTemporary(_ data: Data, beside target: URL) throws(Failure) -> URL {
        let temporary = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent.prefix(200)).\(UUID().uuidString.prefix(8)).part")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(description: errnoText()) }
        var failure: String?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while failure == nil && offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errnoText()
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = errnoText() }
        close(descriptor)
        if let failure {
            unlink(temporary.path)
            throw Failure(description: failure)
        }
        return temporary
    }

    private static func syncFolder(_ folder: URL) {
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
