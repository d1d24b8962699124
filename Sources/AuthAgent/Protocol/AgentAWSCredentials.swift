import AuthCrypto

/// AWS credentials from a profile's identity pool as the agent hands them out. The secret key and the session
/// token are secrets: `description` shows neither.
public struct AgentAWSCredentials: Sendable, Equatable, CustomStringConvertible {
    public let accessKeyId: String
    public let secretAccessKey: SecretBytes
    public let sessionToken: SecretBytes
    /// Unix seconds.
    public let expiresAt: Double
    /// The identity in the pool they belong to (`REGION:GUID`).
    public let identityId: String

    public init(accessKeyId: String, secretAccessKey: SecretBytes, sessionToken: SecretBytes, expiresAt: Double, identityId: String) {
        self.accessKeyId = accessKeyId
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
        self.expiresAt = expiresAt
        self.identityId = identityId
    }

    public var description: String {
        "AgentAWSCredentials(key id ...\(accessKeyId.suffix(4)), identity \(identityId), expiresAt: \(Int64(expiresAt)), secrets redacted)"
    }
}
