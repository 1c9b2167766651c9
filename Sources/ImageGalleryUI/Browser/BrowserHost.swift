import Foundation
import GLibKit
import GalleryCore
import GtkKit

/// The native messaging host of the browser extension: the browser starts this program with `option`
/// (through the small script its host manifest names) and writes messages to its input. Each is checked
/// (`BrowserHostSession`), handed to the running app as `app.browser-message` (the app started when it is not
/// running), and answered on the output.
public enum BrowserHost {
    public static let option = "--browser-host"
    /// How long the app, started by the host, may take to answer on the session bus.
    static let launchSeconds = 30.0

    public static func serve() -> Int32 {
        guard let spool = makeSpool() else {
            answer(
                BrowserHostSession.answer(
                    deliveryFailure: untranslated("could not make a private folder for transfers")))
            return 1
        }
        defer { try? FileManager.default.removeItem(at: spool) }
        let session = BrowserHostSession(spool: spool)
        let reader = NativeMessageReader { count in
            var buffer = [UInt8](repeating: 0, count: min(count, 1 << 16))
            let got = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            return got > 0 ? Array(buffer.prefix(got)) : []
        }
        while true {
            switch reader.next() {
            case .end: return 0
            case .truncated: return 1
            case .oversized(let length):
                answer(
                    BrowserHostSession.answer(
                        deliveryFailure:
                            untranslated(
                                "the message is \(length) bytes, over the limit of \(BrowserMessage.maximumMessageBytes)"
                            )))
                return 1
            case .message(let bytes):
                let outcome = session.handle(bytes)
                var reply = outcome.reply
                if let forward = outcome.forward, let failure = deliver(String(decoding: forward, as: UTF8.self)) {
                    reply = BrowserHostSession.answer(deliveryFailure: failure)
                    log(failure)
                }
                if let error = outcome.error { log(untranslated("refused a message: \(error)")) }
                answer(reply)
            }
        }
    }

    /// The message to the app; nil once it took it, else why not.
    private static func deliver(_ message: String) -> String? {
        let id = ImageGalleryApplication.id
        var failure = RemoteApplication.activateAction(
            applicationID: id, action: "browser-message", parameter: message, timeoutMilliseconds: 20_000)
        if failure == .notRunning {
            let program = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
            guard RemoteApplication.launchDetached(program, arguments: []) else {
                return untranslated("Image Gallery could not be started")
            }
            let deadline = Date().addingTimeInterval(launchSeconds)
            while failure == .notRunning, Date() < deadline {
                usleep(200_000)
                failure = RemoteApplication.activateAction(
                    applicationID: id, action: "browser-message", parameter: message, timeoutMilliseconds: 20_000)
            }
        }
        switch failure {
        case nil: return nil
        case .notRunning: return untranslated("Image Gallery did not start")
        case .failed(let reason): return untranslated("Image Gallery did not take the message: \(reason)")
        }
    }

    /// A folder of this process's own, readable by its user alone, in the user's runtime folder when there is one.
    private static func makeSpool() -> URL? {
        let base =
            ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 }
            ?? NSTemporaryDirectory()
        var template = Array(
            (URL(fileURLWithPath: base).appendingPathComponent("image-gallery-browser-XXXXXX").path).utf8CString)
        return template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.flatMap(mkdtemp).map { URL(fileURLWithPath: String(cString: $0), isDirectory: true) }
        }
    }

    /// The browser keeps what a host writes to its error output in its own log.
    private static func log(_ line: String) {
        FileHandle.standardError.write(Data("image-gallery --browser-host: \(line)\n".utf8))
    }

    private static func answer(_ reply: [UInt8]) {
        var bytes = NativeMessageReader.frame(reply)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
