import Foundation

/// Reads the browser's native messages from a stream: each is a 32-bit length in this machine's byte order,
/// then that many bytes of UTF-8 JSON. A length over the bound is answered without reading what follows.
public struct NativeMessageReader {
    public enum Next: Equatable, Sendable {
        case message([UInt8])
        /// The browser closed the stream between messages.
        case end
        /// A message declared longer than the bound: the stream cannot be trusted past it.
        case oversized(Int)
        /// The stream ended inside a message.
        case truncated
    }

    private let read: (Int) -> [UInt8]
    private let limit: Int

    /// `read(n)` returns up to `n` bytes, none at the end of the stream.
    public init(limit: Int = BrowserMessage.maximumMessageBytes, read: @escaping (Int) -> [UInt8]) {
        self.read = read
        self.limit = limit
    }

    public func next() -> Next {
        guard let header = exactly(4) else { return .end }
        guard header.count == 4 else { return .truncated }
        let length = Int(UInt32(littleEndian: header.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }))
        guard length <= limit else { return .oversized(length) }
        guard let body = exactly(length), body.count == length else { return length == 0 ? .message([]) : .truncated }
        return .message(body)
    }

    /// `count` bytes; fewer when the stream ends inside them; nil when it ends before the first.
    private func exactly(_ count: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            let part = read(count - bytes.count)
            if part.isEmpty { return bytes.isEmpty && count > 0 ? nil : bytes }
            bytes += part
        }
        return bytes
    }

    /// `payload` with its length before it, as the browser reads a native message.
    public static func frame(_ payload: [UInt8]) -> [UInt8] {
        withUnsafeBytes(of: UInt32(payload.count).littleEndian) { Array($0) } + payload
    }
}
