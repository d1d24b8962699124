import AuthCrypto
import AuthStore
import CognitoAuth
import HTTPTransport
import Synchronization
import TokenVault
import TokenVerification

/// The Cognito client for a profile, built on first use: serving a cached token (the hot path) never sets up
/// the HTTP transport, the JWKS cache or the client secret.
final class LazyCognitoAuthority: SessionAuthority {
    private let profile: ResolvedProfile
    private let clientSecret: @Sendable () async -> SecretBytes?
    private let client = Mutex<CognitoClient?>(nil)

    /// - Parameter clientSecret: read from the vault when the client is first needed.
    init(profile: ResolvedProfile, clientSecret: @escaping @Sendable () async -> SecretBytes?) {
        self.profile = profile
        self.clientSecret = clientSecret
    }

    func cognitoClient() async throws(CognitoError) -> CognitoClient {
        if let existing = client.withLock({ $0 }) { return existing }
        let transport = CurlTransport(configuration: CurlTransportConfiguration(
            caBundlePath: profile.caBundle, userAgent: "authvault/\(AuthVault.version)"))
        let keys = JWKSCache(url: profile.jwksURL, transport: transport)
        let verifier = TokenVerifier(issuer: profile.issuer, clientId: profile.clientId, keys: keys)
        let configuration = CognitoConfiguration(
            region: profile.region, userPoolId: profile.userPoolId, clientId: profile.clientId,
            clientSecret: await clientSecret(), endpoint: profile.endpoint,
            rotatesRefreshTokens: profile.rotatesRefreshTokens)
        let made = try CognitoClient(configuration: configuration, transport: transport, verifier: verifier)
        return client.withLock { existing in
            if let existing { return existing }
            existing = made
            return made
        }
    }

    func signIn(username: String, password: SecretBytes, flow: AuthFlow) async throws(CognitoError) -> SignInStep {
        try await cognitoClient().signIn(username: username, password: password, flow: flow)
    }

    func respond(to challenge: AuthChallenge, with answer: ChallengeAnswer) async throws(CognitoError) -> SignInStep {
        try await cognitoClient().respond(to: challenge, with: answer)
    }

    func beginSoftwareTokenSetup(for challenge: AuthChallenge) async throws(CognitoError) -> SoftwareTokenSetup {
        try await cognitoClient().beginSoftwareTokenSetup(for: challenge)
    }

    func refresh(refreshToken: SecretBytes, username: String) async throws(CognitoError) -> CognitoTokens {
        try await cognitoClient().refresh(refreshToken: refreshToken, username: username)
    }

    func revoke(refreshToken: SecretBytes) async throws(CognitoError) {
        try await cognitoClient().revoke(refreshToken: refreshToken)
    }

    func globalSignOut(accessToken: SecretBytes) async throws(CognitoError) {
        try await cognitoClient().globalSignOut(accessToken: accessToken)
    }
}
