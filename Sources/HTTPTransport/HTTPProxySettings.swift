/// The proxies requests go through, with the meaning curl gives its variables: one proxy for https URLs, one for
/// plain http, and the hosts reached directly. Only these count: with none set, no proxy is used whatever the
/// process environment says (the transport never reads the environment; the application passes these in).
public struct HTTPProxySettings: Sendable, Equatable {
    /// `https_proxy`: for https URLs (a CONNECT tunnel; TLS is still verified end to end with the origin).
    public var httpsProxy: String?
    /// `http_proxy`: for plain http URLs (loopback only, so rarely wanted).
    public var httpProxy: String?
    /// `no_proxy` in curl's syntax: comma-separated host names (matching their subdomains too), IP addresses or
    /// CIDR ranges, or `*` for every host.
    public var noProxy: String?

    public init(httpsProxy: String? = nil, httpProxy: String? = nil, noProxy: String? = nil) {
        self.httpsProxy = httpsProxy
        self.httpProxy = httpProxy
        self.noProxy = noProxy
    }

    /// The proxy for `url`; nil for a direct connection.
    func proxy(for url: String) -> String? {
        let scheme = url.prefix { $0 != ":" }.lowercased()
        let proxy = scheme == "https" ? httpsProxy : scheme == "http" ? httpProxy : nil
        return proxy.flatMap { $0.isEmpty ? nil : $0 }
    }
}
