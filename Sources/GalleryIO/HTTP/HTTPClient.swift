import CCurl
import CShim
import Foundation
import GalleryCore
import Synchronization

/// Downloads with libcurl, one easy handle each, set up on the caller's thread and run by the transfer
/// thread; no thread waits for a download. Only http and https (also after redirects), a size cap,
/// connect and low-speed timeouts, no redirect from the internet into the user's network or machine,
/// and transfers queued behind per-host and total connection limits and a budget of bytes held.
public enum HTTPClient {
    /// How the app names itself to servers; set by `setUserAgent`.
    private static let userAgent = Mutex("")

    public struct Limits: Sendable {
        public var maximumBytes = ImageLimits.maximumDownloadBytes
        /// An answer that is a page (sent as `text/html`, or whose first bytes are HTML) is stopped once about
        /// this much of it has come, and what came is the answer; nil: a page is read as any other answer.
        public var maximumPageBytes: Int64? = nil
        public var connectTimeoutSeconds = 15
        /// A transfer slower than `slowBytesPerSecond` for this long is abandoned: a server that
        /// trickles must not hold a download for ever.
        public var slowSeconds = 15
        public var slowBytesPerSecond = 512
        /// A transfer slower than `slowBytesPerSecond` for this long gives its connection to an image the user
        /// waits for (the viewer's, a cell's on screen, a drop's) that has none, and starts again after it.
        public var giveWaySeconds = 3
        /// No transfer, however steady, lasts longer (an endless chunked response).
        public var totalSeconds = 120
        /// 429 and 503 with Retry-After are tried again after at most this wait, this many times.
        public var longestRetryWait = 10
        public var retries = 2
        /// Not even the first request may go into the user's network or machine: an address another computer wrote
        /// that the user here did not approve, whose name may look public and still lead there.
        public var publicAddressesOnly = false
        /// The scope of a peer's address (and port), which a redirect may not leave for a closer one.
        public var addressScope: @Sendable (_ address: String, _ port: Int) -> AddressScope = { address, _ in
            AddressScope(address)
        }
        /// The certificate authorities TLS trusts instead of the system's; only tests name theirs, through
        /// `IMAGE_GALLERY_TEST_CA_FILE`, which a normal run has not.
        var certificateAuthorities = HTTPClient.testCertificateAuthorities
        /// The thread (with its queue, connection limits and budget) that runs the transfer.
        var transfers = TransferThread.shared
        public init() {}
    }

    /// The end-to-end tests' own certificate authority, for their HTTP/2 server on 127.0.0.1.
    private static let testCertificateAuthorities = ProcessInfo.processInfo.environment["IMAGE_GALLERY_TEST_CA_FILE"]

    /// Call once before any thread downloads.
    public static func setUserAgent(_ userAgent: String) {
        self.userAgent.withLock { $0 = userAgent }
    }

    public typealias Outcome = Result<HTTPResponse, DownloadError>

    /// Starts downloading `url` and returns at once: no thread waits for the server. `completion`
    /// gets the result on the transfer thread, which runs every transfer: hand anything slow on.
    /// - Parameters:
    ///   - priority: its place among transfers waiting for a connection, as among jobs.
    ///   - progress: called with bytes received and the expected total, if known; return false to cancel.
    public static func start(
        _ url: String, limits: Limits = Limits(), priority: JobPriority = .background,
        cancellation: CancellationToken? = nil,
        progress: @escaping @Sendable (Int64, Int64?) -> Bool,
        completion: @escaping @Sendable (Outcome) -> Void
    ) {
        let checked: @Sendable (Int64, Int64?) -> Bool = { received, expected in
            !(cancellation?.isCancelled ?? false) && progress(received, expected)
        }
        attempt(
            url, limits: limits, priority: priority, cancellation: cancellation, progress: checked,
            retriesLeft: limits.retries, completion: completion)
    }

    private static func attempt(
        _ url: String, limits: Limits, priority: JobPriority, cancellation: CancellationToken?,
        progress: @escaping @Sendable (Int64, Int64?) -> Bool, retriesLeft: Int,
        completion: @escaping @Sendable (Outcome) -> Void
    ) {
        let finished: @Sendable (Outcome, _ retryAfter: Int?) -> Void = { result, retryAfter in
            guard case .failure(.status(let code)) = result, code == 429 || code == 503, retriesLeft > 0,
                let wait = retryAfter, wait <= limits.longestRetryWait
            else { return completion(result) }
            // The server asked to come back later: the transfer thread's timer waits, no thread does.
            limits.transfers.after(seconds: max(wait, 1), unless: cancellation) { cancelled in
                if cancelled { return completion(.failure(.cancelled)) }
                attempt(
                    url, limits: limits, priority: priority, cancellation: cancellation, progress: progress,
                    retriesLeft: retriesLeft - 1, completion: completion)
            }
        }
        limits.transfers.run(
            TransferRequest(
                url: url, limits: limits, userAgent: userAgent.withLock { $0 }, priority: priority,
                cancellation: cancellation, progress: progress, finished: finished))
    }
}
