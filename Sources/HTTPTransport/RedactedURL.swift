/// The parts of a URL that are safe to print: scheme, host and path, without user information, query or
/// fragment (an OAuth `code`, a password in `user:password@` or an API key in the query never reach a log).
struct RedactedURL: CustomStringConvertible {
    /// `host` or `host:port`.
    let host: String
    let description: String

    init(_ url: String) {
        let beforeQuery = url.prefix { $0 != "?" && $0 != "#" }
        guard let schemeEnd = beforeQuery.firstRange(of: "://") else {
            host = ""
            description = String(beforeQuery)
            return
        }
        let scheme = beforeQuery[..<schemeEnd.upperBound]
        let rest = beforeQuery[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" }
        let path = rest[authority.endIndex...]
        let hostAndPort = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
        host = String(hostAndPort)
        description = "\(scheme)\(hostAndPort)\(path)"
    }
}
