import Foundation
import Testing

@testable import GalleryCore

/// The native host's side: framing, the answers, and image bytes sent in chunks kept in files of its own folder,
/// which a message can neither name nor make it read from anywhere else.
struct BrowserHostSessionTests {
    private static let page = "\"page\": {\"address\": \"http://127.0.0.1/p\", \"title\": \"P\"}"

    private func spool() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("host-spool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        return folder
    }

    private func answer(_ outcome: BrowserHostSession.Outcome) -> String {
        String(decoding: outcome.reply, as: UTF8.self)
    }

    private func handle(_ session: BrowserHostSession, _ json: String) -> BrowserHostSession.Outcome {
        session.handle(Array(json.utf8))
    }

    private func chunk(_ transfer: String, _ bytes: Data) -> String {
        "{\"kind\": \"chunk\", \"transfer\": \"\(transfer)\", \"data\": \"\(bytes.base64EncodedString())\"}"
    }

    private func image(transfer: String, length: Int) -> String {
        "{\"kind\": \"image\", \(Self.page), \"image\": {}, \"bytes\": {\"mimeType\": \"image/png\", \"transfer\": \"\(transfer)\", \"length\": \(length)}}"
    }

    @Test func aMalformedMessageIsAnsweredWithAnErrorAndHandsNothingOn() throws {
        let session = BrowserHostSession(spool: try spool())
        let outcome = handle(session, "{\"kind\": \"image\", \"page\": 3}")
        #expect(outcome.forward == nil)
        #expect(answer(outcome).contains("\"ok\" : false"))
        #expect(answer(outcome).contains("“page” must be an object"))
        let good = handle(
            session, "{\"kind\": \"image\", \(Self.page), \"image\": {\"address\": \"http://127.0.0.1/a.png\"}}")
        #expect(answer(good).contains("\"ok\" : true"))
        #expect(good.forward != nil)
    }

    @Test func bytesInChunksAreHandedOnWholeAndTheirFileIsGone() throws {
        let folder = try spool()
        let session = BrowserHostSession(spool: folder)
        let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        #expect(handle(session, chunk("t1", bytes.prefix(200_000))).forward == nil)
        #expect(handle(session, chunk("t1", bytes.suffix(100_000))).forward == nil)
        let outcome = handle(session, image(transfer: "t1", length: bytes.count))
        let forwarded = try #require(outcome.forward)
        guard case .image(let image) = try BrowserMessage.parse(forwarded, limit: BrowserMessage.maximumForwardedBytes)
        else { return #expect(Bool(false)) }
        #expect(image.bytes == .inline(bytes, mimeType: "image/png"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func aTransferReadsNothingOutsideTheSpool() throws {
        let folder = try spool()
        let session = BrowserHostSession(spool: folder)
        // A name with a path in it is refused before anything is opened.
        let traversal = handle(session, chunk("../../etc/passwd", Data([1, 2, 3])))
        #expect(answer(traversal).contains("“transfer” must be 1 to 64 letters, digits, “-” or “_”"))
        let absolute = handle(session, image(transfer: "/etc/passwd", length: 10))
        #expect(absolute.forward == nil)
        // A transfer no chunk opened names no file at all, whatever lies in the spool.
        try Data("secret".utf8).write(to: folder.appendingPathComponent("passwd"))
        let unopened = handle(session, image(transfer: "passwd", length: 6))
        #expect(unopened.forward == nil)
        #expect(answer(unopened).contains("no chunks came for transfer “passwd”"))
        // A link planted where the next transfer's file goes is not followed, nor written through.
        let target = folder.appendingPathComponent("target")
        try Data("kept".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("transfer-0"), withDestinationURL: target)
        let planted = handle(session, chunk("t2", Data([9, 9, 9])))
        #expect(answer(planted).contains("could not make a file for the transfer"))
        #expect(try Data(contentsOf: target) == Data("kept".utf8))
    }

    @Test func aTransferOfTheWrongLengthOrTooLargeIsRefused() throws {
        let session = BrowserHostSession(spool: try spool())
        _ = handle(session, chunk("t1", Data([1, 2, 3])))
        let short = handle(session, image(transfer: "t1", length: 4))
        #expect(short.forward == nil)
        #expect(answer(short).contains("transfer “t1” holds 3 bytes, not 4"))
        for index in 0..<BrowserHostSession.maximumTransfers { _ = handle(session, chunk("open\(index)", Data([1]))) }
        let tooMany = handle(session, chunk("another", Data([1])))
        #expect(answer(tooMany).contains("more than \(BrowserHostSession.maximumTransfers) transfers at once"))
        let big = Data(count: 700_000)
        var last = handle(session, chunk("open0", big))
        for _ in 0..<Int(ImageLimits.maximumDownloadBytes) / big.count { last = handle(session, chunk("open0", big)) }
        #expect(answer(last).contains("transfer “open0” is larger than the download limit"))
    }

    @Test func framesAreReadWithinTheirBound() {
        var stream = NativeMessageReader.frame(Array("{}".utf8)) + NativeMessageReader.frame([])
        stream += withUnsafeBytes(of: UInt32(BrowserMessage.maximumMessageBytes + 1).littleEndian) { Array($0) }
        var offset = 0
        let reader = NativeMessageReader { count in
            let end = min(stream.count, offset + min(count, 3))
            defer { offset = end }
            return Array(stream[offset..<end])
        }
        #expect(reader.next() == .message(Array("{}".utf8)))
        #expect(reader.next() == .message([]))
        #expect(reader.next() == .oversized(BrowserMessage.maximumMessageBytes + 1))
        let cut = NativeMessageReader.frame(Array("{\"kind\"".utf8)).dropLast(2)
        var taken = false
        let truncated = NativeMessageReader { _ in
            defer { taken = true }
            return taken ? [] : Array(cut)
        }
        #expect(truncated.next() == .truncated)
    }
}
