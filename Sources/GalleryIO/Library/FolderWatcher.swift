import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Tells when files of one folder are written, renamed into it or removed (inotify, read on a thread
/// of its own, which blocks in `read` and so costs nothing while nothing happens). `onChange` gets the
/// names, on that thread.
public final class FolderWatcher: Sendable {
    private let descriptor: Int32

    /// Nil when the folder cannot be watched (it does not exist, or inotify is out of watches).
    /// - Parameter appends: files written through a descriptor kept open count too (a log another copy of the app on
    ///   this computer appends to), not only files closed or renamed into place.
    public init?(folder: URL, appends: Bool = false, onChange: @escaping @Sendable ([String]) -> Void) {
        let descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        let mask = UInt32(
            IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE | (appends ? IN_MODIFY : 0))
        guard inotify_add_watch(descriptor, folder.path, mask) >= 0 else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        Thread.detachNewThread { [self] in readEvents(onChange) }
    }

    private func readEvents(_ onChange: @Sendable ([String]) -> Void) {
        // Room for many events at once: a sync tool renames several files in a burst.
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            var names: [String] = []
            var offset = 0
            // Each event: wd, mask, cookie, len (four 32-bit fields), then len bytes of NUL-padded name.
            while offset + 16 <= count {
                let length = buffer[offset + 12..<offset + 16].reversed().reduce(0) { $0 << 8 | Int($1) }
                let nameBytes = buffer[offset + 16..<min(offset + 16 + length, count)].prefix { $0 != 0 }
                names.append(String(decoding: nameBytes, as: UTF8.self))
                offset += 16 + length
            }
            onChange(names)
        }
    }
}
