/// One try at a download, as values: the transfer thread makes the libcurl handle from it.
struct TransferRequest: Sendable {
    let url: String
    let limits: HTTPClient.Limits
    let userAgent: String
    /// Bytes received and expected (if known), on the transfer thread; false stops the transfer.
    let progress: @Sendable (_ received: Int64, _ expected: Int64?) -> Bool
    /// The result, and the Retry-After seconds of a 429 or 503, on the transfer thread.
    let finished: @Sendable (HTTPClient.Outcome, _ retryAfter: Int?) -> Void
}
