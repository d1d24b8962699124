import TokenVault

/// What a profile's stored record says, without a secret in it: whose session it is, how it was obtained and until
/// when it lasts, and what outlives it (the remembered device). For reports (`status`, `whoami`) and for the helpers
/// that hand a token out with its expiry and user name.
public struct RecordFacts: Sendable, Equatable {
    /// This machine as a remembered device of the user's: its key and name, not its password.
    public struct Device: Sendable, Equatable {
        public let key: String
        public let name: String
    }

    /// The AWS credentials kept with the session: what they were issued for and until when, not the keys.
    public struct AWSCredentialSet: Sendable, Equatable {
        /// Nil for a set saved before this was recorded, which is never served.
        public let scope: AWSCredentialScope?
        public let expiresAt: Double
    }

    /// Incremented by every change of the record, in any process.
    public let revision: UInt64
    /// The record holds a session (not only what outlives one).
    public let hasSession: Bool
    /// The session can be refreshed: it holds a refresh token.
    public let canRefresh: Bool
    public let identity: UserIdentity?
    public let origin: SessionOrigin?
    /// Unix seconds, by the identity provider's clock.
    public let accessTokenExpiresAt: Double?
    public let idTokenExpiresAt: Double?
    /// Unix seconds, by this machine's clock.
    public let signedInAt: Double?
    public let lastRefreshAt: Double?
    public let identityId: String?
    public let identityPoolId: String?
    public let awsCredentials: AWSCredentialSet?
    public let device: Device?

    init(_ record: CredentialRecord) {
        revision = record.revision
        hasSession = record.hasSession
        canRefresh = record.refreshToken.map { $0.count > 0 } ?? false
        identity = record.identity
        origin = record.origin
        accessTokenExpiresAt = record.accessTokenExpiresAt
        idTokenExpiresAt = record.idTokenExpiresAt
        signedInAt = record.signedInAt
        lastRefreshAt = record.lastRefreshAt
        identityId = record.identityId
        identityPoolId = record.identityPoolId
        awsCredentials = record.awsCredentials.map { AWSCredentialSet(scope: $0.scope, expiresAt: $0.expiresAt) }
        device = record.device.map { Device(key: $0.key, name: $0.name) }
    }
}

extension AuthStore {
    /// The stored record's facts as the store last read or wrote it (nil: there is none); it does not read the vault.
    public func recordFacts() -> RecordFacts? {
        record.map(RecordFacts.init)
    }
}
