import CCurl
import CShim
import Foundation
import GalleryCore
import Synchronization

public struct HTTPResponse: Sendable {
    public let body: Data
    public let contentType: String?
    /// The URL after redirects.
    public let finalURL: String
}

public enum DownloadError: Error, Equatable {
    case status(Int)
    case tooLarge(limit: Int64)
    case timedOut
    /// The server sent less than a trickle for too long.
    case tooSlow
    case cancelled
    case refusedProtocol
    case tooManyRedirects
    case serverNotFound
    case couldNotConnect
    /// The connection ended before the whole response (headers or body) arrived.
    case closedEarly
    case insecure
    /// Any other libcurl failure, by its code (the app words these for the user, in their language).
    case network(curlCode: Int)

    /// libcurl's result as the user should hear it; its own phrases are for developers.
    init(curlCode code: CURLcode, maximumBytes: Int64) {
        switch code {
        case CURLE_FILESIZE_EXCEEDED: self = .tooLarge(limit: maximumBytes)
        case CURLE_OPERATION_TIMEDOUT: self = .timedOut
        case CURLE_ABORTED_BY_CALLBACK: self = .cancelled
        case CURLE_UNSUPPORTED_PROTOCOL: self = .refusedProtocol
        case CURLE_TOO_MANY_REDIRECTS: self = .tooManyRedirects
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: self = .serverNotFound
        case CURLE_COULDNT_CONNECT: self = .couldNotConnect
        case CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_WEIRD_SERVER_REPLY,
             CURLE_HTTP2, CURLE_HTTP2_STREAM:
            self = .closedEarly
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE:
            self = .insecure
        default: self = .network(curlCode: Int(code.rawValue))
        }
    }
}

/// Lets another thread stop a transfer: checked by libcurl's progress callback, about once a second
/// even while no byte arrives. An atomic, not a lock: the window's thread cancels, and must not
/// wait for a low-priority transfer thread preempted while it held one.
public final class DownloadCancellation: Sendable {
    private let cancelled = Atomic(false)

    public init() {}

    public func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }

    public var isCancelled: Bool {
        cancelled.load(ordering: .relaxed)
    }
}

/// Downloads with libcurl, one easy handle each, set up on the caller's thread and run by the
/// transfer thread. Only http and https (also after redirects), a size cap, connect and low-speed
/// timeouts.
public enum HTTPClient {
    /// How the app names itself to servers; set once by `globalInit`, before any thread downloads.
    nonisolated(unsafe) public private(set) static var userAgent = ""

    public struct Limits: Sendable {
        public var maximumBytes = ImageLimits.maximumDownloadBytes
        public var connectTimeoutSeconds = 15
        /// A transfer slower than `slowBytesPerSecond` for this long is abandoned: a server that
        /// trickles must not hold a download for ever.
        public var slowSeconds = 15
        public var slowBytesPerSecond = 512
        /// No transfer, however steady, lasts longer (an endless chunked response).
        public var totalSeconds = 120
        /// 429 and 503 with Retry-After are tried again after at most this wait, this many times.
        public var longestRetryWait = 10
        public var retries = 2
        public init() {}
    }

    /// Call once before any thread downloads.
    public static func globalInit(userAgent: String) {
        self.userAgent = userAgent
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    }

    private final class Transfer: @unchecked Sendable {
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

    public typealias Outcome = Result<HTTPResponse, DownloadError>

    /// Downloads `url` while the calling thread waits.
    /// - Parameter progress: called with bytes received and the expected total, if known; return
    ///   false to cancel.
    public static func download(_ url: String, limits: Limits = Limits(), cancellation: DownloadCancellation? = nil,
                                progress: @escaping @Sendable (Int64, Int64?) -> Bool) -> Outcome {
        let finished = DispatchSemaphore(value: 0)
        let outcome = Mutex<Outcome>(.failure(.cancelled))
        start(url, limits: limits, cancellation: cancellation, progress: progress) { result in
            outcome.withLock { $0 = result }
            finished.signal()
        }
        finished.wait()
        return outcome.withLock { $0 }
    }

    /// Starts downloading `url` and returns at once: no thread waits for the server. `completion`
    /// gets the result on the transfer thread, which runs every transfer: hand anything slow on.
    /// - Parameter progress: called with bytes received and the expected total, if known; return
    ///   false to cancel.
    public static func start(_ url: String, limits: Limits = Limits(), cancellation: DownloadCancellation? = nil,
                             progress: @escaping @Sendable (Int64, Int64?) -> Bool,
                             completion: @escaping @Sendable (Outcome) -> Void) {
        let checked: @Sendable (Int64, Int64?) -> Bool = { received, expected in
            !(cancellation?.isCancelled ?? false) && progress(received, expected)
        }
        attempt(url, limits: limits, cancellation: cancellation, progress: checked, retriesLeft: limits.retries,
                completion: completion)
    }

