import DebugTrace

/// How `CurlTransport` talks to servers. TLS peer and host verification are always on; a private CA is
/// trusted only by naming its bundle here.
public struct CurlTransportConfiguration: Sendable {
    /// A PEM file of CA certificates to trust instead of the system bundle.
    public var caBundlePath: String?
    /// Sent as `User-Agent` unless a request sets its own.
    public var userAgent: String
    /// The deadline for establishing a connection (TCP and TLS handshake).
    public var connectTimeout: Duration
    /// The overall deadline of a request that sets no `timeout` of its own.
    public var defaultTimeout: Duration
    /// A larger response body fails with `HTTPError.responseTooLarge`.
    public var maximumResponseBytes: Int
    /// How many transfers run at once; each has a worker thread that keeps its connections alive between
    /// requests. Workers start when first needed; further requests wait for a free one.
    public var maximumConcurrentTransfers: Int
    /// The proxies to go through; none by default.
    public var proxy: HTTPProxySettings
    /// Each request's method, redacted URL, status and time (`--debug`).
    public var trace: DebugTrace

    public init(
        caBundlePath: String? = nil,
        userAgent: String = "authvault",
        connectTimeout: Duration = .seconds(5),
        defaultTimeout: Duration = .seconds(30),
        maximumResponseBytes: Int = 8 << 20,
        maximumConcurrentTransfers: Int = 4,
        proxy: HTTPProxySettings = .init(),
        trace: DebugTrace = .off
    ) {
        self.caBundlePath = caBundlePath
        self.userAgent = userAgent
        self.connectTimeout = connectTimeout
        self.defaultTimeout = defaultTimeout
        self.maximumResponseBytes = maximumResponseBytes
        self.maximumConcurrentTransfers = max(1, maximumConcurrentTransfers)
        self.proxy = proxy
        self.trace = trace
    }
}
