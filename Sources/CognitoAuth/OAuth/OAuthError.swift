import HTTPTransport
import TokenVerification

/// Why a call of the OAuth client failed. The authorization server's own `error` codes (RFC 6749 section 5.2)
/// come with its description, every secret of the request blanked out; the other cases say what went wrong on the
/// way. `description` says what to do next and never holds a code, token or client secret.
public enum OAuthError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server refused `operation` with an `error` code.
    case refused(OAuthErrorCode, description: String, status: Int, operation: OAuthOperation)
    /// HTTP 429 without an `error` code.
    case throttled
    /// A 5xx whose body names no `error` code (an HTML error page, for example).
    case serverError(status: Int)
    /// A non-2xx answer that is neither an OAuth error nor a server failure: probably not an OAuth endpoint.
    case unexpectedStatus(Int)
    /// No response arrived (or it broke a limit).
    case network(HTTPError)
    /// A 2xx answer whose body could not be used.
    case invalidResponse(operation: String, reason: String)
    /// The call did not succeed within its deadline; `lastError` is the failure of the last attempt.
    indirect case deadlineExceeded(operation: String, attempts: Int, lastError: OAuthError?)
    /// A token the server issued failed verification.
    case tokenRejected(TokenError)
    case invalidConfiguration(String)
    /// The client-credentials grant was asked for without the app client's secret, which it needs.
    case missingClientSecret

    /// Trouble that may pass by itself: worth another try later, and never a reason to end a session.
    public var isRetryable: Bool {
        switch self {
        case .network(let error): error.isRetryable
        case .throttled, .serverError, .deadlineExceeded: true
        case .refused(let code, _, _, _): code.isTransient
        case .tokenRejected(.keySetUnavailable): true
        default: false
        }
    }

    /// The session is over: `invalid_grant` in answer to the refresh-token grant (the refresh token expired, was
    /// revoked, or was rotated away). Never a retryable failure.
    public var requiresSignIn: Bool {
        guard case .refused(.invalidGrant, _, _, .refresh) = self else { return false }
        return true
    }

    public var description: String {
        switch self {
        case .refused(let code, let description, let status, let operation):
            let detail = description.isEmpty ? "" : " (\(description))"
            return
                "The authorization server refused \(operation.rawValue) with \(code) (HTTP \(status)): \(code.explanation)\(detail)."
        case .throttled:
            return "The authorization server is throttling requests: wait a moment and try again."
        case .serverError(let status):
            return "The authorization server failed (HTTP \(status)): try again in a moment."
        case .unexpectedStatus(let status):
            return "The endpoint answered HTTP \(status) without an OAuth error: check the profile's OAuth endpoints."
        case .network(let error):
            return error.isRetryable
                ? "Cannot reach the authorization server: \(error). Try again when the network is back."
                : "The request to the authorization server failed: \(error)."
        case .invalidResponse(let operation, let reason):
            return "The answer to \(operation) could not be read (\(reason)): check the endpoint URL, then try again."
        case .deadlineExceeded(let operation, let attempts, let lastError):
            return "\(operation) did not succeed in time (\(attempts) attempt\(attempts == 1 ? "" : "s")"
                + (lastError.map { "; last: \($0)" } ?? "") + "): check the network and try again."
        case .tokenRejected(let error):
            return "A token from the authorization server did not verify: \(error)"
        case .invalidConfiguration(let reason):
            return "The OAuth settings are invalid: \(reason)."
        case .missingClientSecret:
            return "The client-credentials grant needs the app client's secret, and no client secret is stored for it."
        }
    }
}
