import Foundation

/// One try at a download, as values: the transfer thread makes the libcurl handle from it.
struct TransferRequest: Sendable {
    let url: String
    let limits: HTTPClient.Limits
    let userAgent: String
    /// Where it waits among queued transfers.
    let priority: JobPriority
    /// A queued transfer that is cancelled leaves the queue without a connection.
    let cancellation: CancellationToken?
    /// Bytes received and expected (if known), on the transfer thread; false stops the transfer.
    let progress: @Sendable (_ received: Int64, _ expected: Int64?) -> Bool
    /// The result, and the Retry-After seconds of a 429 or 503, on the transfer thread.
    let finished: @Sendable (HTTPClient.Outcome, _ retryAfter: Int?) -> Void
    /// How long it trickled before it gave its connection to an image the user waits for: a transfer set
    /// aside and started again still stops once it has trickled for `limits.slowSeconds` in all.
    var stalled: Duration = .zero

    /// The server it connects to first, as the per-host limit counts them: scheme, host and port, since a server
    /// over TLS may turn out to multiplex (`ServerConnections`).
    var hostKey: String {
        guard let parsed = URL(string: url), let host = parsed.host?.lowercased() else { return url }
        let overTLS = parsed.scheme?.lowercased() == "https"
        return "\(overTLS ? "https" : "http")://\(host):\(parsed.port ?? (overTLS ? 443 : 80))"
    }
}
