import NetworkHosts

/// One `configure --helper-host` entry, parsed: a host (and port, when it names one) and an optional path prefix
/// (`git.example.com/acme`), whose segments are compared as git sends `path=`: percent-decoded, without leading or
/// trailing slashes.
struct HelperHostEntry: Sendable, Equatable {
    let endpoint: HostPort
    /// Decoded; empty for the bare host.
    let prefix: [String]

    /// Nil for anything `ProfileValidation.helperHost` refuses, so a hand-edited entry that it would not accept
    /// names nothing.
    init?(_ entry: String) {
        let normalized = ProfileValidation.normalizedHelperHost(entry)
        guard ProfileValidation.helperHostProblem(normalized) == nil else { return nil }
        let authority = normalized.prefix { $0 != "/" }
        guard let endpoint = HostPort(authority) else { return nil }
        self.endpoint = endpoint
        prefix = normalized.dropFirst(authority.count).split(separator: "/").compactMap(Self.decoded)
    }

    /// How specifically the entry names `target`: nil when it does not, 0 for the bare host, else the number of
    /// path segments its prefix matches. Prefixes match whole segments (`acme` names `acme` and `acme/x.git`,
    /// never `acme2`), and a path with `.` or `..` segments, which a server may resolve elsewhere, matches none.
    func specificity(for target: HelperTarget) -> Int? {
        guard endpoint.host == target.endpoint.host else { return nil }
        if let port = endpoint.port, port != (target.endpoint.port ?? 443) { return nil }
        guard !prefix.isEmpty else { return 0 }
        guard let path = target.path else { return nil }
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        guard segments.count >= prefix.count, !segments.contains(where: { $0 == "." || $0 == ".." }),
            zip(prefix, segments).allSatisfy({ $0 == $1 })
        else { return nil }
        return prefix.count
    }

    /// A segment's `%XX` escapes decoded as git decodes a URL's path (a `+` stays a `+`); nil when broken.
    static func decoded(_ segment: some StringProtocol) -> String? {
        FormURLEncoding.percentDecoded(segment, plusIsSpace: false)
    }
}
