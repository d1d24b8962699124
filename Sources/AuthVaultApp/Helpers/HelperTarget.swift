import NetworkHosts

/// Where a tool is about to send the token, as its protocol tells: the scheme, the host and the port, and from git
/// the path and the user in the URL. Every helper builds one and asks
/// `Application.helperProfile(for:current:isExplicit:)`, the one place that decides whether a token goes there.
public struct HelperTarget: Sendable, Equatable {
    /// Lowercased; only `https` ever gets a token.
    public let scheme: String
    public let endpoint: HostPort
    /// git's `path=` (sent with `credential.useHttpPath`): decoded, without leading or trailing slashes. Nil from
    /// every other tool.
    public let path: String?
    /// git's `username=`: the user in the remote URL (`https://alice@host/...`). Nil from every other tool.
    public let username: String?

    public init(scheme: String, endpoint: HostPort, path: String? = nil, username: String? = nil) {
        self.scheme = scheme.lowercased()
        self.endpoint = endpoint
        self.path = path.flatMap { $0.isEmpty ? nil : $0 }
        self.username = username.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// git's `protocol=` and `host=` lines (`host=example.com:8443` when the URL names a port), with its `path=`
    /// and `username=` when it sends them. Nil without a protocol or a host.
    public init?(gitProtocol: String?, host: String?, path: String? = nil, username: String? = nil) {
        guard let gitProtocol, let host, let endpoint = HostPort(host) else { return nil }
        self.init(scheme: gitProtocol, endpoint: endpoint, path: path, username: username)
    }

    /// A URL: kubectl's cluster server, Vault's address.
    public init?(url: String) {
        guard let parsed = ServiceURL(url) else { return nil }
        self.init(scheme: parsed.scheme, endpoint: parsed.authority)
    }

    /// What docker passes for a registry: usually the bare `host[:port]` (reached over https), sometimes a URL.
    public init?(dockerServer server: String) {
        if server.contains("://") {
            self.init(url: server)
        } else {
            guard let endpoint = HostPort(server.prefix { $0 != "/" }) else { return nil }
            self.init(scheme: "https", endpoint: endpoint)
        }
    }
}

/// The tools that name their server as a URL, and where each sends the token when it names none.
public enum URLTool: String, Sendable {
    /// kubectl names its cluster's server only with `provideClusterInfo: true`; without it, the plugin cannot
    /// know where the token goes, so it hands out none.
    case kubectl
    /// Vault's CLI calls its default address when VAULT_ADDR is unset or empty.
    case vault

    public static let vaultDefaultAddress = "https://127.0.0.1:8200"

    var unnamedAddress: String? {
        switch self {
        case .kubectl: nil
        case .vault: Self.vaultDefaultAddress
        }
    }
}

/// Whether a URL tool's call gets a token, and from which profile.
public enum URLToolDecision: Sendable, Equatable {
    case answer(profile: String)
    /// The tool named no server and has no default: no token.
    case noServerNamed
    /// The tool named something that is no URL.
    case notAURL(String)
    /// Not https, or a host no profile lists.
    case notListed(HelperTarget)
    /// Several profiles list the host and nothing tells them apart.
    case ambiguous(HelperTarget, candidates: [String])
}

extension Application {
    /// The decision for `tool`'s call naming `url` (nil or empty: it named none): every call decides on a server,
    /// the tool's default when it has one, and that server passes `helperProfile(for:current:isExplicit:)`.
    nonisolated(nonsending) public func helperDecision(
        for tool: URLTool, url: String?, current: String, isExplicit: Bool
    ) async throws(ApplicationError) -> URLToolDecision {
        guard let url = url.flatMap({ $0.isEmpty ? nil : $0 }) ?? tool.unnamedAddress else { return .noServerNamed }
        guard let target = HelperTarget(url: url) else { return .notAURL(url) }
        do {
            guard let profile = try await helperProfile(for: target, current: current, isExplicit: isExplicit) else {
                return .notListed(target)
            }
            return .answer(profile: profile)
        } catch .ambiguousHelperTarget(_, let candidates) {
            return .ambiguous(target, candidates: candidates)
        }
    }
}
