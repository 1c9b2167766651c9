import CCurl
import CShim
import Foundation
import GalleryCore

/// A libcurl easy handle made on the transfer thread from a `TransferRequest`, with the buffer its
/// callbacks fill; it stays on that thread, and is cleaned up when the transfer has ended.
final class EasyTransfer {
    let handle: UnsafeMutableRawPointer
    let request: TransferRequest
    let buffer: TransferBuffer
    /// Its turn among the transfers started: of two holding as much, the older goes on over the budget.
    let sequence: Int
    private let started = Date()
    /// The seconds it may trickle before libcurl stops it: what its request has not trickled away already.
    private let lowSpeedSeconds: Int
    /// Since when it has moved slower than a trickle, as the transfer thread's looks saw it; nil while it moves
    /// faster, or waits paused for room in the budget, which is no fault of its server.
    private var slowSince: ContinuousClock.Instant?
    private var lastLook: (at: ContinuousClock.Instant, bytes: Int64) = (.now, 0)

    /// nil when libcurl cannot make a handle.
    init?(_ request: TransferRequest, budget: TransferBudget, sequence: Int) {
        guard let handle = cshim_curl_easy_init() else { return nil }
        self.handle = handle
        self.request = request
        self.sequence = sequence
        let limits = request.limits
        lowSpeedSeconds = max(1, limits.slowSeconds - Int(request.stalled.components.seconds))
        buffer = TransferBuffer(
            limit: limits.maximumBytes, budget: budget, addressScope: limits.addressScope, progress: request.progress)
        buffer.publicAddressesOnly = limits.publicAddressesOnly
        buffer.pageLimit = limits.maximumPageBytes
        buffer.contentType = {
            var contentType: UnsafePointer<CChar>?
            cshim_curl_getinfo_string(handle, CURLINFO_CONTENT_TYPE, &contentType)
            return contentType.map { String(cString: $0) }
        }
        // The handle points at the buffer, which lives as long as this object, and this object as long as the
        // handle.
        let bufferPointer = Unmanaged.passUnretained(buffer).toOpaque()
        cshim_curl_setopt_ptr(handle, CURLOPT_URL, request.url)
        cshim_curl_setopt_ptr(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        cshim_curl_setopt_ptr(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        cshim_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1)
        cshim_curl_setopt_long(handle, CURLOPT_MAXREDIRS, 10)
        cshim_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        cshim_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, limits.connectTimeoutSeconds)
        cshim_curl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, limits.slowBytesPerSecond)
        cshim_curl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, lowSpeedSeconds)
        cshim_curl_setopt_long(handle, CURLOPT_TIMEOUT, limits.totalSeconds)
        cshim_curl_setopt_off_t(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limits.maximumBytes))
        cshim_curl_setopt_ptr(handle, CURLOPT_USERAGENT, request.userAgent)
        if let authorities = limits.certificateAuthorities {
            cshim_curl_setopt_ptr(handle, CURLOPT_CAINFO, authorities)
        }
        // A second transfer to a server waits for the first's connection to say whether it multiplexes, rather than
        // opening a connection of its own; only over TLS, where HTTP/2 is offered: a cleartext connection is
        // HTTP/1.1, and waiting on it would put every transfer to the server behind one connection.
        if request.url.lowercased().hasPrefix("https:") { cshim_curl_setopt_long(handle, CURLOPT_PIPEWAIT, 1) }
        // Images come compressed already, and a body libcurl inflated (a gzip bomb) would grow past every count of
        // bytes held: what a server sends with a Content-Encoding reaches the decoder as it came.
        cshim_curl_setopt_long(handle, CURLOPT_HTTP_CONTENT_DECODING, 0)
        cshim_curl_setopt_write(handle) { data, size, count, user in
            let transfer = Unmanaged<TransferBuffer>.fromOpaque(user!).takeUnretainedValue()
            let length = size * count
            if let pageLimit = transfer.pageLimit, Int64(transfer.body.count + length) > pageLimit,
                PageHTML.isPage(transfer.body, contentType: transfer.contentType())
            {
                // The piece that crosses the limit is left out: a page is read only that far.
                transfer.cutPage = true
                return 0
            }
            if Int64(transfer.body.count + length) > transfer.limit {
                transfer.exceeded = true
                return 0
            }
            guard transfer.budget.take(Int64(length), evenOver: transfer.mayExceedBudget) else {
                // libcurl keeps this piece and stops reading the socket until the transfer thread resumes it.
                transfer.paused = true
                return Int(CURL_WRITEFUNC_PAUSE)
            }
            if let data {
                transfer.body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length)
            }
            return length
        }
        cshim_curl_setopt_ptr(handle, CURLOPT_WRITEDATA, bufferPointer)
        cshim_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0)
        cshim_curl_setopt_xferinfo(handle) { user, total, now, _, _ in
            let transfer = Unmanaged<TransferBuffer>.fromOpaque(user!).takeUnretainedValue()
            if Int64(now) > transfer.bytesSoFar {
                transfer.bytesSoFar = Int64(now)
                transfer.lastByteArrival = Date()
            }
            return transfer.progress(Int64(now), total > 0 ? Int64(total) : nil) ? 0 : 1
        }
        cshim_curl_setopt_ptr(handle, CURLOPT_XFERINFODATA, bufferPointer)
        // Every request, a redirect's or one on a reused connection too, is checked against the first one's address.
        cshim_curl_setopt_prereq(handle) { user, address, _, port, _ in
            let transfer = Unmanaged<TransferBuffer>.fromOpaque(user!).takeUnretainedValue()
            let allowed = transfer.allowsRequest(to: address.map { String(cString: $0) } ?? "", port: Int(port))
            return allowed ? CURL_PREREQFUNC_OK : CURL_PREREQFUNC_ABORT
        }
        cshim_curl_setopt_ptr(handle, CURLOPT_PREREQDATA, bufferPointer)
    }

    deinit { cshim_curl_easy_cleanup(handle) }

    /// Tells the request's `finished` how the transfer ended (`code`, libcurl's).
    func finish(_ code: CURLcode) {
        let (outcome, retryAfter) = result(of: code)
        // A response holds its bytes against the budget; a failure's are free now.
        if case .failure = outcome { buffer.budget.release(Int64(buffer.body.count)) }
        buffer.body = Data()
        request.finished(outcome, retryAfter)
    }

    /// Whether its server answered over HTTP/2 or later, multiplexing its transfers; nil when no answer came from
    /// the server it was sent to first (none at all, or a redirect's).
    var answeredMultiplexing: Bool? {
        var version = 0
        var redirects = 0
        cshim_curl_getinfo_long(handle, CURLINFO_HTTP_VERSION, &version)
        cshim_curl_getinfo_long(handle, CURLINFO_REDIRECT_COUNT, &redirects)
        guard version != 0, redirects == 0 else { return nil }
        return version >= Int(CURL_HTTP_VERSION_2_0)
    }

    /// Whether the TLS connection it is on, to the server it was sent to first, agreed on HTTP/2 in its handshake:
    /// whether its server multiplexes, known before the first answer comes; nil until a handshake with that server
    /// has finished.
    var negotiatedMultiplexing: Bool? {
        var redirects = 0
        cshim_curl_getinfo_long(handle, CURLINFO_REDIRECT_COUNT, &redirects)
        guard redirects == 0 else { return nil }
        switch cshim_curl_handshake(handle) {
        case CSHIM_HANDSHAKE_HTTP2: return true
        case CSHIM_HANDSHAKE_OTHER: return false
        default: return nil
        }
    }

    /// Notes how far it got since the last look, which the transfer thread takes about once a second.
    func look(at now: ContinuousClock.Instant) {
        let bytes = buffer.bytesSoFar
        defer { lastLook = (now, bytes) }
        let seconds = (now - lastLook.at) / .seconds(1)
        if buffer.paused || Double(bytes - lastLook.bytes) >= Double(request.limits.slowBytesPerSecond) * seconds {
            slowSince = nil
        } else if slowSince == nil {
            slowSince = lastLook.at
        }
    }

    /// How long it has moved slower than a trickle, up to `now`.
    func stalled(at now: ContinuousClock.Instant) -> Duration { slowSince.map { now - $0 } ?? .zero }

    /// Lets go of the bytes received, for a transfer that gives up its connection and starts again later.
    func setAside() {
        buffer.budget.release(Int64(buffer.body.count))
        buffer.body = Data()
    }

    /// Lets a transfer paused for want of budget go on; it pauses again if there is still no room.
    func resume() {
        guard buffer.paused else { return }
        buffer.paused = false
        cshim_curl_easy_pause(handle, CURLPAUSE_CONT)
    }

    /// What a finished transfer gives: its response, or the failure as the user should hear it.
    private func result(of code: CURLcode) -> (HTTPClient.Outcome, retryAfter: Int?) {
        let limits = request.limits
        let transfer = buffer
        switch code {
        case CURLE_OK: break
        case CURLE_WRITE_ERROR where transfer.cutPage: break
        case CURLE_WRITE_ERROR where transfer.exceeded: return (.failure(.tooLarge(limit: limits.maximumBytes)), nil)
        case CURLE_ABORTED_BY_CALLBACK where transfer.refusedAddress: return (.failure(.refusedAddress), nil)
        case CURLE_ABORTED_BY_CALLBACK where transfer.refusedLocalAddress: return (.failure(.localNetwork), nil)
        case CURLE_OPERATION_TIMEDOUT where Date().timeIntervalSince(started) < Double(limits.totalSeconds) - 1:
            // Stopped by the low-speed limit, not the overall one: nothing came for the whole
            // window (the server stopped), or too little (it trickled).
            let silent = Date().timeIntervalSince(transfer.lastByteArrival) >= Double(lowSpeedSeconds) - 1
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
        return (
            .success(
                HTTPResponse(
                    body: transfer.body, contentType: contentType.map { String(cString: $0) },
                    finalURL: effective.map { String(cString: $0) } ?? request.url,
                    held: HeldBytes(Int64(transfer.body.count), of: transfer.budget))), nil
        )
    }
}
