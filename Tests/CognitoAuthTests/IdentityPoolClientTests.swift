import AuthCrypto
import Foundation
import HTTPTransport
import SystemPlumbing
import TestSupport
import Testing

@testable import CognitoAuth

/// What the identity-pool client sends and how it reads the answers, against a stub transport: the `Logins` key,
/// the role asked for, the credentials read, Cognito Identity's error types with their meanings, and retries.
@Suite struct IdentityPoolClientTests {
    static let poolID = "eu-west-2:0c8e1f6a-2b3c-4d5e-8f90-a1b2c3d4e5f6"
    static let identityId = "eu-west-2:11111111-2222-3333-4444-555555555555"
    static let idToken = "eyJ.stub-id-token.sig"
    static let login = IdentityProviderLogin.userPool(
        region: "eu-west-2", userPoolId: "eu-west-2_Pool1", idToken: SecretBytes(utf8: idToken))

    static func credentialsAnswer(expiration: Double = 1_800_000_000.5) -> HTTPResponse {
        StubTransport.json([
            "IdentityId": identityId,
            "Credentials": [
                "AccessKeyId": "ASIAEXAMPLEKEY", "SecretKey": "stub-secret-key/123",
                "SessionToken": "stub-session-token==",
                "Expiration": expiration,
            ],
        ])
    }

    func client(_ transport: StubTransport, roleARN: String? = nil) throws -> IdentityPoolClient {
        let configuration = IdentityPoolConfiguration(
            poolID: try IdentityPoolID(Self.poolID), endpoint: "https://identity.stub.test/", roleARN: roleARN,
            operationDeadline: .seconds(5),
            retryPolicy: RetryPolicy(
                maximumAttempts: 3, initialBackoff: .milliseconds(5), maximumBackoff: .milliseconds(20)))
        return try IdentityPoolClient(configuration: configuration, transport: transport, jitter: { 0.5 })
    }

    @Test func poolIDsAreParsedAndNameTheirRegionsEndpoint() throws {
        let id = try IdentityPoolID(Self.poolID)
        #expect(id.region == "eu-west-2" && id.rawValue == Self.poolID)
        #expect(IdentityPoolConfiguration(poolID: id).endpoint == "https://cognito-identity.eu-west-2.amazonaws.com/")
        #expect(try IdentityPoolID("us-gov-west-1:0C8E1F6A-2B3C-4D5E-8F90-A1B2C3D4E5F6").region == "us-gov-west-1")
        for bad in [
            "", "eu-west-2", "0c8e1f6a-2b3c-4d5e-8f90-a1b2c3d4e5f6", "eu-west-2:not-a-guid",
            "EU-WEST-2:" + Self.poolID.dropFirst(10),
            "eu-west-2:0c8e1f6a-2b3c-4d5e-8f90-a1b2c3d4e5f6:x", "eu_west_2:0c8e1f6a-2b3c-4d5e-8f90-a1b2c3d4e5f6",
            "eu-west-2:0c8e1f6a2b3c-4d5e-8f90-a1b2c3d4e5f6x",
        ] {
            #expect(throws: CognitoError.self, "\(bad)") { try IdentityPoolID(bad) }
        }
    }

