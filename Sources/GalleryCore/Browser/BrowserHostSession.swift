import Foundation

/// What the native host does with each message from the browser, in order: checks it, keeps the chunks of an
/// image's bytes in files of its own folder, and gives the message to hand on to the app with its bytes in it.
/// Nothing outside `spool` is ever opened: a transfer's file is named by the session, never by the message.
public final class BrowserHostSession {
    /// What to answer the browser, and the message for the app (nil when there is none, or on an error).
    public struct Outcome: Equatable, Sendable {
        public var reply: [UInt8]
        public var forward: [UInt8]?
        /// Why the message was refused, for the host's log.
        public var error: String?
    }

    /// Transfers under way at once; a message starting another is refused.
    public static let maximumTransfers = 4

    private struct Transfer {
        let file: URL
        let handle: FileHandle
        var written: Int
    }

    private let spool: URL
    private var transfers: [String: Transfer] = [:]
    private var filesMade = 0

    /// `spool`: an empty folder only this session writes in (the host makes it, mode 0700).
    public init(spool: URL) { self.spool = spool }

    deinit {
        for transfer in transfers.values { Self.discard(transfer) }
    }

    public func handle(_ bytes: [UInt8]) -> Outcome {
        do {
            switch try BrowserMessage.parse(bytes) {
            case .chunk(let id, let data):
                try append(data, to: id)
                return Outcome(reply: Self.answer(error: nil), forward: nil)
            case .image(var image):
                if case .transfer(let id, let length, let mimeType) = image.bytes {
                    image.bytes = .inline(try finish(id, length: length), mimeType: mimeType)
                }
                return Outcome(reply: Self.answer(error: nil), forward: BrowserMessage.image(image).encoded)
            case .page(let capture):
                return Outcome(reply: Self.answer(error: nil), forward: BrowserMessage.page(capture).encoded)
            }
        } catch {
            return Outcome(reply: Self.answer(error: error.reason), forward: nil, error: error.reason)
        }
    }

    private func append(_ data: Data, to id: String) throws(BrowserMessage.Failure) {
        var transfer: Transfer
        if let open = transfers[id] {
            transfer = open
        } else {
            guard transfers.count < Self.maximumTransfers else {
                throw BrowserMessage.Failure(untranslated("more than \(Self.maximumTransfers) transfers at once"))
            }
            transfer = try create()
        }
        guard transfer.written + data.count <= ImageLimits.maximumDownloadBytes else {
            transfers[id] = nil
            Self.discard(transfer)
            throw BrowserMessage.Failure(untranslated("transfer “\(id)” is larger than the download limit"))
        }
        do {
            try transfer.handle.write(contentsOf: data)
        } catch {
            transfers[id] = nil
            Self.discard(transfer)
            throw BrowserMessage.Failure(untranslated("could not keep transfer “\(id)”: \(error.localizedDescription)"))
        }
        transfer.written += data.count
        transfers[id] = transfer
    }

    /// A new file in the spool, made by this call alone: never one that was there, nor a link.
    private func create() throws(BrowserMessage.Failure) -> Transfer {
        let file = spool.appendingPathComponent("transfer-\(filesMade)")
        filesMade += 1
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw BrowserMessage.Failure(
                untranslated("could not make a file for the transfer: \(String(cString: strerror(errno)))"))
        }
        return Transfer(file: file, handle: FileHandle(fileDescriptor: descriptor, closeOnDealloc: true), written: 0)
    }

    private func finish(_ id: String, length: Int) throws(BrowserMessage.Failure) -> Data {
        guard let transfer = transfers.removeValue(forKey: id) else {
            throw BrowserMessage.Failure(untranslated("no chunks came for transfer “\(id)”"))
        }
        defer { Self.discard(transfer) }
        guard transfer.written == length else {
            throw BrowserMessage.Failure(
                untranslated("transfer “\(id)” holds \(transfer.written) bytes, not \(length)"))
        }
        do {
            return try FileReader.read(transfer.file.path, limit: Int(ImageLimits.maximumDownloadBytes))
        } catch {
            throw BrowserMessage.Failure(untranslated("could not read transfer “\(id)” back"))
        }
    }

    private static func discard(_ transfer: Transfer) {
        try? transfer.handle.close()
        unlink(transfer.file.path)
    }

    /// `{"ok": true}`, or `{"ok": false, "error": reason}`.
    static func answer(error reason: String?) -> [UInt8] {
        var writer = JSONWriter()
        writer.object { writer in
            writer.field("ok")
            writer.bool(reason == nil)
            if let reason {
                writer.field("error")
                writer.string(reason)
            }
        }
        return writer.bytes
    }

    /// The answer when the message could not be handed to the app.
    public static func answer(deliveryFailure reason: String) -> [UInt8] { answer(error: reason) }
}
