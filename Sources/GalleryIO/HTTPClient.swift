import CCurl
import CShim
import Foundation
import GalleryCore
import Synchronization

/// Downloads with libcurl, one easy handle each, set up on the caller's thread and run by the transfer
/// thread; no thread waits for a download. Only http and https (also after redirects), a size cap,
/// connect and low-speed timeouts.
public enum HTTPClient {
    /// How the app names itself to servers; set by `globalInit`.
    private static let userAgent = Mutex("")

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
        self.userAgent.withLock { $0 = userAgent }
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    }

    public typealias Outcome = Result<HTTPResponse, DownloadError>

    /// Starts downloading `url` and returns at once: no thread waits for the server. `completion`
    /// gets the result on the transfer thread, which runs every transfer: hand anything slow on.
    /// - Parameter progress: called with bytes received and the expected total, if known; return
    ///   false to cancel.
    public static func start(_ url: String, limits: Limits = Limits(), cancellation: CancellationToken? = nil,
                             progress: @escaping @Sendable (Int64, Int64?) -> Bool,
                             completion: @escaping @Sendable (Outcome) -> Void) {
        let checked: @Sendable (Int64, Int64?) -> Bool = { received, expected in
            !(cancellation?.isCancelled ?? false) && progress(received, expected)
        }
        attempt(url, limits: limits, cancellation: cancellation, progress: checked, retriesLeft: limits.retries,
                completion: completion)
    }

    private static func attempt(_ url: String, limits: Limits, cancellation: CancellationToken?,
                                progress: @escaping @Sendable (Int64, Int64?) -> Bool, retriesLeft: Int,
                                completion: @escaping @Sendable (Outcome) -> Void) {
        startOnce(url, limits: limits, progress: progress) { result, retryAfter in
            guard case .failure(.status(let code)) = result, code == 429 || code == 503, retriesLeft > 0,
                  let wait = retryAfter, wait <= limits.longestRetryWait else { return completion(result) }
            // The server asked to come back later: the transfer thread's timer waits, no thread does.
            TransferThread.shared.after(seconds: max(wait, 1), unless: cancellation) { cancelled in
                if cancelled { return completion(.failure(.cancelled)) }
                attempt(url, limits: limits, cancellation: cancellation, progress: progress,
                        retriesLeft: retriesLeft - 1, completion: completion)
            }
        }
    }

    /// One try: `finished` gets the result, and the Retry-After seconds of a 429 or 503.
    private static func startOnce(_ url: String, limits: Limits, progress: @escaping @Sendable (Int64, Int64?) -> Bool,
                                  finished: @escaping @Sendable (Outcome, _ retryAfter: Int?) -> Void) {
        guard let handle = curl_easy_init() else {
            return finished(.failure(.network(curlCode: Int(CURLE_FAILED_INIT.rawValue))), nil)
        }
        let transfer = TransferBuffer(limit: limits.maximumBytes, progress: progress)
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
        cshim_curl_setopt_ptr(handle, CURLOPT_USERAGENT, userAgent.withLock { $0 })
        cshim_curl_setopt_ptr(handle, CURLOPT_ACCEPT_ENCODING, "")
        cshim_curl_setopt_write(handle) { data, size, count, user in
            let transfer = Unmanaged<TransferBuffer>.fromOpaque(user!).takeUnretainedValue()
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
            let transfer = Unmanaged<TransferBuffer>.fromOpaque(user!).takeUnretainedValue()
            if Int64(now) > transfer.bytesSoFar {
                transfer.bytesSoFar = Int64(now)
                transfer.lastByteArrival = Date()
            }
            return transfer.progress(Int64(now), total > 0 ? Int64(total) : nil) ? 0 : 1
        }
        cshim_curl_setopt_ptr(handle, CURLOPT_XFERINFODATA, transferPointer)

        let started = Date()
        TransferThread.shared.run(CurlTransfer(handle: handle, transfer: transfer) { handle, transfer, code in
            let outcome = result(of: handle, transfer, code: code, url: url, limits: limits, started: started)
            curl_easy_cleanup(handle)
            finished(outcome.0, outcome.retryAfter)
        })
    }

    /// What a finished transfer gives: its response, or the failure as the user should hear it.
    private static func result(of handle: UnsafeMutableRawPointer, _ transfer: TransferBuffer, code: CURLcode, url: String,
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
