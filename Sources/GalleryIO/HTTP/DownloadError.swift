import CCurl

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
    /// A redirect (or a later request) would have gone to an address closer to the user's machine than the
    /// first request's: from the internet into the local network, or from either to this computer.
    case refusedAddress
    /// The first request would have gone into the user's network or machine, which this transfer may not reach
    /// (`HTTPClient.Limits.publicAddressesOnly`).
    case localNetwork
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
