import HTTPTransport

extension Application {
    /// The proxy of this application's environment, read as curl reads it: `https_proxy` (or `HTTPS_PROXY`), else
    /// `all_proxy` (or `ALL_PROXY`), and `no_proxy` (or `NO_PROXY`) for the hosts reached directly. `http_proxy` is
    /// not read: plain http goes only to loopback addresses, which never go through a proxy (`HTTPProxySettings`).
    public var proxySettings: HTTPProxySettings {
        HTTPProxySettings(
            httpsProxy: first("https_proxy", "HTTPS_PROXY") ?? first("all_proxy", "ALL_PROXY"),
            noProxy: first("no_proxy", "NO_PROXY"))
    }

    private func first(_ names: String...) -> String? {
        for name in names {
            if let value = environment.nonEmpty(name) { return value }
        }
        return nil
    }
}
