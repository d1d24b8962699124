import NetworkHosts

/// Why a request got no usable response. Messages name hosts and curl's diagnosis, never the request's
/// query, headers or body.
public enum HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL is malformed or not `http`/`https`; it carries the URL without query or user information.
    case invalidURL(String)
    /// Plain http to a host that is not a loopback address, or a URL whose host cannot be told for sure (user
    /// information, escapes): refused before any connection. It carries the URL without query or user information.
    case insecureURL(String)
    /// The request itself can't be sent as given (a line break in a header, a bad method).
    case invalidRequest(String)
    case cannotResolveHost(String)
    case cannotConnect(String)
    /// The proxy could not be resolved, reached, or refused the tunnel.
    case proxyFailure(String)
    case timedOut
    /// The peer's certificate is not trusted, or the handshake failed.
    case tlsFailure(String)
    /// Reset, empty reply, partial transfer.
    case connectionLost(String)
    case caBundleUnreadable(String)
    /// The body exceeded `CurlTransportConfiguration.maximumResponseBytes`.
    case responseTooLarge(limit: Int)
    /// The awaiting task was cancelled.
    case cancelled
    case other(String)

    /// True for trouble that may pass by itself (the network, the peer, a deadline): worth another try
    /// and never a reason to sign the user out.
    public var isRetryable: Bool {
        switch self {
        case .cannotResolveHost, .cannotConnect, .proxyFailure, .timedOut, .connectionLost: true
        case .invalidURL, .insecureURL, .invalidRequest, .tlsFailure, .caBundleUnreadable, .responseTooLarge,
            .cancelled, .other:
            false
        }
    }

    public var description: String {
        switch self {
        case .invalidURL(let url): "invalid URL (only http:// and https:// are allowed): \(url)"
        case .insecureURL(let url): "refused to send to \(url): \(ServiceURL.rule)"
        case .invalidRequest(let reason): "invalid request: \(reason)"
        case .cannotResolveHost(let host): "cannot resolve host \(host): check the network and the endpoint's name"
        case .cannotConnect(let reason): "cannot connect: \(reason)"
        case .proxyFailure(let reason): "the proxy failed: \(reason) (check https_proxy and no_proxy)"
        case .timedOut: "the request timed out"
        case .tlsFailure(let reason): "TLS failure: \(reason)"
        case .connectionLost(let reason): "connection lost: \(reason)"
        case .caBundleUnreadable(let reason): "cannot use the CA bundle: \(reason)"
        case .responseTooLarge(let limit): "the response is larger than the limit of \(limit) bytes"
        case .cancelled: "the request was cancelled"
        case .other(let reason): reason
        }
    }
}
