import AuthCrypto
import CognitoAuth
import FuzzSupport

/// The user-pool API's answers: the input as the body of a success (read as InitiateAuth's answer: tokens or a
/// challenge) and of an error (read as Cognito's error document).
@main enum CognitoResponseFuzz: FuzzTarget {
    static func test(_ input: [UInt8]) {
        runBlocking {
            for status in [200, 400] {
                let transport = ReplayTransport(status: status, body: input)
                let configuration = CognitoConfiguration(
                    region: "eu-west-1", userPoolId: "eu-west-1_Fuzz",
                    clientId: FuzzFixtures.clientId, retryPolicy: FuzzFixtures.retryPolicy)
                guard
                    let client = try? CognitoClient(
                        configuration: configuration, transport: transport,
                        verifier: FuzzFixtures.verifier(transport))
                else { return }
                _ = try? await client.signIn(
                    username: "fuzz-user", password: SecretBytes(utf8: "fuzz-password"), flow: .userPassword)
                _ = try? await client.refresh(refreshToken: SecretBytes(utf8: "fuzz-refresh"), username: "fuzz-user")
            }
        }
    }
}
