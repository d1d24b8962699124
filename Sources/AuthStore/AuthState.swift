import CognitoAuth
import TokenVault

/// Where a profile's session stands. Every change goes through `AuthMachine`, and is published on
/// `AuthStore.states`.
public enum AuthState: Sendable, Equatable, CustomStringConvertible {
    /// The vault has not been read yet.
    case bootstrapping
    case signedOut
    case signingIn
    /// Cognito asked a question (an MFA code, a new password); answering keeps the same `Session`.
    case awaitingChallenge(ChallengeSummary)
    case signedIn(SessionSummary)
    /// A refresh is in flight; the current tokens are still served while they are usable.
    case refreshing(SessionSummary)
    /// The session is gone for good (refresh token revoked or expired): only a new sign-in helps.
    case needsSignIn(SignInReason)
    /// The vault cannot be read: locked, or its backend unavailable. The stored session is kept.
    case vaultUnavailable(VaultError)
    case signingOut

    public var description: String {
        switch self {
        case .bootstrapping: return "bootstrapping"
        case .signedOut: return "signed out"
        case .signingIn: return "signing in"
        case .awaitingChallenge(let challenge): return "awaiting \(challenge.kind)"
        case .signedIn(let session): return "signed in as \(session.user)"
        case .refreshing(let session): return "refreshing (\(session.user))"
        case .needsSignIn(let reason): return "sign-in required: \(reason)"
        case .vaultUnavailable(let error): return "vault unavailable: \(error)"
        case .signingOut: return "signing out"
        }
    }
}

/// A challenge as the state shows it: what is asked and until when. It carries the challenge itself, whose `Session`
/// the store answers with: the pending challenge lives in the state, so it goes only when the machine moves on.
/// Nothing prints it: the descriptions name the kind and the expiry only.
public struct ChallengeSummary: Sendable, Equatable, CustomStringConvertible {
    let challenge: AuthChallenge

    init(_ challenge: AuthChallenge) {
        self.challenge = challenge
    }

    public var kind: ChallengeKind { challenge.kind }
    public var expiresAt: Double { challenge.expiresAt }
    public var description: String { "\(kind) challenge, expiring at Unix time \(Int64(expiresAt))" }

    public static func == (lhs: ChallengeSummary, rhs: ChallengeSummary) -> Bool {
        lhs.kind == rhs.kind && lhs.expiresAt == rhs.expiresAt && lhs.challenge.session == rhs.challenge.session
    }
}

/// A session as the state shows it: who, and until when. No token.
public struct SessionSummary: Sendable, Equatable {
    public let user: String
    public let accessTokenExpiresAt: Double
    public let idTokenExpiresAt: Double
    public let lastRefreshAt: Double?
    public let revision: UInt64
    /// The external identities (Google, ...) of a user who signed in through one.
    public var federated: [UserIdentity.FederatedLink] = []
    /// The refreshes of this session that failed in a row for a passing reason; nil since the last success.
    public internal(set) var refreshFailures: RefreshFailures? = nil

    /// The same session after one more refresh failed.
    func afterFailedRefresh(_ error: CognitoError, at moment: Double) -> SessionSummary {
        var next = self
        next.refreshFailures = RefreshFailures(
            consecutive: (refreshFailures?.consecutive ?? 0) + 1, lastFailedAt: moment,
            lastError: error)
        return next
    }
}

/// Why a session ended.
public enum SignInReason: Sendable, Equatable, CustomStringConvertible {
    /// Cognito refused the refresh token (revoked, expired, user disabled), with its message.
    case refreshRejected(String)
    /// Another process signed out of this profile.
    case signedOutElsewhere
    /// The stored record has no refresh token.
    case noRefreshToken

    public var description: String {
        switch self {
        case .refreshRejected(let message): return "the session was rejected (\(message))"
        case .signedOutElsewhere: return "signed out by another process"
        case .noRefreshToken: return "the stored session cannot be refreshed"
        }
    }
}

extension SessionSummary {
    init(_ record: CredentialRecord) {
        user = record.identity?.displayName ?? "unknown user"
        accessTokenExpiresAt = record.accessTokenExpiresAt ?? 0
        idTokenExpiresAt = record.idTokenExpiresAt ?? 0
        lastRefreshAt = record.lastRefreshAt
        revision = record.revision
        federated = record.identity?.federated ?? []
    }
}
