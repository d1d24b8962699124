/// A host and, when one is named, a port: a URL's authority, git's `host=` value, a docker registry, an entry of
/// `configure --helper-host`. IPv6 literals come in brackets when a port follows (`[::1]:8443`); a bare one
/// (`::1`) names no port.
public struct HostPort: Hashable, Sendable, CustomStringConvertible {
    public let host: NetworkHost
    public let port: Int?

    public init(host: NetworkHost, port: Int?) {
        self.host = host
        self.port = port
    }

    /// Nil for anything else: user information (`user@host`), an empty host, a port that is not 1 to 65535.
    public init?(_ text: some StringProtocol) {
        let authority = Substring(text)
        guard !authority.contains("@") else { return nil }
        let hostText: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            hostText = authority[...close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portText = after.dropFirst()
            }
        } else if authority.filter({ $0 == ":" }).count > 1 {
            hostText = authority
        } else if let colon = authority.firstIndex(of: ":") {
            hostText = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            hostText = authority
        }
        guard let host = NetworkHost(hostText) else { return nil }
        if let portText {
            guard (1...5).contains(portText.count),
                portText.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                let port = Int(portText), (1...65535).contains(port)
            else { return nil }
            self.init(host: host, port: port)
        } else {
            self.init(host: host, port: nil)
        }
    }

    /// `host`, `host:port` or `[v6]:port`.
    public var description: String {
        port.map { "\(host):\($0)" } ?? host.description
    }
}
