import CCurl
import CShim
import Foundation
import GtkKit
import Synchronization

/// Runs every transfer on one libcurl multi handle, on a thread of its own: one thread reads every
/// socket, however many downloads run, and no thread waits for a server. Other threads hand it
/// values (`TransferRequest`, waits); the libcurl handles are made, used and freed on it alone.
final class TransferThread: Sendable {
    static let shared = TransferThread()

    /// A wait asked for (a server's Retry-After), until it ends or its download is cancelled.
    private struct Wait {
        let until: ContinuousClock.Instant
        let cancellation: CancellationToken?
        let then: @Sendable (_ cancelled: Bool) -> Void
    }

    private let handedOver = Mutex<(requests: [TransferRequest], waits: [Wait])>(([], []))
    /// An eventfd the thread's poll watches: whoever hands something over signals it.
    private let wakeup: Int32

    private init() {
        wakeup = cshim_wakeup_new()
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
        let multi = curl_multi_init()!
        var running: [UnsafeMutableRawPointer: EasyTransfer] = [:]
        var waits: [Wait] = []
        var watched = curl_waitfd(fd: wakeup, events: Int16(CURL_WAIT_POLLIN), revents: 0)
        while true {
            cshim_wakeup_clear(wakeup)
            let handed = handedOver.withLock { handed in
                defer { handed = ([], []) }
                return handed
            }
            waits += handed.waits
            for request in handed.requests {
                guard let transfer = EasyTransfer(request) else {
                    request.finished(.failure(.network(curlCode: Int(CURLE_FAILED_INIT.rawValue))), nil)
                    continue
                }
                if curl_multi_add_handle(multi, transfer.handle) == CURLM_OK {
                    running[transfer.handle] = transfer
                } else {
                    transfer.finish(CURLE_FAILED_INIT)
                }
            }
            var active: Int32 = 0
            curl_multi_perform(multi, &active)
            var queued: Int32 = 0
            while let message = curl_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle else { continue }
                let code = message.pointee.data.result
                curl_multi_remove_handle(multi, handle)
                running.removeValue(forKey: handle)?.finish(code)
            }
            let now = ContinuousClock.now
            let (ended, waiting) = waits.partitioned { $0.until <= now || $0.cancellation?.isCancelled == true }
            waits = waiting
            for wait in ended { wait.then(wait.cancellation?.isCancelled == true) }
            let nextEnd = waits.map(\.until).min().map { max(0, min(1000, ($0 - now).milliseconds)) } ?? 1000
            curl_multi_poll(multi, &watched, 1, Int32(nextEnd), nil)
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
