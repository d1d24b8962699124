import HTTPTransport

extension Application {
    /// The proxies of this application's environment, read as curl reads them: `https_proxy` (or `HTTPS_PROXY`) for
    /// https, `http_proxy` for plain http (lower case only: a web server sets `HTTP_PROXY` from a client's `Proxy`
    /// header), `all_proxy` (or `ALL_PROXY`) for either when unset, and `no_proxy` (or `NO_PROXY`) for the hosts
    /// reached directly.
    public var proxySettings: HTTPProxySettings {
        let either = first("all_proxy", "ALL_PROXY")
        return HTTPProxySettings(httpsProxy: first("https_proxy", "HTTPS_PROXY") ?? either,
                                 httpProxy: first("http_proxy") ?? either,
                                 noProxy: first("no_proxy", "NO_PROXY"))
    }

    private func first(_ names: String...) -> String? {
        for name in names {
            if let value = environment.nonEmpty(name) { return value }
        }
        return nil
    }
}
