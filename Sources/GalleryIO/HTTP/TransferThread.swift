import CCurl
import CShim
import Foundation
import GLibKit
import GalleryCore
import Synchronization

/// Runs every transfer on one libcurl multi handle, on a thread of its own: one thread reads every
/// socket, however many downloads run, and no thread waits for a server. Other threads hand it
/// values (`TransferRequest`, waits); the libcurl handles are made, used and freed on it alone.
/// Transfers wait in a queue for a connection (so many per server, so many in all, an HTTP/2 server's
/// transfers sharing theirs, a TLS server's first handshake saying which it is) and for room in the budget of bytes held; a transfer only starts its clocks once it has left the queue. About once a second
/// it looks at what runs: a cancelled transfer is dropped, and one that stalled gives its connection to an image
/// the user waits for and queues again.
final class TransferThread: Sendable {
    static let shared = TransferThread(
        connectionsPerHost: ImageLimits.maximumConnectionsPerHost, connections: ImageLimits.maximumConnections,
        bytesHeld: ImageLimits.maximumTransferBytesHeld)

    /// A wait asked for (a server's Retry-After), until it ends or its download is cancelled.
    private struct Wait {
        let until: ContinuousClock.Instant
        let cancellation: CancellationToken?
        let then: @Sendable (_ cancelled: Bool) -> Void
    }

    private let handedOver = Mutex<(requests: [TransferRequest], waits: [Wait])>(([], []))
    /// An eventfd the thread's poll watches: whoever hands something over signals it.
    private let wakeup: Int32
    private let connectionsPerHost: Int
    private let connections: Int
    let budget: TransferBudget

    init(connectionsPerHost: Int, connections: Int, bytesHeld: Int64) {
        let wakeup = cshim_wakeup_new()
        self.wakeup = wakeup
        self.connectionsPerHost = connectionsPerHost
        self.connections = connections
        budget = TransferBudget(limit: bytesHeld) { cshim_wakeup_signal(wakeup) }
        Thread { [self] in run() }.start()
    }

    /// Runs the transfer `request` describes and calls its `finished` on the transfer thread.
    func run(_ request: TransferRequest) {
        handedOver.withLock { $0.requests.append(request) }
        cshim_wakeup_signal(wakeup)
    }

    /// Calls `then(false)` on the transfer thread after `seconds`, or `then(true)` within a second of
    /// `cancellation` being cancelled; `then` must hand anything slow on.
    func after(
        seconds: Int, unless cancellation: CancellationToken?, then: @escaping @Sendable (_ cancelled: Bool) -> Void
    ) {
        let wait = Wait(until: .now + .seconds(seconds), cancellation: cancellation, then: then)
        handedOver.withLock { $0.waits.append(wait) }
        cshim_wakeup_signal(wakeup)
    }

