import Foundation

/// One of Debian's command-line tools, run to its end with its output discarded: the tests make files with them.
enum ExternalTool {
    struct Failed: Error {
        let tool: String
        let status: Int32
    }

    /// Runs `path` with `arguments`, in `folder` when given.
    static func run(_ path: String, _ arguments: [String], in folder: URL? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failed(tool: path, status: process.terminationStatus) }
    }
}
