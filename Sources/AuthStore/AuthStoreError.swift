import CognitoAuth
import TokenVault

/// Why the store could not give what was asked. Messages say what to do; none carries a secret.
public enum AuthStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No usable session: sign in.
    case signInRequired(SignInReason?)
    case vault(VaultError)
    /// The identity provider could not be reached and the current token is no longer usable.
    case network(CognitoError)
    /// Cognito refused the request (a wrong password, a wrong code, a bad parameter).
    case rejected(CognitoError)
    /// An answer was given with no challenge pending, or the pending one expired.
    case noPendingChallenge
    case challengeExpired
    /// Another operation (a sign-in, a sign-out) is running on this profile in this process.
    case busy(String)
    /// An ID token was asked of a machine profile: the app client signs in as itself, and no user means no ID token.
    case noIDTokenForMachine

    public var description: String {
        switch self {
        case .signInRequired(let reason?):
            return "Sign-in required: \(reason)."
        case .signInRequired(nil):
            return "Not signed in."
        case .vault(let error):
            return error.description
        case .network(let error):
            // The client's reason already says what to try; the store adds only what it knows.
            return "\(error) The stored session is kept."
        case .rejected(let error):
            return error.description
        case .noPendingChallenge:
            return "There is no sign-in waiting for an answer: start the sign-in again."
        case .challengeExpired:
            return "The sign-in took too long and Cognito's session expired: start the sign-in again."
        case .busy(let operation):
            return "Another \(operation) is in progress for this profile."
        case .noIDTokenForMachine:
            return
                "A machine profile (client credentials) has an access token only: the app client signs in as itself, and no user has an ID token."
        }
    }
}

/// What a sign-in call led to: done, or a question to answer with `AuthStore.answer(_:)`.
public enum SignInProgress: Sendable {
    case signedIn(SessionSummary)
    case challenge(AuthChallenge)
}

/// How a sign-out went. Local state is always cleared first; remote failures are reported, never "still signed in".
public struct SignOutResult: Sendable, Equatable {
    /// The refresh token was revoked (nil: there was none to revoke).
    public var revoked: Bool?
    /// GlobalSignOut succeeded (nil: not asked for, or no access token).
    public var signedOutGlobally: Bool?
    /// What failed remotely, in words.
    public var remoteFailures: [String]
    /// The provider has no revocation endpoint: the refresh token was not revoked, and nothing failed.
    public var revocationUnavailable = false
    /// The revocation failed for a passing reason: the refresh token is kept, encrypted, to revoke later.
    public var keptForRetry = false
    /// How retrying the revocations an earlier sign-out left pending went (nil: none were pending, or forgotten).
    public var earlierRevocations: RevocationRetry?
    /// Pending revocations dropped unrevoked, on the user's word.
    public var forgottenRevocations = 0

    public var isComplete: Bool {
        remoteFailures.isEmpty && (earlierRevocations.map { $0.stillPending + $0.refused } ?? 0) == 0
    }
}
