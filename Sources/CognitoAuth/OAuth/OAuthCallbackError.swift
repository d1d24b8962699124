/// Why a callback (the redirect the browser was sent to, or the URL a user pasted) gives no code to redeem.
/// Nothing here carries the code.
public enum OAuthCallbackError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server sent `error=` (with `error_description`, made printable), for example `access_denied`.
    case authorizationFailed(OAuthErrorCode, description: String?)
    /// The `state` is not this sign-in's: a stale tab, another sign-in, or a forged request.
    case stateMismatch
    case missingState
    case missingCode
    /// A full URL that is not the registered redirect URI.
    case wrongRedirectURI(expected: String)
    /// Unreadable: a broken `%` escape, or a parameter given twice (RFC 6749 section 3.1).
    case malformed(String)

    public var description: String {
        switch self {
        case .authorizationFailed(let code, let description):
            "Sign-in failed: \(code.explanation) (\(code.code)\(description.map { ": \($0)" } ?? ""))."
        case .stateMismatch:
            "The callback belongs to another sign-in (its state does not match): start the sign-in again and use its newest URL."
        case .missingState:
            "The callback has no state, so it cannot be matched to this sign-in: paste the whole redirect URL."
        case .missingCode:
            "The callback has no authorization code: paste the whole redirect URL the browser ended on."
        case .wrongRedirectURI(let expected):
            "That URL is not the redirect URI of this sign-in (\(expected)): paste the URL the browser ended on."
        case .malformed(let reason):
            "The callback cannot be read: \(reason)."
        }
    }
}