    @Test func loginsAreNamedAsIdentityPoolsExpect() {
        #expect(Self.login.providerName == "cognito-idp.eu-west-2.amazonaws.com/eu-west-2_Pool1")
        let token = SecretBytes(utf8: "t")
        #expect(
            IdentityProviderLogin.openIDProvider(issuer: "https://accounts.google.com", idToken: token).providerName
                == "accounts.google.com")
        #expect(
            IdentityProviderLogin.openIDProvider(issuer: "https://sso.example.com/realms/staff/", idToken: token)
                .providerName
                == "sso.example.com/realms/staff")
        #expect(
            IdentityProviderLogin.providerName(issuer: "https://cognito-idp.eu-west-2.amazonaws.com/eu-west-2_Pool1")
                == Self.login.providerName,
            "a user pool's issuer names the user pool")
    }

    @Test func aPlainHTTPEndpointOrABadRoleIsRefusedBeforeAnyCall() throws {
        let id = try IdentityPoolID(Self.poolID)
        let transport = StubTransport(jwks: Data()) { _, _ in Self.credentialsAnswer() }
        #expect(throws: CognitoError.self) {
            try IdentityPoolClient(
                configuration: IdentityPoolConfiguration(poolID: id, endpoint: "http://identity.example.com/"),
                transport: transport)
        }
        #expect(throws: CognitoError.self) {
            try IdentityPoolClient(
                configuration: IdentityPoolConfiguration(poolID: id, roleARN: "admin"), transport: transport)
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func getIdThenCredentialsCarryTheLoginAndTheRole() async throws {
        let transport = StubTransport(jwks: Data()) { operation, _ in
            operation == "GetId" ? StubTransport.json(["IdentityId": Self.identityId]) : Self.credentialsAnswer()
        }
        let role = "arn:aws:iam::123456789012:role/reader"
        let client = try client(transport, roleARN: role)
        let identityId = try await client.identityId(login: Self.login)
        let credentials = try await client.credentials(identityId: identityId, login: Self.login)

        #expect(identityId == Self.identityId)
        #expect(credentials.accessKeyId == "ASIAEXAMPLEKEY" && credentials.expiresAt == 1_800_000_000.5)
        expectSecret("stub-secret-key/123", equals: credentials.secretAccessKey.text)
        expectSecret("stub-session-token==", equals: credentials.sessionToken.text)
        #expect(credentials.identityId == Self.identityId)
        expectNoSecrets(in: "\(credentials)", ["stub-secret-key/123", "stub-session-token==", "ASIAEXAMPLEKEY"])

        let service = "AWSCognitoIdentityService"
        let getId = try #require(transport.bodies(of: "GetId", service: service).first)
        #expect(getId["IdentityPoolId"] as? String == Self.poolID)
        #expect(
            getId["Logins"] as? [String: String] == [
                "cognito-idp.eu-west-2.amazonaws.com/eu-west-2_Pool1": Self.idToken
            ])
        let fetch = try #require(transport.bodies(of: "GetCredentialsForIdentity", service: service).first)
        #expect(fetch["IdentityId"] as? String == Self.identityId)
        #expect(
            fetch["Logins"] as? [String: String] == [
                "cognito-idp.eu-west-2.amazonaws.com/eu-west-2_Pool1": Self.idToken
            ])
        #expect(fetch["CustomRoleArn"] as? String == role)
        for request in transport.requests {
            #expect(request.url == "https://identity.stub.test/" && request.method == "POST")
            #expect(request.headerValue("Content-Type") == "application/x-amz-json-1.1")
            #expect(request.headerValue("Authorization") == nil)
        }
    }

    @Test func aGuestCallCarriesNoLogins() async throws {
        let transport = StubTransport(jwks: Data()) { operation, _ in
            operation == "GetId" ? StubTransport.json(["IdentityId": Self.identityId]) : Self.credentialsAnswer()
        }
        let client = try client(transport)
        _ = try await client.credentials(identityId: try await client.identityId(login: nil), login: nil)
        #expect(transport.requests.count == 2)
        #expect(transport.requests.allSatisfy { $0.jsonBody["Logins"] == nil && $0.jsonBody["CustomRoleArn"] == nil })
    }

    @Test(arguments: [
        (
            "NotAuthorizedException",
            CognitoError.identityNotAuthorized(message: "Invalid login token. Token <redacted> expired.")
        ),
        ("ResourceNotFoundException", .identityPoolNotFound(message: "Invalid login token. Token <redacted> expired.")),
        (
            "InvalidIdentityPoolConfigurationException",
            .invalidIdentityPoolConfiguration(message: "Invalid login token. Token <redacted> expired.")
        ),
        ("ExternalServiceException", .externalService(message: "Invalid login token. Token <redacted> expired.")),
    ])
    func serviceErrorsKeepTheirMeaningAndNoToken(type: String, expected: CognitoError) async throws {
        let transport = StubTransport(jwks: Data()) { _, _ in
            StubTransport.error(type, message: "Invalid login token. Token \(Self.idToken) expired.")
        }
        let client = try client(transport)
        await #expect(throws: expected) { try await client.identityId(login: Self.login) }
        #expect(transport.requests.count == 1, "\(type) is not retried")
        expectNoSecrets(in: expected.description, [Self.idToken])
    }

    @Test func throttlingIsRetriedThenSucceeds() async throws {
        let calls = Locked(0)
        let transport = StubTransport(jwks: Data()) { _, _ in
            let call = calls.withLock {
                $0 += 1
                return $0
            }
            return call < 3
                ? StubTransport.error("TooManyRequestsException", message: "slow down") : Self.credentialsAnswer()
        }
        let credentials = try await client(transport).credentials(identityId: Self.identityId, login: Self.login)
        #expect(credentials.accessKeyId == "ASIAEXAMPLEKEY")
        #expect(transport.requests.count == 3)
    }

    @Test func anAnswerWithoutCredentialsIsAnInvalidResponse() async throws {
        let transport = StubTransport(jwks: Data()) { _, _ in StubTransport.json(["IdentityId": Self.identityId]) }
        await #expect(
            throws: CognitoError.invalidResponse(
                operation: "GetCredentialsForIdentity",
                reason: "the answer lacks the credentials or their expiry")
        ) {
            try await client(transport).credentials(identityId: Self.identityId, login: Self.login)
        }
    }
}