    private static func attempt(_ url: String, limits: Limits, cancellation: DownloadCancellation?,
                                progress: @escaping @Sendable (Int64, Int64?) -> Bool, retriesLeft: Int,
                                completion: @escaping @Sendable (Outcome) -> Void) {
        startOnce(url, limits: limits, progress: progress) { result, retryAfter in
            guard case .failure(.status(let code)) = result, code == 429 || code == 503, retriesLeft > 0,
                  let wait = retryAfter, wait <= limits.longestRetryWait else { return completion(result) }
            // The server asked to come back later.
            waitToRetry(tenths: max(wait, 1) * 10, cancellation: cancellation) { cancelled in
                if cancelled { return completion(.failure(.cancelled)) }
                attempt(url, limits: limits, cancellation: cancellation, progress: progress,
                        retriesLeft: retriesLeft - 1, completion: completion)
            }
        }
    }

    /// Calls `then(false)` after `tenths` tenths of a second, holding no thread meanwhile, or
    /// `then(true)` as soon as the download is cancelled.
    private static func waitToRetry(tenths: Int, cancellation: DownloadCancellation?,
                                    then: @escaping @Sendable (_ cancelled: Bool) -> Void) {
        if cancellation?.isCancelled ?? false { return then(true) }
        guard tenths > 0 else { return then(false) }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(100)) {
            waitToRetry(tenths: tenths - 1, cancellation: cancellation, then: then)
        }
    }

    /// One try: `finished` gets the result, and the Retry-After seconds of a 429 or 503.
    private static func startOnce(_ url: String, limits: Limits, progress: @escaping @Sendable (Int64, Int64?) -> Bool,
                                  finished: @escaping @Sendable (Outcome, _ retryAfter: Int?) -> Void) {
        guard let handle = curl_easy_init() else {
            return finished(.failure(.network(curlCode: Int(CURLE_FAILED_INIT.rawValue))), nil)
        }
        let transfer = Transfer(limit: limits.maximumBytes, progress: progress)
        let transferPointer = Unmanaged.passUnretained(transfer).toOpaque()
        cshim_curl_setopt_ptr(handle, CURLOPT_URL, url)
        cshim_curl_setopt_ptr(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        cshim_curl_setopt_ptr(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        cshim_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1)
        cshim_curl_setopt_long(handle, CURLOPT_MAXREDIRS, 10)
        cshim_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        cshim_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, limits.connectTimeoutSeconds)
        cshim_curl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, limits.slowBytesPerSecond)
        cshim_curl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, limits.slowSeconds)
        cshim_curl_setopt_long(handle, CURLOPT_TIMEOUT, limits.totalSeconds)
        cshim_curl_setopt_off_t(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limits.maximumBytes))
        cshim_curl_setopt_ptr(handle, CURLOPT_USERAGENT, userAgent)
        cshim_curl_setopt_ptr(handle, CURLOPT_ACCEPT_ENCODING, "")
        cshim_curl_setopt_write(handle) { data, size, count, user in
            let transfer = Unmanaged<Transfer>.fromOpaque(user!).takeUnretainedValue()
            let length = size * count
            if Int64(transfer.body.count + length) > transfer.limit {
                transfer.exceeded = true
                return 0
            }
            if let data {
                transfer.body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length)
            }
            return length
        }
        cshim_curl_setopt_ptr(handle, CURLOPT_WRITEDATA, transferPointer)
        cshim_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0)
        cshim_curl_setopt_xferinfo(handle) { user, total, now, _, _ in
            let transfer = Unmanaged<Transfer>.fromOpaque(user!).takeUnretainedValue()
            if Int64(now) > transfer.bytesSoFar {
                transfer.bytesSoFar = Int64(now)
                transfer.lastByteArrival = Date()
            }
            return transfer.progress(Int64(now), total > 0 ? Int64(total) : nil) ? 0 : 1
        }
        cshim_curl_setopt_ptr(handle, CURLOPT_XFERINFODATA, transferPointer)

        let started = Date()
        let easy = EasyHandle(handle)
        TransferThread.shared.run(easy) { code in
            // The handle holds pointers to `transfer`: both live until here.
            let outcome = withExtendedLifetime(transfer) {
                result(of: easy.pointer, transfer, code: code, url: url, limits: limits, started: started)
            }
            curl_easy_cleanup(easy.pointer)
            finished(outcome.0, outcome.retryAfter)
        }
    }

    /// What a finished transfer gives: its response, or the failure as the user should hear it.
    private static func result(of handle: UnsafeMutableRawPointer, _ transfer: Transfer, code: CURLcode, url: String,
                               limits: Limits, started: Date) -> (Outcome, retryAfter: Int?) {
        switch code {
        case CURLE_OK: break
        case CURLE_WRITE_ERROR where transfer.exceeded: return (.failure(.tooLarge(limit: limits.maximumBytes)), nil)
        case CURLE_OPERATION_TIMEDOUT where Date().timeIntervalSince(started) < Double(limits.totalSeconds) - 1:
            // Stopped by the low-speed limit, not the overall one: nothing came for the whole
            // window (the server stopped), or too little (it trickled).
            let silent = Date().timeIntervalSince(transfer.lastByteArrival) >= Double(limits.slowSeconds) - 1
            return (.failure(silent ? .timedOut : .tooSlow), nil)
        default: return (.failure(DownloadError(curlCode: code, maximumBytes: limits.maximumBytes)), nil)
        }
        var status = 0
        cshim_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        guard status != 0 else { return (.failure(.closedEarly), nil) }
        guard (200..<300).contains(status) else {
            var retryAfter: curl_off_t = 0
            cshim_curl_getinfo_off_t(handle, CURLINFO_RETRY_AFTER, &retryAfter)
            return (.failure(.status(status)), retryAfter > 0 ? Int(retryAfter) : nil)
        }
        guard !transfer.body.isEmpty else { return (.failure(.closedEarly), nil) }
        var contentType: UnsafePointer<CChar>?
        cshim_curl_getinfo_string(handle, CURLINFO_CONTENT_TYPE, &contentType)
        var effective: UnsafePointer<CChar>?
        cshim_curl_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &effective)
        return (.success(HTTPResponse(body: transfer.body, contentType: contentType.map { String(cString: $0) },
                                      finalURL: effective.map { String(cString: $0) } ?? url)), nil)
    }
}

