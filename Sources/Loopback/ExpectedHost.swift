/// The `Host` a loopback listener answers: the authority its one client was given (`127.0.0.1:PORT` for the
/// credentials endpoint, the registered redirect URI's `localhost:PORT`, `127.0.0.1:PORT` or `[::1]:PORT` for the
/// sign-in). A web page whose own name an attacker re-pointed at 127.0.0.1 (DNS rebinding) reaches the port but
/// sends that name as `Host`, so it is refused before anything else is judged.
struct ExpectedHost: Sendable, Equatable {
    /// The accepted values, lower-cased: hosts are case-insensitive and browsers send them lower-cased.
    private let accepted: [String]

    /// - Parameters:
    ///   - authority: `host:port` as the client was given it.
    ///   - alsoAccepted: other spellings of the same authority a client may send (`[::1]:PORT` for an IPv6 literal
    ///     registered in another form).
    init(_ authority: String, alsoAccepted: [String] = []) {
        let forms = ([authority] + alsoAccepted).map { $0.lowercased() }
        // A browser leaves out the default port: `http://localhost:80/cb` arrives with `Host: localhost`.
        accepted = forms + forms.filter { $0.hasSuffix(":80") }.map { String($0.dropLast(3)) }
    }

    enum Refusal: Equatable {
        /// No `Host` field: RFC 9112 answers 400.
        case missing
        /// Another name than the listener's: 403.
        case other
    }

    /// Nil when `host` is one the listener answers.
    func refusal(of host: String?) -> Refusal? {
        guard let host else { return .missing }
        return accepted.contains(host.lowercased()) ? nil : .other
    }
}
