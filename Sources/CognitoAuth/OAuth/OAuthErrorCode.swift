import NetworkHosts

/// An OAuth 2.0 `error` code (RFC 6749 sections 4.1.2.1 and 5.2, RFC 6750 section 3.1, RFC 7009 section 2.2.1,
/// RFC 8628 section 3.5, OpenID Connect Core section 3.1.2.6), as the authorization server sends it on the callback or in a JSON answer.
public enum OAuthErrorCode: Sendable, Equatable, CustomStringConvertible {
    case invalidRequest
    case invalidClient
    case invalidGrant
    case unauthorizedClient
    case unsupportedGrantType
    case unsupportedResponseType
    case invalidScope
    case accessDenied
    case serverError
    case temporarilyUnavailable
    case invalidToken
    case unsupportedTokenType
    case loginRequired
    case interactionRequired
    case consentRequired
    /// RFC 8628: the user has not yet approved the device sign-in; ask again after the interval.
    case authorizationPending
    /// RFC 8628: ask again, 5 seconds further apart.
    case slowDown
    /// RFC 8628: the device code expired before the user approved it.
    case expiredToken
    /// A code this client does not know, reduced to printable ASCII (it comes from outside).
    case other(String)

    public init(_ code: String) {
        switch code {
        case "invalid_request": self = .invalidRequest
        case "invalid_client": self = .invalidClient
        case "invalid_grant": self = .invalidGrant
        case "unauthorized_client": self = .unauthorizedClient
        case "unsupported_grant_type": self = .unsupportedGrantType
        case "unsupported_response_type": self = .unsupportedResponseType
        case "invalid_scope": self = .invalidScope
        case "access_denied": self = .accessDenied
        case "server_error": self = .serverError
        case "temporarily_unavailable": self = .temporarilyUnavailable
        case "invalid_token": self = .invalidToken
        case "unsupported_token_type": self = .unsupportedTokenType
        case "login_required": self = .loginRequired
        case "interaction_required": self = .interactionRequired
        case "consent_required": self = .consentRequired
        case "authorization_pending": self = .authorizationPending
        case "slow_down": self = .slowDown
        case "expired_token": self = .expiredToken
        default: self = .other(ServerText.escaped(code, limit: 64))
        }
    }

    /// The code as it goes on the wire.
    public var code: String {
        switch self {
        case .invalidRequest: "invalid_request"
        case .invalidClient: "invalid_client"
        case .invalidGrant: "invalid_grant"
        case .unauthorizedClient: "unauthorized_client"
        case .unsupportedGrantType: "unsupported_grant_type"
        case .unsupportedResponseType: "unsupported_response_type"
        case .invalidScope: "invalid_scope"
        case .accessDenied: "access_denied"
        case .serverError: "server_error"
        case .temporarilyUnavailable: "temporarily_unavailable"
        case .invalidToken: "invalid_token"
        case .unsupportedTokenType: "unsupported_token_type"
        case .loginRequired: "login_required"
        case .interactionRequired: "interaction_required"
        case .consentRequired: "consent_required"
        case .authorizationPending: "authorization_pending"
        case .slowDown: "slow_down"
        case .expiredToken: "expired_token"
        case .other(let code): code
        }
    }

    /// The server's trouble rather than the request's: worth another try later.
    public var isTransient: Bool {
        self == .serverError || self == .temporarilyUnavailable
    }

    /// What the code means for the user, and what to do about it.
    public var explanation: String {
        switch self {
        case .invalidRequest: "the request was refused as malformed or unsupported: check the app client's settings"
        case .invalidClient: "the app client was not recognized or its secret is wrong: check the client id and secret"
        case .invalidGrant: "the code or refresh token is invalid, expired, already used or revoked: sign in again"
        case .unauthorizedClient: "the app client may not use this grant: allow it in the app client's settings"
        case .unsupportedGrantType: "the server does not support this grant type"
        case .unsupportedResponseType: "the server does not issue authorization codes to this app client"
        case .invalidScope: "a requested scope is unknown or not allowed for this app client: check the scopes"
        case .accessDenied:
            "the sign-in was cancelled or refused (by the user or the identity provider): try again, or use another account"
        case .serverError: "the authorization server failed: try again in a moment"
        case .temporarilyUnavailable: "the authorization server is busy or down: try again in a moment"
        case .invalidToken: "the access token is expired, revoked or not accepted: sign in again"
        case .unsupportedTokenType: "the server cannot revoke this kind of token"
        case .loginRequired, .interactionRequired, .consentRequired:
            "the sign-in needs the user in the browser: sign in interactively"
        case .authorizationPending: "the user has not approved the sign-in yet"
        case .slowDown: "the server asks to be polled less often"
        case .expiredToken: "the code expired before the sign-in was approved: start again"
        case .other(let code): "the authorization server refused with '\(code)'"
        }
    }

    public var description: String { code }
}
