import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a state file's bytes with a bound: one larger than `limit` is refused from its size, and never more
/// than `limit` + 1 bytes are read of one that grows while it is read. A link is followed only when `followingLink`:
/// in a folder another computer writes, one swapped in after the store looked is not read either.
enum StateFileBytes {
    /// The largest state file read: well past what any library in today's format holds (issue 48), and what a
    /// launch can still hold once in memory.
    static let limit = 1 << 30

    enum Failure: Error, Equatable {
        case missing
        case tooLarge
        case failed(reason: String)
    }

    static func read(_ path: String, limit: Int = limit, followingLink: Bool = true) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | (followingLink ? 0 : O_NOFOLLOW))
        guard descriptor >= 0 else {
            throw errno == ENOENT ? .missing : .failed(reason: FileError(code: errno).description)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .failed(reason: FileError(code: errno).description) }
        let expected = Int(info.st_size)
        guard expected <= limit else { throw .tooLarge }
        var bytes = [UInt8](repeating: 0, count: expected + 1)
        var count = 0
        while true {
            if count == bytes.count {
                guard count <= limit else { throw .tooLarge }
                bytes.append(contentsOf: repeatElement(0, count: min(max(count, 1 << 16), limit + 1 - count)))
            }
            let read = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if read == 0 { break }
            guard read > 0 else {
                if errno == EINTR { continue }
                throw .failed(reason: FileError(code: errno).description)
            }
            count += read
        }
        guard count <= limit else { throw .tooLarge }
        bytes.removeLast(bytes.count - count)
        return bytes
    }
}
