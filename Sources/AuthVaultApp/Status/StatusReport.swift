import CognitoAuth

/// A profile's status as docs/status.schema.json describes it: what a script reads, and what the text form shows.
public struct StatusReport: Sendable, Encodable {
    /// `schemaVersion`: raised only when a field changes meaning or goes; new fields keep it.
    public static let schemaVersion = 1

    public struct Device: Sendable, Encodable {
        public var key: String
        public var name: String
    }

    /// A sign-out whose revocation failed for a passing reason: the refresh token is not revoked yet.
    public struct PendingRevocation: Sendable, Encodable {
        /// When it stops being valid at the server, when the app client's refresh-token validity is configured.
        public var validUntil: String?
        /// Unknown validity: Cognito's default (30 days after sign-in) as the latest it could last.
        public var validUntilByDefault: String?
        public var lastTriedAt: String
        public var lastFailure: String
    }

    public var schemaVersion = StatusReport.schemaVersion
    public var profile: String
    /// Nil for a profile of another OpenID provider, whose issuer is shown instead.
    public var userPoolId: String?
    public var issuer: String?
    public var clientId: String?
    public var backend: String?
    public var state: StatusState
    public var stateText: String
    public var usable: Bool
    public var problem: String?
    public var user: String?
    public var username: String?
    public var identities: [String]?
    public var origin: String?
    public var accessTokenExpiresAt: String?
    public var idTokenExpiresAt: String?
    public var signedInAt: String?
    public var lastRefreshAt: String?
    /// Where the app client's refresh-token validity is configured.
    public var refreshTokenExpiresAt: String?
    /// "user", or "machine (client credentials)" for a profile of the client-credentials grant.
    public var signIn = "user"
    /// The identity in the profile's identity pool, and when its AWS credentials in the vault expire.
    public var identityId: String?
    public var awsCredentialsExpireAt: String?
    /// This machine as a remembered device (kept after sign-out).
    public var device: Device?
    /// The identity provider's clock minus this machine's, when it is more than a minute.
    public var clockOffsetSeconds: Int?
    /// An offset of more than `ServerClock.maximumOffset`, seen and not adopted.
    public var clockOffsetRefusedSeconds: Int?
    public var clock: String?
    /// Earlier sign-outs' refresh tokens not revoked yet (absent when none).
    public var pendingRevocations: [PendingRevocation]?

    /// A profile that cannot be used as configured (a listing of every profile shows it instead of failing).
    public init(misconfigured profile: String, problem: String) {
        self.profile = profile
        state = .misconfigured
        stateText = "cannot be used"
        usable = false
        self.problem = problem
    }

    /// - Parameter problem: `status.problem` in the front end's words.
    public init(_ status: ProfileStatus, problem: String?) {
        let profile = status.profile
        self.profile = profile.name
        userPoolId = profile.userPoolId
        issuer = profile.issuer
        clientId = profile.clientId
        backend = status.backend.rawValue
        state = status.state
        stateText =
            switch status.state {
            // The reason is the problem's, said once there; the state says only which of the two it is.
            case .vaultLocked: "vault locked"
            case .vaultUnavailable: "vault unavailable"
            default: "\(status.authState)"
            }
        usable = status.usable
        self.problem = problem
        if profile.grant == .clientCredentials { signIn = "machine (client credentials)" }
        if let record = status.record, status.hasSession {
            user = record.identity?.displayName
            username = record.identity?.username
            identities = record.identity?.federated.map { "\($0.provider):\($0.userId)" }
            origin = record.origin?.rawValue
            accessTokenExpiresAt = record.accessTokenExpiresAt.map(TimeText.rfc3339)
            idTokenExpiresAt = record.idTokenExpiresAt.map(TimeText.rfc3339)
            signedInAt = record.signedInAt.map(TimeText.rfc3339)
            lastRefreshAt = record.lastRefreshAt.map(TimeText.rfc3339)
            refreshTokenExpiresAt = status.refreshExpiry.map(TimeText.rfc3339)
        }
        // The store's offset, not the record's number: it follows a wall clock corrected since it was measured.
        if let offset = status.clockOffset {
            clockOffsetSeconds = TimeText.wholeSeconds(offset)
            clock =
                "this machine's clock is \(TimeText.span(offset)) \(offset > 0 ? "behind" : "ahead of") the identity "
                + "provider's; tokens are timed by the provider's clock"
        } else if let refused = status.refusedClockOffset {
            clockOffsetRefusedSeconds = TimeText.wholeSeconds(refused)
            clock =
                "the identity provider's answers put its clock \(TimeText.span(refused)) \(refused > 0 ? "ahead of" : "behind") "
                + "this machine's: more than \(TimeText.span(ServerClock.maximumOffset)), so not adopted, and tokens are timed by "
                + "this machine's clock; check this machine's clock (or a proxy on the way)"
        }
        identityId = status.identityId
        awsCredentialsExpireAt = status.awsCredentialsExpiry.map(TimeText.rfc3339)
        device = status.record?.device.map { Device(key: $0.key, name: $0.name) }
        if !status.pendingRevocations.isEmpty {
            pendingRevocations = status.pendingRevocations.map { pending in
                PendingRevocation(
                    validUntil: pending.validUntil.map(TimeText.rfc3339),
                    validUntilByDefault: pending.validUntil == nil
                        ? pending.validUntilByDefault.map(TimeText.rfc3339) : nil,
                    lastTriedAt: TimeText.rfc3339(pending.facts.lastTriedAt), lastFailure: pending.facts.lastFailure)
            }
        }
    }
}
