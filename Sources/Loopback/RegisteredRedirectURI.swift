import NetworkHosts

/// One redirect URI as registered with the app client, checked for what a loopback listener can serve.
///
/// The string is kept exactly as registered: Cognito compares `redirect_uri` byte for byte, port and path included.
public struct RegisteredRedirectURI: Sendable, Equatable {
    /// The URI exactly as registered, to be sent as `redirect_uri`.
    public let string: String
    public let port: Int
    /// The path the browser will request (`/` when the URI has none).
    public let path: String
    let host: LoopbackHost
    /// `http://host:port` as registered, the prefix of every callback URL the browser is sent to.
    let origin: String
    /// The `Host` the browser sends with the redirect: the authority as registered, or as a browser normalizes it.
    let expectedHost: ExpectedHost

    public init(_ string: String) throws(LoopbackError) {
        func reject(_ problem: LoopbackError.RedirectURIProblem) -> LoopbackError {
            .invalidRedirectURI(string, problem: problem)
        }
        guard !string.utf8.contains(where: { $0 <= 0x20 || $0 >= 0x7F }) else { throw reject(.malformed) }
        guard let separator = string.firstRange(of: "://") else { throw reject(.malformed) }
        guard string[..<separator.lowerBound].lowercased() == "http" else { throw reject(.notHTTP) }
        let afterScheme = string[separator.upperBound...]
        let authorityEnd = afterScheme.firstIndex(where: { "/?#".contains($0) }) ?? afterScheme.endIndex
        let authority = afterScheme[..<authorityEnd]
        let rest = afterScheme[authorityEnd...]
        guard !rest.contains("#") else { throw reject(.hasFragment) }
        guard !authority.contains("@") else { throw reject(.malformed) }

        let (hostText, portText) = try Self.split(authority, reject: reject)
        guard let host = LoopbackHost(hostText) else {
            throw reject(hostText.isEmpty ? .malformed : .notLoopback)
        }
        guard let portText, !portText.isEmpty else { throw reject(.missingPort) }
        guard portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }), let port = Int(portText),
            (1...65535).contains(port)
        else { throw reject(.malformed) }

        let path = rest.prefix { $0 != "?" }
        self.string = string
        self.port = port
        self.path = path.isEmpty ? "/" : String(path)
        self.host = host
        self.origin = String(string[..<authorityEnd])
        // The browser sends the authority as it normalized it (`[::1]`, no leading zeros in the port).
        let normalized = host == .localhost ? "localhost:\(port)" : host.socketAddresses(port: port)[0].description
        self.expectedHost = ExpectedHost(normalized, alsoAccepted: [String(authority)])
    }

    /// Every registered URI, checked; the first that a loopback listener cannot serve is the error.
    static func parseAll(_ strings: [String]) throws(LoopbackError) -> [RegisteredRedirectURI] {
        guard !strings.isEmpty else { throw .invalidRedirectURI("", problem: .noneRegistered) }
        var uris: [RegisteredRedirectURI] = []
        for string in strings { uris.append(try RegisteredRedirectURI(string)) }
        return uris
    }

    /// `host` and `port` of an authority; an IPv6 literal comes in brackets.
    private static func split(
        _ authority: Substring, reject: (LoopbackError.RedirectURIProblem) -> LoopbackError
    ) throws(LoopbackError) -> (host: Substring, port: Substring?) {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw reject(.malformed) }
            let host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.isEmpty { return (host, nil) }
            guard after.hasPrefix(":") else { throw reject(.malformed) }
            return (host, after.dropFirst())
        }
        let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { throw reject(.malformed) }
        return (parts[0], parts.count == 2 ? parts[1] : nil)
    }
}

/// The host of a loopback redirect URI and the addresses a listener for it binds.
enum LoopbackHost: Sendable, Equatable {
    /// A literal in 127.0.0.0/8, as the 32-bit address in network byte order.
    case ipv4(UInt32)
    case ipv6Loopback
    /// `localhost` means the loopback interface by definition (RFC 6761 section 6.3) and browsers resolve it to
    /// [::1] and 127.0.0.1 without asking DNS, so it is never looked up: both loopback addresses are bound.
    case localhost

    init?(_ text: Substring) {
        guard let host = NetworkHost(text), host.isLoopback else { return nil }
        switch host {
        case .ipv4(let address): self = .ipv4(address.bigEndian)
        case .ipv6: self = .ipv6Loopback
        case .name: self = .localhost
        }
    }

    func socketAddresses(port: Int) -> [SocketAddress] {
        switch self {
        case .ipv4(let address): [.ipv4(address, port: port)]
        case .ipv6Loopback: [.ipv6Loopback(port: port)]
        case .localhost: [.ipv4(UInt32(0x7F00_0001).bigEndian, port: port), .ipv6Loopback(port: port)]
        }
    }

}
