/// The parts of an absolute URL the OAuth client compares and checks: scheme, authority and path, then the query.
/// Parsed by hand because FoundationEssentials' URL would normalize what has to match exactly (Cognito compares
/// the redirect URI as a string).
struct OAuthURL: Equatable {
    let scheme: String
    /// `host`, `host:port` or `[v6]:port`, without user information.
    let authority: String
    let path: String
    /// Without the `?`; nil when there is none.
    let query: String?

    init?(_ text: some StringProtocol) {
        let withoutFragment = text.prefix { $0 != "#" }
        guard let schemeEnd = withoutFragment.firstRange(of: "://") else { return nil }
        scheme = withoutFragment[..<schemeEnd.lowerBound].lowercased()
        let rest = withoutFragment[schemeEnd.upperBound...]
        let authorityPart = rest.prefix { $0 != "/" && $0 != "?" }
        guard !authorityPart.isEmpty, !authorityPart.contains("@") else { return nil }
        authority = String(authorityPart)
        let afterAuthority = rest[authorityPart.endIndex...]
        let pathPart = afterAuthority.prefix { $0 != "?" }
        path = String(pathPart)
        query =
            pathPart.endIndex < afterAuthority.endIndex
            ? String(afterAuthority[afterAuthority.index(after: pathPart.endIndex)...]) : nil
    }

    /// `scheme://authority/path`: what must equal the registered redirect URI.
    var withoutQuery: String { "\(scheme)://\(authority)\(path)" }
}