/// An easy handle on its way to the transfer thread, which owns it from then on.
private struct EasyHandle: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
    init(_ pointer: UnsafeMutableRawPointer) { self.pointer = pointer }
}

/// Runs every transfer on one libcurl multi handle, on a thread of its own. With a thread per
/// transfer, a drop's hundred answers arriving together woke a hundred threads that outweighed the
/// window's thread, and their buffers grew in as many heaps, each growth locking the process's
/// memory map against the window's thread's page faults. One thread reads every socket instead.
private final class TransferThread: Sendable {
    static let shared = TransferThread()

    typealias Finished = @Sendable (CURLcode) -> Void

    /// A handle handed over, until it is added to the multi handle.
    private struct HandedOver: Sendable {
        let handle: EasyHandle
        let finished: Finished
    }

    private let handedOver = Mutex<[HandedOver]>([])
    /// Touched by the transfer thread only, except `curl_multi_wakeup`, which libcurl allows from any thread.
    nonisolated(unsafe) private let multi: UnsafeMutableRawPointer

    private init() {
        multi = curl_multi_init()
        Thread { [self] in run() }.start()
    }

    /// Runs the transfer `handle` is set up for and calls `finished` with its result, on the
    /// transfer thread; the handle is that thread's until then, and its callbacks run there.
    func run(_ handle: EasyHandle, finished: @escaping Finished) {
        handedOver.withLock { $0.append(HandedOver(handle: handle, finished: finished)) }
        curl_multi_wakeup(multi)
    }

    private func run() {
        CurrentThread.name("transfers")
        CurrentThread.lowerPriority(by: 5)
        var running: [UnsafeMutableRawPointer: Finished] = [:]
        while true {
            let handed: [HandedOver] = handedOver.withLock { handed in
                defer { handed = [] }
                return handed
            }
            for transfer in handed {
                if curl_multi_add_handle(multi, transfer.handle.pointer) == CURLM_OK {
                    running[transfer.handle.pointer] = transfer.finished
                } else {
                    transfer.finished(CURLE_FAILED_INIT)
                }
            }
            var active: Int32 = 0
            curl_multi_perform(multi, &active)
            var queued: Int32 = 0
            while let message = curl_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle else { continue }
                let code = message.pointee.data.result
                curl_multi_remove_handle(multi, handle)
                running.removeValue(forKey: handle)?(code)
            }
            curl_multi_poll(multi, nil, 0, 1000, nil)
        }
    }
}
