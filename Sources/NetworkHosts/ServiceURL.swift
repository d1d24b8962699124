/// The scheme and authority of an absolute URL, and the one rule for where a request may go: https to any host,
/// plain http only to a loopback address. Every layer that decides "is http allowed here" asks this type, and the
/// transport asks it again right before sending, whatever a configuration file says.
public struct ServiceURL: Sendable, Equatable {
    /// Lowercased.
    public let scheme: String
    public let authority: HostPort

    /// Nil when `url` has no `scheme://`, or an authority `HostPort` refuses, or one that URL parsers read in
    /// different ways: user information (no request of this project carries one), escapes, backslashes, an IPv6
    /// literal without its brackets.
    public init?(_ url: some StringProtocol) {
        guard let separator = url.firstRange(of: "://") else { return nil }
        let rest = url[separator.upperBound...]
        let authorityText = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let bareIPv6 = !authorityText.hasPrefix("[") && authorityText.filter({ $0 == ":" }).count > 1
        guard !authorityText.contains("\\"), !authorityText.contains("%"), !bareIPv6,
            let authority = HostPort(authorityText)
        else { return nil }
        scheme = url[..<separator.lowerBound].lowercased()
        self.authority = authority
    }

    /// https to any host; http only to 127.0.0.0/8, [::1] or localhost. Anything else (another scheme, a URL that
    /// does not parse) is refused.
    public var isPermitted: Bool {
        scheme == "https" || (scheme == "http" && authority.host.isLoopback)
    }

    /// `ServiceURL(url)?.isPermitted`, for callers that hold a string.
    public static func isPermitted(_ url: some StringProtocol) -> Bool {
        ServiceURL(url)?.isPermitted ?? false
    }

    /// Said wherever a plain-http URL to another host is refused.
    public static let rule = "use https:// (plain http:// is accepted only for 127.0.0.0/8, [::1] and localhost)"
}
