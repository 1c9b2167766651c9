import Dispatch
import Foundation
import Glibc
import Synchronization

/// Counts the connections one or several servers have open at once, and the most they had.
final class ConnectionGauge: Sendable {
    private let counts = Mutex((open: 0, peak: 0))

    var peak: Int { counts.withLock { $0.peak } }

    fileprivate func opened() {
        counts.withLock { counts in
            counts.open += 1
            counts.peak = max(counts.peak, counts.open)
        }
    }

    fileprivate func closed() {
        counts.withLock { $0.open -= 1 }
    }
}

/// An HTTP/1.1 server on 127.0.0.1 for the download tests: a thread per connection, one request per
/// connection, answers scripted per path. Stop it with `stop()`.
final class LoopbackServer: Sendable {
    /// One thing the server does while answering, in order.
    enum Step: Sendable {
        case send([UInt8])
        /// Waits until the test signals (at most ten seconds, so a failed test does not hang the run).
        case wait(DispatchSemaphore)
        /// Reads until the client closes the connection: a server that stops sending.
        case stall
    }

    private struct State {
        /// Each path's answers for its requests in turn; the last one answers every request after it.
        var answers: [String: [[Step]]] = [:]
        var requests: [String] = []
    }

    let port: Int
    private let listener: Int32
    private let state = Mutex(State())
    /// A connection counts as open from its acceptance until its answer's last part is about to be sent:
    /// the client cannot have seen the end of the answer, and opened another connection, before.
    private let gauge: ConnectionGauge

    init(gauge: ConnectionGauge = ConnectionGauge()) throws {
        self.gauge = gauge
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(listener, address, length) == 0 && listen(listener, 64) == 0
                    && getsockname(listener, address, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in acceptConnections() }.start()
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Answers requests for `path` with `answers` in turn, the last one for ever.
    func answer(_ path: String, _ answers: [Step]...) {
        state.withLock { $0.answers[path] = answers }
    }

    /// The paths requested so far, in the order they came.
    var requests: [String] { state.withLock { $0.requests } }

    func requestCount(_ path: String) -> Int { requests.filter { $0 == path }.count }

    /// Stops accepting; connections being answered finish on their own.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
    }

    /// A whole response with a `Content-Length`, closing the connection after it.
    static func response(_ status: Int, headers: [String] = [], body: [UInt8] = []) -> [Step] {
        [.send(head(status, headers: headers + ["Content-Length: \(body.count)"])), .send(body)]
    }

    /// A status line and headers, closing the connection after the body.
    static func head(_ status: Int, headers: [String]) -> [UInt8] {
        Array(
            (["HTTP/1.1 \(status) Scripted", "Connection: close"] + headers + ["", ""])
                .joined(separator: "\r\n").utf8)
    }

    private func acceptConnections() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { break }
            gauge.opened()
            Thread { [self] in serve(connection) }.start()
        }
        close(listener)
    }

    private func serve(_ connection: Int32) {
        var counted = true
        defer {
            if counted { gauge.closed() }
            close(connection)
        }
        guard let path = readRequestPath(connection) else { return }
        let steps: [Step] = state.withLock { state in
            state.requests.append(path)
            guard var queued = state.answers[path], let first = queued.first else {
                return Self.response(404)
            }
            if queued.count > 1 {
                queued.removeFirst()
                state.answers[path] = queued
            }
            return first
        }
        for (index, step) in steps.enumerated() {
            if index == steps.count - 1 {
                counted = false
                gauge.closed()
            }
            switch step {
            case .send(let bytes):
                guard sendAll(bytes, to: connection) else { return }
            case .wait(let semaphore):
                _ = semaphore.wait(timeout: .now() + 10)
            case .stall:
                var buffer = [UInt8](repeating: 0, count: 1024)
                while recv(connection, &buffer, buffer.count, 0) > 0 {}
            }
        }
        shutdown(connection, Int32(SHUT_WR))
    }

    /// The path of the request line, once the request's head has arrived.
    private func readRequestPath(_ connection: Int32) -> String? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !received.ends(with: [13, 10, 13, 10]) {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            received += buffer[..<count]
        }
        let requestLine = String(decoding: received.prefix { $0 != 13 }, as: UTF8.self)
        let words = requestLine.split(separator: " ")
        return words.count == 3 ? String(words[1]) : nil
    }

    private func sendAll(_ bytes: [UInt8], to connection: Int32) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
