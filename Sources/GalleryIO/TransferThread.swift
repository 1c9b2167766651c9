import CCurl
import Foundation
import GtkKit
import Synchronization

/// Runs every transfer on one libcurl multi handle, on a thread of its own: one thread reads every
/// socket, however many downloads run, and no thread waits for a server.
///
/// Safety (the one unchecked escape of the multi handle): only the transfer thread calls libcurl on
/// `multi`, except `curl_multi_wakeup`, which libcurl allows from any thread.
final class TransferThread: @unchecked Sendable {
    static let shared = TransferThread()

    private let handedOver = Mutex<[CurlTransfer]>([])
    private let multi: UnsafeMutableRawPointer

    private init() {
        multi = curl_multi_init()
        Thread { [self] in run() }.start()
    }

    /// Runs `transfer` and calls its `finished` with the result, on the transfer thread.
    func run(_ transfer: CurlTransfer) {
        handedOver.withLock { $0.append(transfer) }
        curl_multi_wakeup(multi)
    }

    private func run() {
        CurrentThread.name("transfers")
        var running: [UnsafeMutableRawPointer: CurlTransfer] = [:]
        while true {
            let handed: [CurlTransfer] = handedOver.withLock { handed in
                defer { handed = [] }
                return handed
            }
            for transfer in handed {
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
            curl_multi_poll(multi, nil, 0, 1000, nil)
        }
    }
}
