import AuthCrypto
import BoundedJSON
import FoundationEssentials
import HTTPTransport
import TokenVerification

/// The user-pool API for one app client: sign-in in steps (SRP or password, then any challenges), refresh,
/// account operations and sign-out. Every call goes through the transport; every token that arrives is
/// verified before it is returned. A value with no mutable state: share it freely.
public struct CognitoClient: Sendable {
    public let configuration: CognitoConfiguration
    let api: CognitoAPI
    let verifier: TokenVerifier
    /// Unix seconds: the SRP timestamp and challenge expiry.
    let now: @Sendable () -> Double
    let makeSRPPrivateValue: @Sendable () -> BigUInt

    /// - Parameter verifier: set up for this pool's issuer and this app client.
    public init(configuration: CognitoConfiguration, transport: any HTTPTransport, verifier: TokenVerifier)
        throws(CognitoError)
    {
        try self.init(
            configuration: configuration, transport: transport, verifier: verifier,
            now: { Date().timeIntervalSince1970 }, makeSRPPrivateValue: SRPSignIn.randomPrivateValue,
            jitter: { Double.random(in: 0...1) })
    }

    /// With deterministic hooks, for tests: the clock, SRP's private value and the back-off jitter.
    init(
        configuration: CognitoConfiguration,
        transport: any HTTPTransport,
        verifier: TokenVerifier,
        now: @escaping @Sendable () -> Double,
        makeSRPPrivateValue: @escaping @Sendable () -> BigUInt,
        jitter: @escaping @Sendable () -> Double
    ) throws(CognitoError) {
        self.configuration = try configuration.validated()
        api = CognitoAPI(
            endpoint: configuration.endpoint, transport: transport, deadline: configuration.operationDeadline,
            retryPolicy: configuration.retryPolicy, jitter: jitter)
        self.verifier = verifier
        self.now = now
        self.makeSRPPrivateValue = makeSRPPrivateValue
    }

    /// SECRET_HASH for `username`, when the app client has a secret.
    func secretHash(username: String) -> JSONValue? {
        configuration.clientSecret.map {
            .secret(SecretHash.compute(username: username, clientId: configuration.clientId, clientSecret: $0))
        }
    }

    /// The raw client secret, for the operations that take it as is (GetTokensFromRefreshToken, RevokeToken).
    var clientSecretValue: JSONValue? {
        configuration.clientSecret.map { .secret($0) }
    }

    /// Checks both tokens with the verifier and reads who they are for.
    /// - Parameter refreshToken: the refresh token to keep when the answer carries none (refresh without rotation).
    func verifiedTokens(
        _ result: AuthenticationResult, keeping refreshToken: SecretBytes?, operation: CognitoOperation
    ) async throws(CognitoError) -> CognitoTokens {
        guard let idToken = result.idToken, let accessToken = result.accessToken else {
            throw .invalidResponse(operation: operation.rawValue, reason: "the answer lacks the ID or access token")
        }
        guard let keptRefreshToken = result.refreshToken.map(SecretBytes.init(utf8:)) ?? refreshToken else {
            throw .invalidResponse(operation: operation.rawValue, reason: "the answer lacks a refresh token")
        }
        let id: JWT
        let access: JWT
        do {
            id = try await verifier.verifyIDToken(idToken)
            access = try await verifier.verifyAccessToken(accessToken)
        } catch {
            throw .tokenRejected(error)
        }
        // The verifier checked `exp` is present.
        guard let subject = id.claims.subject, access.claims.subject == subject,
            let username = id.claims.username ?? access.claims.username,
            let idExpiry = id.claims.expiresAt, let accessExpiry = access.claims.expiresAt
        else {
            throw .invalidResponse(
                operation: operation.rawValue, reason: "the ID and access tokens do not name the same user")
        }
        return CognitoTokens(
            idToken: SecretBytes(utf8: idToken), accessToken: SecretBytes(utf8: accessToken),
            refreshToken: keptRefreshToken, idTokenExpiresAt: idExpiry, accessTokenExpiresAt: accessExpiry,
            identity: VerifiedIdentity(username: username, subject: subject, email: id.claims.email),
            newDevice: result.newDeviceMetadata)
    }
}
