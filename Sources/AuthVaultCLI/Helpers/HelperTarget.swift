import NetworkHosts

/// Where a tool is about to send the token, as its protocol tells: the scheme, the host and the port. Every helper
/// builds one and asks `HelperToken.profile(for:context:)`, the one place that decides whether a token goes there.
struct HelperTarget: Equatable {
    /// Lowercased; only `https` ever gets a token.
    let scheme: String
    let endpoint: HostPort

    init(scheme: String, endpoint: HostPort) {
        self.scheme = scheme.lowercased()
        self.endpoint = endpoint
    }

    /// git's `protocol=` and `host=` lines (`host=example.com:8443` when the URL names a port). Nil without either.
    init?(gitProtocol: String?, host: String?) {
        guard let gitProtocol, let host, let endpoint = HostPort(host) else { return nil }
        self.init(scheme: gitProtocol, endpoint: endpoint)
    }

    /// A URL: kubectl's cluster server, Vault's address.
    init?(url: String) {
        guard let parsed = ServiceURL(url) else { return nil }
        self.init(scheme: parsed.scheme, endpoint: parsed.authority)
    }

    /// What docker passes for a registry: usually the bare `host[:port]` (reached over https), sometimes a URL.
    init?(dockerServer server: String) {
        if server.contains("://") {
            self.init(url: server)
        } else {
            guard let endpoint = HostPort(server.prefix { $0 != "/" }) else { return nil }
            self.init(scheme: "https", endpoint: endpoint)
        }
    }

    /// Whether a `configure --helper-host` entry names this target: the same host (names regardless of case and a
    /// trailing dot, addresses by value), and the same port when the entry names one (443 when the target names
    /// none). An entry without a port stands for the host on any port.
    func isListed(by entry: String) -> Bool {
        guard let listed = HostPort(entry), listed.host == endpoint.host else { return false }
        guard let port = listed.port else { return true }
        return port == (endpoint.port ?? 443)
    }
}
