import AuthCrypto
package import SystemPlumbing

/// Who a profile's session belongs to, as read from the verified ID token.
public struct UserIdentity: Sendable, Equatable, Codable {
    /// Cognito's user name (the internal id for alias sign-ins).
    public var username: String
    public var subject: String?
    public var email: String?
    /// Linked external identities (provider name and the user's id there), for federated sign-ins.
    public var federated: [FederatedLink]

    public struct FederatedLink: Sendable, Equatable, Codable {
        public var provider: String
        public var userId: String
        public init(provider: String, userId: String) {
            self.provider = provider
            self.userId = userId
        }
    }

    public init(username: String, subject: String? = nil, email: String? = nil, federated: [FederatedLink] = []) {
        self.username = username
        self.subject = subject
        self.email = email
        self.federated = federated
    }

    /// How a person recognises the account: the e-mail address when there is one.
    public var displayName: String { email ?? username }
}

/// How the session was obtained, which decides how it is refreshed.
public enum SessionOrigin: String, Sendable, Codable {
    /// The user-pool API (SRP or password): refreshed with InitiateAuth / GetTokensFromRefreshToken.
    case userPoolAPI = "user-pool-api"
    /// The Hosted UI's authorization-code flow: refreshed at the OAuth token endpoint.
    case browser
    /// The app client's own access token (the client-credentials grant): no refresh token, fetched again instead.
    case clientCredentials = "client-credentials"
}

/// Everything the vault keeps for one profile. Secrets are `SecretBytes`: redacted in descriptions, zeroed on
/// release. The format is versioned; a reader accepts every version up to `currentFormatVersion`.
public struct CredentialRecord: Sendable, Equatable, CustomStringConvertible {
    public static let currentFormatVersion = 1

    public var formatVersion: Int
    /// Incremented on every save, so a process that waited for the profile lock can tell the record changed.
    public var revision: UInt64
    public var profile: String
    public var accessToken: SecretBytes?
    public var idToken: SecretBytes?
    public var refreshToken: SecretBytes?
    /// Unix seconds, from the tokens' `exp`.
    public var accessTokenExpiresAt: Double?
    public var idTokenExpiresAt: Double?
    public var identity: UserIdentity?
    public var origin: SessionOrigin?
    public var signedInAt: Double?
    public var lastRefreshAt: Double?
    /// The identity provider's clock minus this machine's, in seconds, as measured at the last sign-in or refresh:
    /// the session's tokens are timed by the provider's clock.
    public var clockOffset: Double?
    /// The same offset tied to the boot clock, so it stays right when the wall clock is corrected later.
    package var clockAnchor: ProviderClockAnchor?
    /// An offset the provider's answers showed but that was too large to adopt: kept to be reported.
    public var refusedClockOffset: Double?
    /// Why the last session ended without a sign-out (Cognito refused its refresh token), so every process can
    /// say so; cleared by the next sign-in or sign-out.
    public var sessionEndedReason: String?
    /// The app client's secret, for clients that have one (SECRET_HASH, HTTP Basic at the token endpoint).
    public var clientSecret: SecretBytes?
    /// The user's identity in the profile's identity pool (GetId's answer, stable per user): kept with the session.
    public var identityId: String?
    /// The identity pool `identityId` belongs to (an identity id means nothing to another pool); nil for an id
    /// saved before this was recorded, which is not reused.
    public var identityPoolId: String?
    /// The last AWS credentials from the identity pool, kept with the session they came from.
    public var awsCredentials: AWSCredentialEntry?
    /// This machine as a remembered device of the user's: kept across sign-outs.
    public var device: DeviceEntry?
    /// Refresh tokens of ended sessions whose revocation is still to be done: never a session of this record.
    public var pendingRevocations: [PendingRevocation] = []
    /// The pool and client the record was saved for: written by the file vault on save and checked (then cleared)
    /// on load; nil in records saved before this was kept, which match any.
    public var binding: ProfileBinding?

    public init(profile: String) {
        formatVersion = Self.currentFormatVersion
        revision = 0
        self.profile = profile
    }

    /// True when the record holds a session (not only a client secret).
    public var hasSession: Bool { refreshToken != nil || accessToken != nil }

    /// True when the record holds what outlives a session: the app client's secret, or the remembered device.
    public var keepsMachineSettings: Bool { clientSecret != nil || device != nil }

    /// True when the record holds anything once its session is gone: machine settings, or revocations to retry.
    public var outlivesSession: Bool { keepsMachineSettings || !pendingRevocations.isEmpty }

    public var description: String {
        "CredentialRecord(profile: \(profile), revision: \(revision), session: \(hasSession), "
            + "user: \(identity?.displayName ?? "-"), secrets redacted)"
    }
}
