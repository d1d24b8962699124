import AuthCrypto
import AuthStore
import CognitoAuth
import DebugTrace
import HTTPTransport
import SystemPlumbing
import TokenVault
import TokenVerification

/// A profile's identity provider, each part built on first use: serving a cached token (the hot path) never sets
/// up the HTTP transport, the JWKS cache or the client secret. A session from the browser is refreshed and revoked
/// at the OAuth endpoints it came from; everything else goes to the user-pool API.
final class ProfileAuthority: SessionAuthority {
    private let profile: ResolvedProfile
    private let userAgent: String
    private let proxy: HTTPProxySettings
    private let trace: DebugTrace
    private let clientSecret: @Sendable () async -> SecretBytes?
    private let clock: ServerClock
    private let parts = Locked(Parts())

    private struct Parts {
        var transport: ClockLearningTransport?
        var verifier: TokenVerifier?
        var cognito: CognitoClient?
        var oauth: OAuthClient?
        var identityPool: IdentityPoolClient?
        var clientCredentials: ClientCredentialsClient?
        var api: CurlTransport?
    }

    /// - Parameters:
    ///   - userAgent: sent with every request.
    ///   - proxy: the proxies requests go through (none by default).
    ///   - trace: each request, for `--debug`.
    ///   - clock: the provider's clock, taught by every answer, by which its tokens are checked.
    ///   - clientSecret: read from the vault when a client is first needed.
    init(
        profile: ResolvedProfile, userAgent: String, proxy: HTTPProxySettings = .init(), trace: DebugTrace = .off,
        clock: ServerClock = ServerClock(), clientSecret: @escaping @Sendable () async -> SecretBytes?
    ) {
        self.profile = profile
        self.userAgent = userAgent
        self.proxy = proxy
        self.trace = trace
        self.clock = clock
        self.clientSecret = clientSecret
    }

    func cognitoClient() async throws(CognitoError) -> CognitoClient {
        if let existing = parts.withLock({ $0.cognito }) { return existing }
        guard let userPoolId = profile.userPoolId, let region = profile.region, let endpoint = profile.endpoint else {
            throw .noUserPool
        }
        let (transport, verifier) = shared()
        let configuration = CognitoConfiguration(
            region: region, userPoolId: userPoolId, clientId: profile.clientId,
            clientSecret: await clientSecret(), endpoint: endpoint,
            rotatesRefreshTokens: profile.rotatesRefreshTokens)
        let made = try CognitoClient(configuration: configuration, transport: transport, verifier: verifier)
        return keep(made, in: \.cognito)
    }

    /// The browser and device sign-ins' client: the profile's Hosted UI or OAuth endpoints, its first registered
    /// redirect URI (a device sign-in needs none).
    func oauthClient() async throws(OAuthError) -> OAuthClient {
        if let existing = parts.withLock({ $0.oauth }) { return existing }
        guard let endpoints = try profile.oauthEndpoints() else {
            throw .invalidConfiguration(
                "profile '\(profile.name)' has no Hosted UI or OAuth endpoints to sign in through a browser")
        }
        let (transport, verifier) = shared()
        let configuration = OAuthClientConfiguration(
            endpoints: endpoints, clientId: profile.clientId, clientSecret: await clientSecret(),
            redirectURI: profile.redirectURIs.first, scopes: profile.scopes)
        let made = try OAuthClient(
            configuration: configuration, transport: transport, verifier: verifier, now: clock.now)
        return keep(made, in: \.oauth)
    }

    /// The identity pool's client (on the same transport), or nil when the profile names no identity pool.
    func identityPoolClient() throws(CognitoError) -> IdentityPoolClient? {
        if let existing = parts.withLock({ $0.identityPool }) { return existing }
        guard let poolId = profile.identityPoolId else { return nil }
        let configuration = IdentityPoolConfiguration(
            poolID: try IdentityPoolID(poolId), endpoint: profile.identityEndpoint,
            roleARN: profile.awsRoleARN)
        let made = try IdentityPoolClient(configuration: configuration, transport: shared().0)
        return keep(made, in: \.identityPool)
    }

    /// The machine sign-in's client: the profile's token endpoint, its app client and the secret from the vault.
    func clientCredentialsClient() async throws(OAuthError) -> ClientCredentialsClient {
        if let existing = parts.withLock({ $0.clientCredentials }) { return existing }
        guard let tokenEndpoint = try profile.tokenEndpoint() else {
            throw .invalidConfiguration(
                "profile '\(profile.name)' has no token endpoint (a Hosted UI domain or a token URL)")
        }
        // Nothing is sent without it: the profile's vault record holds no client secret.
        guard let secret = await clientSecret() else { throw .missingClientSecret }
        let (transport, verifier) = shared()
        let configuration = ClientCredentialsClient.Configuration(
            tokenEndpoint: tokenEndpoint, clientId: profile.clientId,
            clientSecret: secret, scopes: profile.scopes)
        let made = try ClientCredentialsClient(
            configuration: configuration, transport: transport, verifier: verifier,
            now: clock.now)
        return keep(made, in: \.clientCredentials)
    }

