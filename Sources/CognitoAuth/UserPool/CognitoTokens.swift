import AuthCrypto

/// The tokens of a signed-in user, every one verified before it got here. Printing shows who and until when,
/// never a token.
public struct CognitoTokens: Sendable, CustomStringConvertible {
    /// Nil only from a grant where it is optional (RFC 8628's device grant): the identity then comes from userinfo.
    public let idToken: SecretBytes?
    public let accessToken: SecretBytes
    /// After a refresh without rotation, the refresh token that was used (Cognito returns none); with rotation,
    /// the new one.
    public let refreshToken: SecretBytes
    /// Unix seconds, from the tokens' `exp` claims.
    public let idTokenExpiresAt: Double?
    public let accessTokenExpiresAt: Double
    public let identity: VerifiedIdentity
    /// A sign-in from a device the pool tracks and had not seen: confirm it (`CognitoClient.confirmDevice`) to
    /// remember it.
    public let newDevice: NewDeviceMetadata?

    public init(
        idToken: SecretBytes?, accessToken: SecretBytes, refreshToken: SecretBytes, idTokenExpiresAt: Double?,
        accessTokenExpiresAt: Double, identity: VerifiedIdentity, newDevice: NewDeviceMetadata? = nil
    ) {
        self.idToken = idToken
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.idTokenExpiresAt = idTokenExpiresAt
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.identity = identity
        self.newDevice = newDevice
    }

    public var description: String {
        let id = idTokenExpiresAt.map { "ID token until \(Int64($0))" } ?? "no ID token"
        return "CognitoTokens(\(identity), \(id), access token until \(Int64(accessTokenExpiresAt)), <redacted>)"
    }
}

/// Who the verified ID token says the user is.
public struct VerifiedIdentity: Sendable, Equatable, CustomStringConvertible {
    /// Cognito's internal user name (`cognito:username`): the name refresh's SECRET_HASH uses.
    public let username: String
    public let subject: String
    public let email: String?

    public init(username: String, subject: String, email: String?) {
        self.username = username
        self.subject = subject
        self.email = email
    }

    public var description: String { "user \(username) (sub \(subject))" }
}
