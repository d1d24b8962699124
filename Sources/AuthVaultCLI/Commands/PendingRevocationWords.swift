/// How an unfinished sign-out is said, the same in `logout` and `status`: the refresh token is gone from here but
/// not revoked, so it stays valid at the server until it expires, and what to run.
enum PendingRevocationWords {
    /// - Parameters:
    ///   - validUntil: when the server stops taking it, if the app client's validity is configured (RFC 3339).
    ///   - byDefault: the latest by Cognito's default validity, when it is not (RFC 3339).
    static func sentence(profile: String, validUntil: String?, byDefault: String?) -> String {
        let until =
            validUntil.map { "until \($0)" }
            ?? "until it expires (up to 30 days after sign-in by default\(byDefault.map { ", \($0)" } ?? ""))"
        return "Sign-out not finished: the refresh token is not revoked yet and stays valid at the server \(until). "
            + "Run \(Remedy.command("logout", profile: profile)) when the network is back, or "
            + "\(Remedy.command("logout", profile: profile, "--forget")) to give up revoking it."
    }
}
