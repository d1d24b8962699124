import AuthCrypto
import CognitoAuth
import TokenVault

/// What the store asks of the identity provider. `CognitoClient` is the user-pool API's; the application's routes a
/// browser session to the OAuth token endpoint (its `OAuthError`s mapped with `CognitoError.init(_:)`); tests inject
/// faults with their own. Errors are Cognito's, whose `requiresSignIn` and `isRetryable` decide whether a session
/// survives.
public protocol SessionAuthority: Sendable {
    /// Starts a sign-in, with the machine's remembered device if it has one (a device Cognito no longer knows is
    /// refused with ResourceNotFoundException).
    func signIn(username: String, method: SignInMethod, device: RememberedDevice?) async throws(CognitoError)
        -> SignInStep
    func respond(to challenge: AuthChallenge, with answer: ChallengeAnswer) async throws(CognitoError) -> SignInStep
    /// MFA_SETUP: a new authenticator secret, and the challenge (with its new session) to answer with a code.
    func beginSoftwareTokenSetup(for challenge: AuthChallenge) async throws(CognitoError) -> SoftwareTokenSetup
    /// New tokens for the session; a rotated refresh token comes back in them, and the store persists it first.
    func refresh(_ session: StoredSession) async throws(CognitoError) -> CognitoTokens
    func revoke(_ session: StoredSession) async throws(CognitoError)
    /// Whether `revoke` has anywhere to go: false for a browser session at a provider with no revocation endpoint,
    /// whose refresh token then lives on there until it expires.
    func canRevoke(_ session: StoredSession) -> Bool
    func globalSignOut(accessToken: SecretBytes) async throws(CognitoError)
    /// Registers a device a sign-in reported as new (ConfirmDevice).
    func confirmDevice(
        _ newDevice: NewDeviceMetadata, name: String, accessToken: SecretBytes
    ) async throws(CognitoError) -> (device: RememberedDevice, userConfirmationNecessary: Bool)
    /// Remembers a confirmed device, for pools that leave it to the user (UpdateDeviceStatus).
    func setDeviceRemembered(_ remembered: Bool, deviceKey: String, accessToken: SecretBytes) async throws(CognitoError)
}

extension SessionAuthority {
    public func canRevoke(_ session: StoredSession) -> Bool { true }
}

/// What refreshing or revoking a session needs of the stored record: its refresh token and user, and how it was
/// obtained (a browser session is refreshed at the OAuth token endpoint, one from the user-pool API with InitiateAuth).
public struct StoredSession: Sendable, CustomStringConvertible {
    public let refreshToken: SecretBytes
    public let username: String
    public let origin: SessionOrigin
    /// The session's ID token: kept when a refresh answers with none, and the subject a new one must have.
    public let idToken: SecretBytes?
    /// The user's `sub`: whom a session without an ID token (the device grant) must still belong to after a refresh.
    public let subject: String?

    public init(
        refreshToken: SecretBytes, username: String, origin: SessionOrigin, idToken: SecretBytes?,
        subject: String? = nil
    ) {
        self.refreshToken = refreshToken
        self.username = username
        self.origin = origin
        self.idToken = idToken
        self.subject = subject
    }

    init?(_ record: CredentialRecord) {
        guard let refreshToken = record.refreshToken else { return nil }
        self.init(
            refreshToken: refreshToken, username: record.identity?.username ?? "",
            origin: record.origin ?? .userPoolAPI, idToken: record.idToken, subject: record.identity?.subject)
    }

    public var description: String { "StoredSession(\(username), \(origin.rawValue), tokens redacted)" }
}

/// The user-pool API refreshes and revokes every session of the pool, the Hosted UI's included.
extension CognitoClient: SessionAuthority {
    public func refresh(_ session: StoredSession) async throws(CognitoError) -> CognitoTokens {
        try await refresh(refreshToken: session.refreshToken, username: session.username)
    }

    public func revoke(_ session: StoredSession) async throws(CognitoError) {
        try await revoke(refreshToken: session.refreshToken)
    }
}
