#if canImport(Glibc)
import Glibc
#endif

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
        guard portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }), let port = Int(portText), (1...65535).contains(port)
        else { throw reject(.malformed) }

        let path = rest.prefix { $0 != "?" }
        self.string = string
        self.port = port
        self.path = path.isEmpty ? "/" : String(path)
        self.host = host
        self.origin = String(string[..<authorityEnd])
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
        if text.lowercased() == "localhost" { self = .localhost; return }
        if var address = Self.ipv6(text) {
            guard withUnsafeBytes(of: &address, { $0.elementsEqual(Self.ipv6LoopbackBytes) }) else { return nil }
            self = .ipv6Loopback
            return
        }
        guard let address = Self.ipv4(text), UInt32(bigEndian: address.s_addr) >> 24 == 127 else { return nil }
        self = .ipv4(address.s_addr)
    }

    func socketAddresses(port: Int) -> [SocketAddress] {
        switch self {
        case .ipv4(let address): [.ipv4(address, port: port)]
        case .ipv6Loopback: [.ipv6Loopback(port: port)]
        case .localhost: [.ipv4(UInt32(0x7F00_0001).bigEndian, port: port), .ipv6Loopback(port: port)]
        }
    }

    private static let ipv6LoopbackBytes: [UInt8] = Array(repeating: 0, count: 15) + [1]

    private static func ipv4(_ text: Substring) -> in_addr? {
        var address = in_addr()
        return inet_pton(AF_INET, String(text), &address) == 1 ? address : nil
    }

    private static func ipv6(_ text: Substring) -> in6_addr? {
        var address = in6_addr()
        return inet_pton(AF_INET6, String(text), &address) == 1 ? address : nil
    }
}
