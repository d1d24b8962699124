import HTTPTransport
import TokenVerification

/// Why a Cognito operation failed. The service's own error types are cases of their own (the `__type` without
/// any `prefix#`), carrying Cognito's message with every secret of the request blanked out; the other cases say
/// what went wrong on the way. `description` says what to do next and never holds a password, code or token.
public enum CognitoError: Error, Sendable, Equatable, CustomStringConvertible {
    // Cognito's error types.
    case notAuthorized(message: String)
    case userNotFound(message: String)
    case userNotConfirmed(message: String)
    case passwordResetRequired(message: String)
    case tooManyRequests(message: String)
    case limitExceeded(message: String)
    case invalidParameter(message: String)
    case invalidPassword(message: String)
    case passwordHistoryPolicyViolation(message: String)
    case codeMismatch(message: String)
    case expiredCode(message: String)
    case tooManyFailedAttempts(message: String)
    case codeDeliveryFailure(message: String)
    case usernameExists(message: String)
    case aliasExists(message: String)
    case resourceNotFound(message: String)
    case invalidUserPoolConfiguration(message: String)
    case forbidden(message: String)
    case refreshTokenReuse(message: String)
    case userLambdaValidation(message: String)
    case unexpectedLambda(message: String)
    case invalidLambdaResponse(message: String)
    case internalError(message: String)
    case enableSoftwareTokenMFA(message: String)
    case softwareTokenMFANotFound(message: String)
    case mfaMethodNotFound(message: String)
    case unsupportedOperation(message: String)
    case unsupportedTokenType(message: String)
    /// The identity pool's role mapping failed (InvalidIdentityPoolConfigurationException).
    case invalidIdentityPoolConfiguration(message: String)
    /// A provider the identity pool trusts failed (ExternalServiceException).
    case externalService(message: String)
    /// An error type this client does not know, with the HTTP status it came with.
    case unknownService(type: String, status: Int, message: String)

    // Meanings that depend on the operation.
    /// NotAuthorizedException in answer to a refresh: the refresh token expired, was revoked, or the user signed
    /// out everywhere or was disabled.
    case refreshTokenRejected(message: String)
    /// NotAuthorizedException from the identity pool: the ID token expired or the pool does not trust its provider
    /// or app client, or (without a login) the pool allows no guests.
    case identityNotAuthorized(message: String)
    /// ResourceNotFoundException from the identity pool: no such pool, or an identity it no longer has.
    case identityPoolNotFound(message: String)
    /// The token endpoint refused the client-credentials grant (machine sign-in): `invalidClient` (the id or secret),
    /// `invalidScope`, `unauthorizedClient` (the grant is not allowed), ...; with the server's description.
    case clientCredentialsRefused(OAuthErrorCode, message: String)

    // Failures on the way to or from Cognito.
    /// No response arrived (or it broke a limit).
    case network(HTTPError)
    /// A 5xx whose body names no Cognito error type (an HTML error page, for example).
    case serverError(status: Int)
    /// A non-2xx answer that is neither a Cognito error nor a server failure: probably not a Cognito endpoint.
    case unexpectedStatus(Int)
    /// A 2xx answer whose body could not be read.
    case invalidResponse(operation: String, reason: String)
    /// The operation did not succeed within its deadline; `lastError` is the failure of the last attempt.
    indirect case deadlineExceeded(operation: String, attempts: Int, lastError: CognitoError?)
    /// Cognito's SRP values would make the proof unsafe (B mod N = 0, u = 0) or are not readable.
    case invalidSRPChallenge(String)
    /// A token Cognito issued failed verification.
    case tokenRejected(TokenError)
    /// The challenge's session has expired: the sign-in has to start again.
    case challengeExpired(ChallengeKind)
    /// The answer given is not one the challenge takes.
    case answerDoesNotFitChallenge(ChallengeKind)
    case invalidConfiguration(String)
    /// The client-credentials grant was asked for without the app client's secret, which it needs.
    case missingClientSecret
    /// The profile's provider is another OpenID provider, not a Cognito user pool: it has no user-pool API
    /// (passwords, MFA, devices, account operations, global sign-out).
    case noUserPool

