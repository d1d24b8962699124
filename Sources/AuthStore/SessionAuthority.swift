import AuthCrypto
import CognitoAuth

/// What the store asks of the identity provider. `CognitoClient` is the production one; tests inject faults with
/// their own. Errors are Cognito's, whose `requiresSignIn` and `isRetryable` decide whether a session survives.
public protocol SessionAuthority: Sendable {
    func signIn(username: String, password: SecretBytes, flow: AuthFlow) async throws(CognitoError) -> SignInStep
    func respond(to challenge: AuthChallenge, with answer: ChallengeAnswer) async throws(CognitoError) -> SignInStep
    /// MFA_SETUP: a new authenticator secret, and the challenge (with its new session) to answer with a code.
    func beginSoftwareTokenSetup(for challenge: AuthChallenge) async throws(CognitoError) -> SoftwareTokenSetup
    func refresh(refreshToken: SecretBytes, username: String) async throws(CognitoError) -> CognitoTokens
    func revoke(refreshToken: SecretBytes) async throws(CognitoError)
    func globalSignOut(accessToken: SecretBytes) async throws(CognitoError)
}

extension CognitoClient: SessionAuthority {}
