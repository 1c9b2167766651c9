import CCurl
import CShim
import Foundation
import Testing

@testable import GalleryIO

#if canImport(Glibc)
    import Glibc
#endif

/// A digest taken on a worker while the main thread ends the process: the app's quit returns from the main loop and
/// calls exit() while its I/O thread may still be keeping or checking an original (a SHA-256 through OpenSSL). OpenSSL
/// freed its state in an exit handler, and that worker crashed on its freed locks (SIGSEGV on `io-1` after SIGTERM).
@Suite struct ChecksumAtExitTests {
    /// SHA-256 of "abc" (FIPS 180-2, appendix B.1).
    private static let abcDigest = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

    /// In a child, libcurl and OpenSSL are opened as the app opens them, then every exit handler of the process is
    /// run (what exit() runs first on the main thread), then a digest is taken: it is still right.
    @Test func aDigestTakenAfterTheExitHandlersRanIsRight() throws {
        var reportEnds: [Int32] = [0, 0]
        try #require(pipe(&reportEnds) == 0)
        // What the test process has buffered would be written a second time by the child.
        fflush(nil)
        let pid = fork()
        if pid == 0 { Self.hashAfterExitHandlers(reportingTo: reportEnds[1]) }
        close(reportEnds[1])
        defer { close(reportEnds[0]) }
        try #require(pid > 0)
        var report = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 128)
        while true {
            let count = read(reportEnds[0], &chunk, chunk.count)
            guard count > 0 else { break }
            report += chunk[..<count]
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        #expect(status == 0, "the child's wait status (a signal's number: it crashed)")
        #expect(String(decoding: report, as: UTF8.self) == Self.abcDigest)
    }

    /// In the forked child: libcurl first (it initialises the OpenSSL it loaded), then a digest, as a launch that
    /// downloads before it keeps; then the exit handlers, run as exit() runs them (`__cxa_finalize` of every
    /// library); then the digest the worker would take, written to `report`. Ends without running them again.
    private static func hashAfterExitHandlers(reportingTo report: Int32) -> Never {
        _ = cshim_curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        _ = Checksum.sha256(Data("abc".utf8))
        typealias Finalize = @convention(c) (UnsafeMutableRawPointer?) -> Void
        guard let finalize = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__cxa_finalize") else { _exit(2) }
        unsafeBitCast(finalize, to: Finalize.self)(nil)
        let digest = Array(Checksum.sha256(Data("abc".utf8)).utf8)
        _ = digest.withUnsafeBytes { write(report, $0.baseAddress, $0.count) }
        _exit(0)
    }
}
