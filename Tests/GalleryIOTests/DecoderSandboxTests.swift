import Foundation
import Testing

@testable import GalleryIO

#if canImport(Glibc)
    import Glibc
#endif

/// The decoder process's confinement, set up in a child of the test's process as the decoder process sets it up
/// (`DecoderProcess.sandbox()`, its first act): what a loader made to run foreign code would try fails, what
/// decoding needs still works.
@Suite struct DecoderSandboxTests {
    /// What the child tries once confined, and whether that went as it should.
    private struct Probe {
        let name: String
        let holds: () -> Bool
    }

    @Test func aConfinedProcessCreatesNoFileOpensNoSocketAndStartsNoProcess() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let existing = try folder.write([1, 2, 3], to: "existing")
        let created = folder.url.appendingPathComponent("created").path
        let made = folder.url.appendingPathComponent("made").path
        let probes = Self.probes(existing: existing, created: created, made: made)
        var reportEnds: [Int32] = [0, 0]
        try #require(pipe(&reportEnds) == 0)
        let pid = fork()
        if pid == 0 { Self.runConfined(probes, reportingTo: reportEnds[1]) }
        close(reportEnds[1])
        defer { close(reportEnds[0]) }
        try #require(pid > 0)
        var report = [UInt8](repeating: 0, count: probes.count + 1)
        var received = 0
        while received < report.count {
            let count = read(reportEnds[0], &report[received], report.count - received)
            guard count > 0 else { break }
            received += count
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        #expect(status == 0, "the child's wait status")
        #expect(received > 0 && report[0] == 1, "DecoderProcess.sandbox() reports success")
        for (index, probe) in probes.enumerated() {
            #expect(index + 1 < received && report[index + 1] == 1, "\(probe.name)")
        }
        #expect(!FileManager.default.fileExists(atPath: created))
        #expect(!FileManager.default.fileExists(atPath: made))
        #expect(FileManager.default.contents(atPath: existing) == Data([1, 2, 3]))
    }

    /// In the forked child: as the decoder process, only descriptors 0 to 2 and the report's are open; one byte
    /// per answer as soon as it is known (a program that runs ends the answers), then the child ends without
    /// running the test process's exit handlers.
    private static func runConfined(_ probes: [Probe], reportingTo report: Int32) -> Never {
        if report != 3 {
            dup2(report, 3)
        }
        for descriptor in 4..<4096 { close(Int32(descriptor)) }
        var answer: UInt8 = DecoderProcess.sandbox() ? 1 : 0
        _ = write(3, &answer, 1)
        for probe in probes {
            answer = probe.holds() ? 1 : 0
            _ = write(3, &answer, 1)
        }
        _exit(0)
    }

    private static func probes(existing: String, created: String, made: String) -> [Probe] {
        let refused = { (result: Int32) in result == -1 && errno == EPERM }
        let trueProgram = strdup("/bin/true")
        return [
            Probe(name: "creating a file fails") { refused(open(created, O_WRONLY | O_CREAT, 0o600)) },
            Probe(name: "creating a file with creat fails") { refused(creat(created, 0o600)) },
            Probe(name: "opening a file for writing fails") { refused(open(existing, O_RDWR)) },
            Probe(name: "truncating a file fails") { refused(truncate(existing, 0)) },
            Probe(name: "making a folder fails") { refused(mkdir(made, 0o700)) },
            Probe(name: "renaming a file fails") { refused(rename(existing, created)) },
            Probe(name: "removing a file fails") { refused(unlink(existing)) },
            Probe(name: "linking a file fails") { refused(symlink(existing, created)) },
            Probe(name: "changing a file's mode fails") { refused(chmod(existing, 0o777)) },
            Probe(name: "opening an internet socket fails") {
                refused(socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0))
            },
            Probe(name: "opening a local socket fails") { refused(socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)) },
            Probe(name: "forking fails") {
                let child = fork()
                if child == 0 { _exit(0) }
                return refused(child)
            },
            Probe(name: "signalling another process fails") { refused(kill(getppid(), 0)) },
            Probe(name: "reading a file works") {
                let descriptor = open(existing, O_RDONLY)
                var bytes = [UInt8](repeating: 0, count: 3)
                return descriptor >= 0 && read(descriptor, &bytes, 3) == 3 && bytes == [1, 2, 3]
            },
            Probe(name: "starting a thread works") {
                var thread = pthread_t()
                guard pthread_create(&thread, nil, { _ in nil }, nil) == 0 else { return false }
                return pthread_join(thread, nil) == 0
            },
            Probe(name: "no core file, no file size, few descriptors") {
                var core = rlimit()
                var size = rlimit()
                var files = rlimit()
                getrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &core)
                getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &size)
                getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &files)
                return core.rlim_max == 0 && size.rlim_max == 0
                    && files.rlim_max == rlim_t(DecoderProcess.maximumOpenFiles)
            },
            // Last: where it works, the child is that program from then on.
            Probe(name: "running a program fails") {
                var arguments: [UnsafeMutablePointer<CChar>?] = [trueProgram, nil]
                return refused(execv("/bin/true", &arguments))
            },
        ]
    }
}