    private func run() {
        CurrentThread.name("transfers")
        // libcurl is opened and set up by the first download, not at launch: a launch that downloads nothing never
        // loads it, nor TLS and the other libraries it needs (CShim's curl_library.c).
        cshim_curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        let multi = cshim_curl_multi_init()!
        // libcurl's own limits hold where the queue cannot see: a redirect to another server.
        cshim_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, connectionsPerHost)
        cshim_curl_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, connections)
        // An HTTP/2 server's transfers share a connection, as many as the queue counts on one.
        cshim_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        cshim_curl_multi_setopt_long(multi, CURLMOPT_MAX_CONCURRENT_STREAMS, ServerConnections.streamsPerConnection)
        var queue = TransferQueue()
        var running: [UnsafeMutableRawPointer: EasyTransfer] = [:]
        var connectionsHeld = ServerConnections(perServer: connectionsPerHost, total: connections)
        var started = 0
        var waits: [Wait] = []
        var nextLook = ContinuousClock.now
        var watched = curl_waitfd(fd: wakeup, events: Int16(CURL_WAIT_POLLIN), revents: 0)
        /// Starts what waits and has a connection and room in the budget; whether any did.
        func admit() -> Bool {
            var admitted = false
            while budget.hasRoom,
                let request = queue.popFirst(where: { connectionsHeld.admits($0) })
            {
                if request.cancellation?.isCancelled == true {
                    request.finished(.failure(.cancelled), nil)
                    continue
                }
                started += 1
                guard let transfer = EasyTransfer(request, budget: budget, sequence: started) else {
                    request.finished(.failure(.network(curlCode: Int(CURLE_FAILED_INIT.rawValue))), nil)
                    continue
                }
                running[transfer.handle] = transfer
                connectionsHeld.start(on: request.hostKey)
                admitted = true
                if cshim_curl_multi_add_handle(multi, transfer.handle) != CURLM_OK {
                    end(transfer, CURLE_FAILED_INIT, running: &running, connectionsHeld: &connectionsHeld)
                }
            }
            return admitted
        }
        while true {
            cshim_wakeup_clear(wakeup)
            let handed = handedOver.withLock { handed in
                defer { handed = ([], []) }
                return handed
            }
            waits += handed.waits
            for request in handed.requests { queue.insert(request) }
            var changed = false
            if ContinuousClock.now >= nextLook {
                let now = ContinuousClock.now
                nextLook = now + .seconds(1)
                for request in queue.removeCancelled() { request.finished(.failure(.cancelled), nil) }
                // A download nobody waits for any more closes its connection now, whatever state libcurl has it in.
                for transfer in running.values where transfer.request.cancellation?.isCancelled == true {
                    cshim_curl_multi_remove_handle(multi, transfer.handle)
                    end(transfer, CURLE_ABORTED_BY_CALLBACK, running: &running, connectionsHeld: &connectionsHeld)
                    changed = true
                }
                changed = connectionsHeld.endLongHandshakeWaits(at: now) || changed
                for transfer in running.values { transfer.look(at: now) }
                // The longest stalled first give their connections to images the user waits for.
                let stalled = running.values.filter {
                    $0.stalled(at: now) >= .seconds($0.request.limits.giveWaySeconds)
                }
                for transfer in stalled.sorted(by: { $0.stalled(at: now) > $1.stalled(at: now) }) where budget.hasRoom {
                    let host = transfer.request.hostKey
                    let full = connectionsHeld.isFull
                    guard
                        queue.hasWatched(where: {
                            ($0 == host && !connectionsHeld.hasRoom(on: host))
                                || (full && connectionsHeld.hasRoom(on: $0))
                        })
                    else { continue }
                    cshim_curl_multi_remove_handle(multi, transfer.handle)
                    setAside(transfer, at: now, running: &running, connectionsHeld: &connectionsHeld, queue: &queue)
                    _ = admit()
                    changed = true
                }
            }
            changed = admit() || changed
            var active: Int32 = 0
            cshim_curl_multi_perform(multi, &active)
            // A server whose handshake agreed on HTTP/2 takes its waiting transfers on its connection now, not one
            // answer later: a slow server's first answers would otherwise hold the rest back a whole round trip.
            for transfer in running.values {
                let server = transfer.request.hostKey
                guard !connectionsHeld.multiplexes(server), let multiplexes = transfer.negotiatedMultiplexing,
                    multiplexes || connectionsHeld.awaitsHandshake(server)
                else { continue }
                connectionsHeld.heard(server, multiplexing: multiplexes)
                changed = true
            }
            var queued: Int32 = 0
            while let message = cshim_curl_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                    let transfer = running[handle]
                else { continue }
                cshim_curl_multi_remove_handle(multi, handle)
                end(transfer, message.pointee.data.result, running: &running, connectionsHeld: &connectionsHeld)
                changed = true
            }
            if budget.takeReleased() || changed { resumePaused(running) }
            let now = ContinuousClock.now
            let (ended, waiting) = waits.partitioned { $0.until <= now || $0.cancellation?.isCancelled == true }
            waits = waiting
            for wait in ended { wait.then(wait.cancellation?.isCancelled == true) }
            let nextEnd = waits.map(\.until).min().map { max(0, min(1000, ($0 - now).milliseconds)) } ?? 1000
            // A place freed by a transfer that ended is filled at once.
            let admissible = changed && !queue.isEmpty && !connectionsHeld.isFull
            cshim_curl_multi_poll(multi, &watched, 1, admissible ? 0 : Int32(nextEnd))
        }
    }

    private func end(
        _ transfer: EasyTransfer, _ code: CURLcode, running: inout [UnsafeMutableRawPointer: EasyTransfer],
        connectionsHeld: inout ServerConnections
    ) {
        if let multiplexing = transfer.answeredMultiplexing {
            connectionsHeld.heard(transfer.request.hostKey, multiplexing: multiplexing)
        }
        leave(transfer, running: &running, connectionsHeld: &connectionsHeld)
        transfer.finish(code)
    }

    /// A stalled transfer, taken off its connection, waits in `queue` to start again; once it has trickled
    /// as long as a trickle may, it ends as too slow instead.
    private func setAside(
        _ transfer: EasyTransfer, at now: ContinuousClock.Instant,
        running: inout [UnsafeMutableRawPointer: EasyTransfer], connectionsHeld: inout ServerConnections,
        queue: inout TransferQueue
    ) {
        leave(transfer, running: &running, connectionsHeld: &connectionsHeld)
        transfer.setAside()
        var request = transfer.request
        request.stalled += transfer.stalled(at: now)
        guard request.stalled < .seconds(request.limits.slowSeconds) else {
            return request.finished(.failure(.tooSlow), nil)
        }
        queue.insert(request, setAside: true)
    }

    private func leave(
        _ transfer: EasyTransfer, running: inout [UnsafeMutableRawPointer: EasyTransfer],
        connectionsHeld: inout ServerConnections
    ) {
        running[transfer.handle] = nil
        connectionsHeld.end(on: transfer.request.hostKey)
    }

    /// While no response holds bytes of the budget, none will free any: then the running transfer that holds the
    /// most goes on whatever the budget, so that the budget never stops them all; the others try again, and pause
    /// again if there is still no room.
    private func resumePaused(_ running: [UnsafeMutableRawPointer: EasyTransfer]) {
        let receiving = running.values.reduce(Int64(0)) { $0 + Int64($1.buffer.body.count) }
        // Bytes of answers waiting to be decoded come back: a transfer that went on meanwhile would add a whole
        // download to the budget for every one, as fast as the network outruns the decoder.
        let first =
            budget.held > receiving
            ? nil : running.values.max { ($0.buffer.body.count, $1.sequence) < ($1.buffer.body.count, $0.sequence) }
        for transfer in running.values {
            transfer.buffer.mayExceedBudget = transfer === first
            transfer.resume()
        }
    }
}

extension Array {
    /// The elements that satisfy `belongs`, and the others, each in their order.
    fileprivate func partitioned(by belongs: (Element) -> Bool) -> (matching: [Element], rest: [Element]) {
        var matching: [Element] = []
        var rest: [Element] = []
        for element in self {
            if belongs(element) { matching.append(element) } else { rest.append(element) }
        }
        return (matching, rest)
    }
}

extension Duration {
    /// Whole milliseconds, rounded up so a wait never ends early.
    fileprivate var milliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1000 + Int((attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }
}
