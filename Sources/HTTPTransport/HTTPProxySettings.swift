import NetworkHosts

/// The proxy requests go through, with the meaning curl gives its variables: one proxy for https URLs, and the hosts
/// reached directly. Only these count: with none set, no proxy is used whatever the process environment says (the
/// transport never reads the environment; the application passes these in).
///
/// A loopback endpoint (127.0.0.0/8, [::1], `localhost`: an emulator, a local provider) is never sent to a proxy,
/// whatever the settings: it is on this machine, and a proxy would see its passwords, codes and tokens (in clear
/// over plain http). Plain http is allowed only to loopback (`ServiceURL`), so no request ever needs an http proxy.
public struct HTTPProxySettings: Sendable, Equatable {
    /// `https_proxy`: for https URLs (a CONNECT tunnel; TLS is still verified end to end with the origin).
    public var httpsProxy: String?
    /// `no_proxy` in curl's syntax: comma-separated host names (matching their subdomains too), IP addresses or
    /// CIDR ranges, or `*` for every host.
    public var noProxy: String?

    public init(httpsProxy: String? = nil, noProxy: String? = nil) {
        self.httpsProxy = httpsProxy
        self.noProxy = noProxy
    }

    /// The proxy for `url`; nil for a direct connection: any URL but https to a host that is neither loopback nor
    /// in `noProxy`. The one decision: libcurl is handed this proxy or none, never `noProxy` to decide again.
    func proxy(for url: String) -> String? {
        guard let service = ServiceURL(url), service.scheme == "https", !service.authority.host.isLoopback,
            !NoProxyList(noProxy).contains(service.authority.host),
            let httpsProxy, !httpsProxy.isEmpty
        else { return nil }
        return httpsProxy
    }
}
