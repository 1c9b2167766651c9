import Foundation
import Glibc

/// Debian's `nghttpd` (package nghttp2-server) serving a folder over HTTP/2 and TLS on 127.0.0.1, with a certificate
/// signed by an authority of its own (`certificateAuthority`, made with `openssl`), and every frame logged, so a
/// test can count the connections it took. Stop it with `stop()`.
final class HTTP2Server {
    let port: Int
    let folder: TemporaryDirectory
    /// The file of the authority that signed the server's certificate, for `HTTPClient.Limits`.
    let certificateAuthority: String
    private let process: Process
    private let log: URL

    /// Serves `files` (name and bytes) at `/<name>`.
    init(files: [(name: String, bytes: [UInt8])]) throws {
        folder = try TemporaryDirectory()
        let documents = folder.url.appendingPathComponent("htdocs")
        try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
        for file in files { try Data(file.bytes).write(to: documents.appendingPathComponent(file.name)) }
        certificateAuthority = folder.url.appendingPathComponent("ca.pem").path
        try Self.makeCertificates(in: folder.url)
        log = folder.url.appendingPathComponent("frames.log")
        // A port another process takes between the look and the listen only costs a try.
        for _ in 0..<5 {
            let port = try Self.freePort()
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let output = try FileHandle(forWritingTo: log)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/nghttpd")
            process.arguments = [
                "--verbose", "--address=127.0.0.1", "--htdocs=\(documents.path)", "\(port)",
                folder.url.appendingPathComponent("server.key").path,
                folder.url.appendingPathComponent("server.pem").path,
            ]
            process.standardOutput = output
            process.standardError = output
            try process.run()
            if Self.listens(on: port, log: log, while: process) {
                self.port = port
                self.process = process
                return
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        throw POSIXError(.EADDRINUSE)
    }

    func url(_ name: String) -> String { "https://127.0.0.1:\(port)/\(name)" }

    /// The HTTP/2 sessions (connections) the server had so far: nghttpd numbers each in its log.
    var connections: Int {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        let sessions = text.split(separator: "\n").compactMap { line -> Substring? in
            guard line.hasPrefix("[id="), let end = line.firstIndex(of: "]") else { return nil }
            return line[..<end]
        }
        return Set(sessions).count
    }

    /// nghttpd ends at no signal it can catch.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        folder.remove()
    }

    /// An authority (ca.pem) and the server's key and certificate for 127.0.0.1 it signed, in `folder`.
    private static func makeCertificates(in folder: URL) throws {
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try Data("subjectAltName=IP:127.0.0.1\n".utf8).write(to: folder.appendingPathComponent("server.ext"))
        for arguments in [
            ["req", "-x509"] + curve + ["-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Test CA"],
            ["req"] + curve + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1"],
            [
                "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-out", "server.pem", "-days", "2", "-extfile", "server.ext",
            ],
        ] {
            try ExternalTool.run("/usr/bin/openssl", arguments, in: folder)
        }
    }

    private static func freePort() throws -> Int {
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(probe) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(probe, $0, length) == 0 && getsockname(probe, $0, &length) == 0
            }
        }
        guard bound else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether the server says it listens on `port` within ten seconds, while `process` runs: a probing
    /// connection would count as a session.
    private static func listens(on port: Int, log: URL, while process: Process) -> Bool {
        let deadline = Date() + 10
        while Date() < deadline, process.isRunning {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if text.contains("listen 127.0.0.1:\(port)") { return true }
            usleep(20_000)
        }
        return false
    }
}
