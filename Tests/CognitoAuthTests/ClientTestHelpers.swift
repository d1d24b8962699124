import AuthCrypto
import Foundation
import HTTPTransport
import TestSupport
import TokenVerification

@testable import CognitoAuth

/// SECRET_HASH as python's hmac computes it, independent of the code under test.
func pythonSecretHash(secret: String, username: String, clientId: String) throws -> String {
    let script =
        "import base64,hashlib,hmac,sys; print(base64.b64encode(hmac.new(sys.argv[1].encode(), (sys.argv[2] + sys.argv[3]).encode(), hashlib.sha256).digest()).decode())"
    let output = try ProcessRunner.run(PeerPython.path, ["-c", script, secret, username, clientId])
    return output.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
}

extension SecretBytes {
    var text: String { withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }
}

extension CognitoClient {
    /// A client on any transport, its verifier reading keys from `jwksURL` over the same transport.
    static func forTests(
        poolId: String,
        clientId: String,
        clientSecret: String? = nil,
        endpoint: String,
        jwksURL: String,
        transport: any HTTPTransport,
        jwksTransport: (any HTTPTransport)? = nil,
        rotatesRefreshTokens: Bool = false,
        deadline: Duration = .seconds(10),
        retryPolicy: RetryPolicy = RetryPolicy(
            maximumAttempts: 4, initialBackoff: .milliseconds(20), maximumBackoff: .milliseconds(200)),
        clock: TestClock? = nil,
        privateValue: BigUInt? = nil
    ) throws -> CognitoClient {
        let configuration = CognitoConfiguration(
            region: "us-east-1", userPoolId: poolId, clientId: clientId,
            clientSecret: clientSecret.map(SecretBytes.init(utf8:)),
            endpoint: endpoint, rotatesRefreshTokens: rotatesRefreshTokens, operationDeadline: deadline,
            retryPolicy: retryPolicy)
        let verifier = TokenVerifier(
            issuer: TestTokens.issuer(poolId: poolId), clientId: clientId,
            keys: JWKSCache(url: jwksURL, transport: jwksTransport ?? transport))
        var now: @Sendable () -> Double = { Date().timeIntervalSince1970 }
        if let clock { now = clock.now }
        var makePrivateValue: @Sendable () -> BigUInt = SRPSignIn.randomPrivateValue
        if let privateValue { makePrivateValue = { privateValue } }
        return try CognitoClient(
            configuration: configuration, transport: transport, verifier: verifier,
            now: now, makeSRPPrivateValue: makePrivateValue, jitter: { 0.5 })
    }
}

extension SignInStep {
    var challenge: AuthChallenge? {
        if case .challenge(let challenge) = self { return challenge }
        return nil
    }

    var tokens: CognitoTokens? {
        if case .signedIn(let tokens) = self { return tokens }
        return nil
    }
}
