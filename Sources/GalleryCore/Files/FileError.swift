#if canImport(Glibc)
    import Glibc
#endif

/// Why a file operation failed, in the words the C library uses for `errno` in the user's
/// language ("No space left on device"), the words GLib's `g_strerror` gives too; with the step
/// and the file, when a `FileWriter` failed.
public struct FileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What a `FileWriter` was doing.
    public enum Step: Sendable {
        case create, setMode, write, sync, replace
    }

    public let code: Int32
    public let step: Step?
    /// The file the step failed on: the temporary file, or the target for `replace`.
    public let path: String?

    public init(code: Int32, step: Step? = nil, path: String? = nil) {
        self.code = code
        self.step = step
        self.path = path
    }

    public var description: String {
        // Files in the library's folder are opened without following links (`LibraryFolder`): the C library's
        // “Too many levels of symbolic links” would not say what stopped it.
        if code == ELOOP { return tr("a link in the library’s folder leads out of it") }
        var buffer = [CChar](repeating: 0, count: 256)
        guard strerror_r(code, &buffer, buffer.count) == 0 else { return "errno \(code)" }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