    /// Trouble that may pass by itself: worth another try later, and never a reason to sign the user out.
    public var isRetryable: Bool {
        switch self {
        case .network(let error): error.isRetryable
        case .serverError, .tooManyRequests, .internalError, .deadlineExceeded: true
        case .unknownService(_, let status, _): status >= 500
        case .tokenRejected(.keySetUnavailable): true
        default: false
        }
    }

    /// The session is gone for good: the user has to sign in again. Only these two; never a retryable failure.
    public var requiresSignIn: Bool {
        switch self {
        case .refreshTokenRejected, .refreshTokenReuse: true
        default: false
        }
    }

    public var description: String {
        guard let message = serviceMessage, !message.isEmpty else { return guidance }
        return "\(guidance) (Cognito: \(message))"
    }

    /// Cognito's own message (secrets of the request blanked out), for its error types.
    public var serviceMessage: String? {
        switch self {
        case .notAuthorized(let message), .userNotFound(let message), .userNotConfirmed(let message),
            .passwordResetRequired(let message), .tooManyRequests(let message), .limitExceeded(let message),
            .invalidParameter(let message), .invalidPassword(let message), .passwordHistoryPolicyViolation(let message),
            .codeMismatch(let message), .expiredCode(let message), .tooManyFailedAttempts(let message),
            .codeDeliveryFailure(let message), .usernameExists(let message), .aliasExists(let message),
            .resourceNotFound(let message), .invalidUserPoolConfiguration(let message), .forbidden(let message),
            .refreshTokenReuse(let message), .userLambdaValidation(let message), .unexpectedLambda(let message),
            .invalidLambdaResponse(let message), .internalError(let message), .enableSoftwareTokenMFA(let message),
            .softwareTokenMFANotFound(let message), .mfaMethodNotFound(let message), .unsupportedOperation(let message),
            .unsupportedTokenType(let message), .unknownService(_, _, let message), .refreshTokenRejected(let message),
            .invalidIdentityPoolConfiguration(let message), .externalService(let message),
            .identityNotAuthorized(let message), .identityPoolNotFound(let message),
            .clientCredentialsRefused(_, let message):
            message
        default:
            nil
        }
    }

