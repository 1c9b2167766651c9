import Foundation

/// What one transfer has received so far, written by libcurl's callbacks on the transfer thread.
final class TransferBuffer {
    var body = Data()
    var exceeded = false
    var bytesSoFar: Int64 = 0
    /// When the last byte arrived: a stopped server times out, a trickling one is too slow.
    var lastByteArrival = Date()
    let limit: Int64
    let progress: @Sendable (_ received: Int64, _ expected: Int64?) -> Bool

    init(limit: Int64, progress: @escaping @Sendable (Int64, Int64?) -> Bool) {
        self.limit = limit
        self.progress = progress
    }
}