    /// The transport an authorized request goes to an API on: the profile's user agent and proxy, the system's
    /// certificate authorities (the profile's CA bundle is its identity provider's), and no clock to learn from.
    func apiTransport() -> CurlTransport {
        keep(
            CurlTransport(configuration: CurlTransportConfiguration(userAgent: userAgent, proxy: proxy, trace: trace)),
            in: \.api)
    }

    /// The client already kept in `slot`, else `made`, kept there: two uses racing to make one share the first.
    private func keep<Client: Sendable>(_ made: Client, in slot: WritableKeyPath<Parts, Client?> & Sendable) -> Client {
        parts.withLock { parts in
            if let existing = parts[keyPath: slot] { return existing }
            parts[keyPath: slot] = made
            return made
        }
    }

    /// One transport and one JWKS cache for every client, timed by the provider's clock.
    private func shared() -> (ClockLearningTransport, TokenVerifier) {
        parts.withLock { parts in
            if let transport = parts.transport, let verifier = parts.verifier { return (transport, verifier) }
            let transport = ClockLearningTransport(
                CurlTransport(
                    configuration: CurlTransportConfiguration(
                        caBundlePath: profile.caBundle, userAgent: userAgent, proxy: proxy, trace: trace)),
                teaching: clock)
            let verifier = TokenVerifier(
                issuer: profile.issuer, clientId: profile.clientId,
                keys: JWKSCache(url: profile.jwksURL, transport: transport),
                rules: profile.userPoolId == nil ? .openIDConnect : .cognito, now: clock.now)
            parts.transport = transport
            parts.verifier = verifier
            return (transport, verifier)
        }
    }

    func signIn(username: String, method: SignInMethod, device: RememberedDevice?) async throws(CognitoError)
        -> SignInStep
    {
        try await cognitoClient().signIn(username: username, method: method, device: device)
    }

    func respond(to challenge: AuthChallenge, with answer: ChallengeAnswer) async throws(CognitoError) -> SignInStep {
        try await cognitoClient().respond(to: challenge, with: answer)
    }

    func beginSoftwareTokenSetup(for challenge: AuthChallenge) async throws(CognitoError) -> SoftwareTokenSetup {
        try await cognitoClient().beginSoftwareTokenSetup(for: challenge)
    }

    func refresh(_ session: StoredSession) async throws(CognitoError) -> CognitoTokens {
        guard session.origin == .browser else { return try await cognitoClient().refresh(session) }
        do {
            return try await oauthClient().refresh(
                refreshToken: session.refreshToken, previousIDToken: session.idToken,
                previousSubject: session.subject
            ).tokens
        } catch {
            throw CognitoError(error)
        }
    }

    func revoke(_ session: StoredSession) async throws(CognitoError) {
        guard session.origin == .browser else { return try await cognitoClient().revoke(session) }
        do {
            try await oauthClient().revoke(refreshToken: session.refreshToken)
        } catch {
            throw CognitoError(error)
        }
    }

    func canRevoke(_ session: StoredSession) -> Bool {
        guard session.origin == .browser else { return true }
        return (try? profile.oauthEndpoints())??.revocation != nil
    }

    func globalSignOut(accessToken: SecretBytes) async throws(CognitoError) {
        try await cognitoClient().globalSignOut(accessToken: accessToken)
    }

    func confirmDevice(
        _ newDevice: NewDeviceMetadata, name: String, accessToken: SecretBytes
    ) async throws(CognitoError) -> (device: RememberedDevice, userConfirmationNecessary: Bool) {
        try await cognitoClient().confirmDevice(newDevice, name: name, accessToken: accessToken)
    }

    func setDeviceRemembered(_ remembered: Bool, deviceKey: String, accessToken: SecretBytes) async throws(CognitoError)
    {
        try await cognitoClient().setDeviceRemembered(remembered, deviceKey: deviceKey, accessToken: accessToken)
    }
}

/// A machine profile's tokens come from the client-credentials grant.
extension ProfileAuthority: MachineAuthority {
    func machineToken() async throws(CognitoError) -> MachineToken {
        do {
            return try await clientCredentialsClient().token()
        } catch {
            throw CognitoError(error)
        }
    }
}