    /// What happened, in the user's terms, and what to do about it.
    private var guidance: String {
        switch self {
        case .notAuthorized:
            "Cognito refused: the username or password is wrong, the user is disabled, or the token or session is no longer valid. Check the credentials and sign in again."
        case .userNotFound:
            "There is no such user in this user pool: check the username, and the profile's user pool and app client."
        case .userNotConfirmed:
            "The account is not confirmed yet: confirm it with the code that was sent, or ask for a new code."
        case .passwordResetRequired:
            "The password must be reset before signing in: start a forgotten-password reset and set a new password."
        case .tooManyRequests:
            "Cognito is throttling requests: wait a moment and try again."
        case .limitExceeded:
            "A Cognito limit was reached (for example too many codes requested): wait a while before trying again."
        case .invalidParameter:
            "Cognito rejected the request's parameters: check the input, and that the app client allows this flow."
        case .invalidPassword:
            "The password does not meet the user pool's password policy: choose a stronger one."
        case .passwordHistoryPolicyViolation:
            "That password was used recently: choose a different one."
        case .codeMismatch:
            "The code is wrong: check it and enter it again."
        case .expiredCode:
            "The code has expired or was already used: ask for a new code."
        case .tooManyFailedAttempts:
            "Too many failed attempts: wait before trying again."
        case .codeDeliveryFailure:
            "Cognito could not send the code: check the email address or phone number, then try again."
        case .usernameExists:
            "That username is already taken: choose another one, or sign in."
        case .aliasExists:
            "Another account already uses that email address or phone number: sign in with it, or use another."
        case .resourceNotFound:
            "Cognito does not know this user pool, app client or sign-in session: check the profile's pool and client ids, or sign in again."
        case .invalidUserPoolConfiguration:
            "The user pool is not set up for this operation: ask its administrator."
        case .forbidden:
            "The user pool's web application firewall blocked the request: ask its administrator."
        case .refreshTokenReuse:
            "The refresh token was already used and rotated away: sign in again."
        case .userLambdaValidation:
            "A Lambda trigger of the user pool rejected the request: see its message, or ask the pool's administrator."
        case .unexpectedLambda, .invalidLambdaResponse:
            "A Lambda trigger of the user pool failed: try again later, or ask the pool's administrator."
        case .internalError:
            "Cognito had an internal error: try again in a moment."
        case .enableSoftwareTokenMFA:
            "The authenticator code did not verify: check the device's clock and enter a fresh code."
        case .softwareTokenMFANotFound:
            "No authenticator app is set up for this user: set one up first."
        case .mfaMethodNotFound:
            "That MFA method is not set up for this user: choose another one, or set it up first."
        case .unsupportedOperation:
            "The user pool or app client does not allow this operation (for example token revocation is turned off)."
        case .unsupportedTokenType:
            "Cognito cannot revoke this kind of token: only refresh tokens can be revoked."
        case .invalidIdentityPoolConfiguration:
            "The identity pool's role mapping gave no role for this user: ask its administrator to check the pool's roles and rules."
        case .externalService:
            "An identity provider the identity pool relies on failed: try again later."
        case .identityNotAuthorized:
            "The identity pool refused the sign-in: the ID token expired (refresh the session), or the pool does not trust this user pool and app client, or it allows no guest access."
        case .identityPoolNotFound:
            "The identity pool, or this identity in it, does not exist: check the profile's identity pool id and region."
        case .unknownService(let type, let status, _):
            status >= 500
                ? "Cognito failed with \(type) (HTTP \(status)): try again in a moment."
                : "Cognito refused with \(type) (HTTP \(status)): check the input and the profile's settings."
        case .clientCredentialsRefused(let code, _):
            switch code {
            case .invalidClient:
                "The token endpoint did not accept the app client's id and secret (invalid_client): the secret is wrong or was rotated."
            case .invalidScope:
                "The token endpoint refused the scopes asked for (invalid_scope): each must be one the app client may have."
            case .unauthorizedClient:
                "The app client may not use the client-credentials grant (unauthorized_client): allow it in the app client's settings."
            default: "The token endpoint refused the client-credentials grant with \(code): \(code.explanation)."
            }
        case .refreshTokenRejected:
            "The session has ended (the refresh token expired or was revoked, or the user was signed out everywhere): sign in again."
        case .network(let error):
            error.isRetryable
                ? "Cannot reach Cognito: \(error). Try again when the network is back."
                : "The request to Cognito failed: \(error)."
        case .serverError(let status):
            "The Cognito endpoint failed (HTTP \(status)): try again in a moment."
        case .unexpectedStatus(let status):
            "The endpoint answered HTTP \(status) without a Cognito error: check the profile's endpoint URL."
        case .invalidResponse(let operation, let reason):
            "Cognito's answer to \(operation) could not be read (\(reason)): check the endpoint URL, then try again."
        case .deadlineExceeded(let operation, let attempts, let lastError):
            "\(operation) did not succeed in time (\(attempts) attempt\(attempts == 1 ? "" : "s")"
                + (lastError.map { "; last: \($0)" } ?? "") + "): check the network and try again."
        case .invalidSRPChallenge(let reason):
            "Sign-in aborted: Cognito's SRP challenge is unusable (\(reason)). Try again; if it persists, check the endpoint."
        case .tokenRejected(let error):
            "A token from Cognito did not verify: \(error)"
        case .challengeExpired(let kind):
            "The \(kind) step took too long and its session expired: sign in again."
        case .answerDoesNotFitChallenge(let kind):
            "That answer does not fit the \(kind) challenge."
        case .invalidConfiguration(let reason):
            "The Cognito settings are invalid: \(reason)."
        case .missingClientSecret:
            "The client-credentials grant needs the app client's secret, and no client secret is stored for it."
        case .noUserPool:
            "This profile signs in at an OpenID provider, not a Cognito user pool: passwords, MFA, devices, account changes and global sign-out need a user pool."
        }
    }
}
