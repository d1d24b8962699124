import AuthCrypto

/// Temporary AWS credentials for one identity, as GetCredentialsForIdentity hands them out (about an hour).
/// The secret key and session token are secrets; `description` shows neither, and of the key id only its end.
public struct AWSCredentials: Sendable, Equatable, CustomStringConvertible {
    public let accessKeyId: String
    public let secretAccessKey: SecretBytes
    public let sessionToken: SecretBytes
    /// Unix seconds.
    public let expiresAt: Double
    /// The identity they belong to (`REGION:GUID`).
    public let identityId: String

    public init(
        accessKeyId: String, secretAccessKey: SecretBytes, sessionToken: SecretBytes, expiresAt: Double,
        identityId: String
    ) {
        self.accessKeyId = accessKeyId
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
        self.expiresAt = expiresAt
        self.identityId = identityId
    }

    /// Seconds left at `now` (negative once expired).
    public func secondsLeft(at now: Double) -> Double { expiresAt - now }

    public var description: String {
        "AWSCredentials(key id ...\(accessKeyId.suffix(4)), identity \(identityId), expires at \(Int(expiresAt)))"
    }
}

extension AWSCredentials {
    /// The same credentials with their expiry on this machine's clock rather than the provider's: what a tool that
    /// compares it with its own clock (botocore, for `credential_process`) must be given.
    public func expiringOnLocalClock(of clock: ServerClock) -> AWSCredentials {
        AWSCredentials(
            accessKeyId: accessKeyId, secretAccessKey: secretAccessKey, sessionToken: sessionToken,
            expiresAt: clock.localTime(ofProviderTime: expiresAt), identityId: identityId)
    }
}
