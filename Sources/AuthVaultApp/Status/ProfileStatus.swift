import AuthStore
import CognitoAuth
import TokenVault

/// What stands in the way of a profile's session, or what happens to it next; the front end words it.
public enum StatusProblem: Sendable {
    /// The last refresh failed for a passing reason; the stored session is kept and the next token request retries.
    case refreshFailing(at: Double, reason: String)
    /// The refresh token's validity ended: only signing in helps.
    case refreshTokenExpired(at: Double)
    /// The access token expired; the refresh token is there, and the next token request refreshes it.
    case accessTokenExpired(at: Double)
    /// The vault cannot be read: `.vaultLocked` until it is unlocked, or `.failed`.
    case vault(ApplicationError)
    case needsSignIn(reason: String)
    case notSignedIn
    /// A machine profile without a token yet: the next token request fetches one.
    case noMachineTokenYet
}

/// A profile's session as the vault holds it, read without refreshing or contacting anyone.
public struct ProfileStatus: Sendable {
    public let profile: ResolvedProfile
    public let backend: VaultBackendKind
    public let authState: AuthState
    public let state: StatusState
    public let usable: Bool
    public let problem: StatusProblem?
    public let record: RecordFacts?
    /// When the refresh token stops working, by the app client's configured validity.
    public let refreshExpiry: Double?
    /// The identity provider's time when the status was read, which times the tokens; `now` is this machine's.
    public let providerNow: Double
    public let now: Double
    /// The identity provider's clock minus this machine's, when it is notable and adopted.
    public let clockOffset: Double?
    /// An offset seen and not adopted, beyond `ServerClock.maximumOffset`.
    public let refusedClockOffset: Double?
    /// The identity in the profile's identity pool, and when its AWS credentials expire: only what the profile's
    /// pool and role would still be served.
    public let identityId: String?
    public let awsCredentialsExpiry: Double?
    /// Refresh tokens of earlier sessions whose revocation is still to be done: valid at the server meanwhile.
    public let pendingRevocations: [PendingSignOut]

    /// Beyond this many seconds, the clocks are said to differ.
    public static let notableClockOffset = 60.0

    /// Whether a session is stored (machine profiles included).
    public var hasSession: Bool { record?.hasSession == true }

    /// Whether only signing in helps.
    public var requiresSignIn: Bool { problem?.requiresSignIn ?? false }
}

/// A sign-out whose revocation is still to be done: the refresh token is gone from here but not yet revoked.
public struct PendingSignOut: Sendable {
    public let facts: PendingRevocationFacts
    /// When the refresh token stops working at the server, by the app client's configured validity; nil: unknown
    /// (Cognito's default is 30 days after sign-in, `defaultValidity`).
    public let validUntil: Double?

    /// Cognito's default refresh-token validity, in seconds.
    public static let defaultValidity = 30.0 * 86_400

    init(_ facts: PendingRevocationFacts, of profile: ResolvedProfile) {
        self.facts = facts
        validUntil = profile.refreshTokenExpiry(signedInAt: facts.signedInAt, lastRefreshAt: facts.lastRefreshAt)
    }

    /// The latest it could still be valid when its validity is not configured: Cognito's default after sign-in.
    public var validUntilByDefault: Double? { facts.signedInAt.map { $0 + Self.defaultValidity } }
}

extension StatusProblem {
    /// Whether only signing in helps.
    public var requiresSignIn: Bool {
        switch self {
        case .refreshTokenExpired, .needsSignIn, .notSignedIn: true
        default: false
        }
    }
}

extension Application {
    /// The profile's session as its vault holds it (`defaultProfileName` when nil).
    public func profileStatus(named name: String?) async throws(ApplicationError) -> ProfileStatus {
        let session = try await openProfile(named: name)
        let state = await session.store.bootstrap()
        let record = await session.store.recordFacts()
        let now = now()
        let clock = session.store.clock
        let providerNow = clock.now()
        let refreshFailure = session.store.lastRefreshFailure()
        let profile = session.profile
        let refreshExpiry =
            record?.canRefresh != true
            ? nil
            : profile.refreshTokenExpiry(signedInAt: record?.signedInAt, lastRefreshAt: record?.lastRefreshAt)
        let accessExpired = record?.accessTokenExpiresAt.map { $0 <= providerNow } ?? false
        let word = StatusState.of(
            state, accessExpired: accessExpired, refreshFailed: refreshFailure != nil,
            refreshExpired: refreshExpiry.map { $0 <= now } ?? false)
        var usable = false
        var problem: StatusProblem?
        switch state {
        case .signedIn, .refreshing:
            usable = true
            if let failure = refreshFailure {
                problem = .refreshFailing(at: failure.at, reason: failure.message)
            } else if word == .needsLogin, let refreshExpiry {
                usable = false
                problem = .refreshTokenExpired(at: refreshExpiry)
            } else if record?.canRefresh == true, let expiry = record?.accessTokenExpiresAt, expiry <= providerNow {
                problem = .accessTokenExpired(at: expiry)
            }
        case .vaultUnavailable(let error): problem = .vault(ApplicationError(error))
        case .needsSignIn(let reason): problem = .needsSignIn(reason: "\(reason)")
        default: problem = .notSignedIn
        }
        if profile.grant == .clientCredentials, problem?.requiresSignIn == true {
            // No one signs in: the next token request fetches one.
            problem = .noMachineTokenYet
            usable = true
        }
        let offset =
            record?.hasSession == true
            ? clock.offset.flatMap { abs($0) > ProfileStatus.notableClockOffset ? $0 : nil } : nil
        let pool = profile.identityPoolId
        let scope = pool.map { AWSCredentialScope(identityPoolId: $0, roleARN: profile.awsRoleARN) }
        let awsCredentials = record?.awsCredentials.flatMap { scope != nil && $0.scope == scope ? $0 : nil }
        return ProfileStatus(
            profile: profile, backend: session.backend, authState: state, state: word, usable: usable, problem: problem,
            record: record, refreshExpiry: refreshExpiry, providerNow: providerNow, now: now, clockOffset: offset,
            refusedClockOffset: record?.hasSession == true && offset == nil ? clock.refusedOffset : nil,
            identityId: pool != nil && record?.identityPoolId == pool ? record?.identityId : nil,
            awsCredentialsExpiry: awsCredentials?.expiresAt,
            pendingRevocations: await session.store.pendingRevocations().map { PendingSignOut($0, of: profile) })
    }
}
