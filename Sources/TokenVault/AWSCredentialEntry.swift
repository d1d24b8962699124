import AuthCrypto

/// AWS credentials from the profile's identity pool as the vault keeps them: reused until they near expiry, and
/// dropped with the session they came from. The secret key and session token are secrets.
public struct AWSCredentialEntry: Sendable, Equatable {
    public var accessKeyId: String
    public var secretAccessKey: SecretBytes
    public var sessionToken: SecretBytes
    /// Unix seconds.
    public var expiresAt: Double
    /// What they were issued for; nil for an entry saved before this was recorded, which is never served.
    public var scope: AWSCredentialScope?

    public init(
        accessKeyId: String, secretAccessKey: SecretBytes, sessionToken: SecretBytes, expiresAt: Double,
        scope: AWSCredentialScope?
    ) {
        self.accessKeyId = accessKeyId
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
        self.expiresAt = expiresAt
        self.scope = scope
    }
}
