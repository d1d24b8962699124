import CognitoAuth
import FuzzSupport

/// The device authorization endpoint's answer (RFC 8628 section 3.2), as the body of a success, from an https
/// endpoint and from a loopback http one (where loopback http verification URIs are accepted).
@main enum DeviceAuthorizationFuzz: FuzzTarget {
    static func test(_ input: [UInt8]) {
        runBlocking {
            for endpoint in ["https://fuzz.example/device", "http://127.0.0.1:9/device"] {
                let transport = ReplayTransport(status: 200, body: input)
                let endpoints = OAuthEndpoints(
                    authorization: "https://fuzz.example/authorize", token: "https://fuzz.example/token",
                    deviceAuthorization: endpoint)
                guard
                    let client = try? OAuthClient(
                        configuration: OAuthClientConfiguration(
                            endpoints: endpoints, clientId: FuzzFixtures.clientId, redirectURI: nil,
                            retryPolicy: FuzzFixtures.retryPolicy),
                        transport: transport, verifier: FuzzFixtures.verifier(transport))
                else { return }
                _ = try? await client.deviceAuthorization()
            }
        }
    }
}
