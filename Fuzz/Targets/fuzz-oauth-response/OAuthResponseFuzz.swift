import AuthCrypto
import CognitoAuth
import FuzzSupport

/// The OAuth token endpoint's answers: the input as the body of a success (a token answer) and of an error
/// (RFC 6749's error document), through the refresh grant.
@main enum OAuthResponseFuzz: FuzzTarget {
    static func test(_ input: [UInt8]) {
        runBlocking {
            for status in [200, 400] {
                let transport = ReplayTransport(status: status, body: input)
                guard
                    let endpoints = try? OAuthEndpoints(
                        hostedUIBaseURL: "https://fuzz.auth.eu-west-1.amazoncognito.com"),
                    let client = try? OAuthClient(
                        configuration: OAuthClientConfiguration(
                            endpoints: endpoints, clientId: FuzzFixtures.clientId,
                            redirectURI: "http://localhost:53180/callback",
                            retryPolicy: FuzzFixtures.retryPolicy),
                        transport: transport, verifier: FuzzFixtures.verifier(transport))
                else { return }
                _ = try? await client.refresh(refreshToken: SecretBytes(utf8: "fuzz-refresh"))
            }
        }
    }
}
