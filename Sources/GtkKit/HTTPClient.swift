import CCurl
import CShim
import Foundation

public struct HTTPResponse: Sendable {
    public let body: Data
    public let contentType: String?
    /// The URL after redirects.
    public let finalURL: String
}

public enum DownloadError: Error, Equatable, CustomStringConvertible {
    case status(Int)
    case tooLarge(limit: Int64)
    case timedOut
    case cancelled
    case refusedProtocol
    case network(String)

    public var description: String {
        switch self {
        case .status(let code): "HTTP \(code)"
        case .tooLarge(let limit): "larger than \(limit / 1_000_000) MB"
        case .timedOut: "timed out"
        case .cancelled: "cancelled"
        case .refusedProtocol: "only http and https are downloaded"
        case .network(let message): message
        }
    }
}

/// Blocking downloads with libcurl, one easy handle per call, run on a worker thread.
/// Only http and https (also after redirects), a size cap, connect and low-speed timeouts.
public enum HTTPClient {
    public static let userAgent = "ImageGallery/0.1 (+https://github.com/imagegallery/ImageGallery)"

    public struct Limits: Sendable {
        public var maximumBytes: Int64 = 50_000_000
        public var connectTimeoutSeconds = 15
        /// A transfer slower than one byte a second for this long is abandoned.
        public var stallSeconds = 15
        public init() {}
    }

    /// Call once before any thread downloads.
    public static func globalInit() { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }

    private final class Transfer: @unchecked Sendable {
        var body = Data()
        var exceeded = false
        let limit: Int64
        let progress: @Sendable (_ received: Int64, _ expected: Int64?) -> Bool
        init(limit: Int64, progress: @escaping @Sendable (Int64, Int64?) -> Bool) {
            self.limit = limit
            self.progress = progress
        }
    }

    /// - Parameter progress: called with bytes received and the expected total, if known; return
    ///   false to cancel.
    public static func download(_ url: String, limits: Limits = Limits(),
                                progress: @escaping @Sendable (Int64, Int64?) -> Bool) -> Result<HTTPResponse, DownloadError> {
        guard let handle = curl_easy_init() else { return .failure(.network("libcurl could not start")) }
        defer { curl_easy_cleanup(handle) }
        let transfer = Transfer(limit: limits.maximumBytes, progress: progress)
        let transferPointer = Unmanaged.passUnretained(transfer).toOpaque()
        return withExtendedLifetime(transfer) {
            cshim_curl_setopt_ptr(handle, CURLOPT_URL, url)
            cshim_curl_setopt_ptr(handle, CURLOPT_PROTOCOLS_STR, "http,https")
            cshim_curl_setopt_ptr(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
            cshim_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1)
            cshim_curl_setopt_long(handle, CURLOPT_MAXREDIRS, 10)
            cshim_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
            cshim_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, limits.connectTimeoutSeconds)
            cshim_curl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1)
            cshim_curl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, limits.stallSeconds)
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
                if let data { transfer.body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length) }
                return length
            }
            cshim_curl_setopt_ptr(handle, CURLOPT_WRITEDATA, transferPointer)
            cshim_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0)
            cshim_curl_setopt_xferinfo(handle) { user, total, now, _, _ in
                let transfer = Unmanaged<Transfer>.fromOpaque(user!).takeUnretainedValue()
                return transfer.progress(Int64(now), total > 0 ? Int64(total) : nil) ? 0 : 1
            }
            cshim_curl_setopt_ptr(handle, CURLOPT_XFERINFODATA, transferPointer)

            let code = curl_easy_perform(handle)
            switch code {
            case CURLE_OK: break
            case CURLE_FILESIZE_EXCEEDED: return .failure(.tooLarge(limit: limits.maximumBytes))
            case CURLE_WRITE_ERROR where transfer.exceeded: return .failure(.tooLarge(limit: limits.maximumBytes))
            case CURLE_OPERATION_TIMEDOUT: return .failure(.timedOut)
            case CURLE_ABORTED_BY_CALLBACK: return .failure(.cancelled)
            case CURLE_UNSUPPORTED_PROTOCOL: return .failure(.refusedProtocol)
            default: return .failure(.network(String(cString: curl_easy_strerror(code))))
            }
            var status = 0
            cshim_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
            guard (200..<300).contains(status) else { return .failure(.status(status)) }
            var contentType: UnsafePointer<CChar>?
            cshim_curl_getinfo_string(handle, CURLINFO_CONTENT_TYPE, &contentType)
            var effective: UnsafePointer<CChar>?
            cshim_curl_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &effective)
            return .success(HTTPResponse(body: transfer.body, contentType: contentType.map { String(cString: $0) },
                                         finalURL: effective.map { String(cString: $0) } ?? url))
        }
    }
}
