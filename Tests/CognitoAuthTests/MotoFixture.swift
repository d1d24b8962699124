import AuthCrypto
import Foundation
import HTTPTransport
import SystemPlumbing
import TestSupport

@testable import CognitoAuth

/// A real transport that keeps every request and response, so tests can check what went over the wire and
/// read moto's side channels (the forgotten-password code comes back in a response header).
final class RecordingTransport: HTTPTransport {
    struct Exchange: Sendable {
        let request: HTTPRequest
        let response: HTTPResponse?
    }

    private let inner: any HTTPTransport
    private let exchanges = Locked<[Exchange]>([])

    init(_ inner: any HTTPTransport) {
        self.inner = inner
    }

    var recorded: [Exchange] { exchanges.withLock { $0 } }

    func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        do {
            let response = try await inner.send(request)
            exchanges.withLock { $0.append(Exchange(request: request, response: response)) }
            return response
        } catch {
            exchanges.withLock { $0.append(Exchange(request: request, response: nil)) }
            throw error
        }
    }

    /// The last response to `operation`.
    func lastResponse(to operation: String) -> HTTPResponse? {
        recorded.last { $0.request.headerValue("X-Amz-Target") == "AWSCognitoIdentityProviderService.\(operation)" }?
            .response
    }
}

/// One test's user pool and app client in the shared moto server, and a client for it.
struct MotoFixture {
    static let transport = CurlTransport(
        configuration: CurlTransportConfiguration(connectTimeout: .seconds(2), defaultTimeout: .seconds(10)))

    let moto: MotoServer
    let poolId: String
    let clientId: String
    let clientSecret: String?
    let recorder: RecordingTransport
    let client: CognitoClient

    /// - Parameters:
    ///   - totpRequired: MFA "ON" with authenticator apps (MFA_SETUP for users without one).
    ///   - endpoint: where the client sends its calls (a fault proxy in front of moto); moto itself by default.
    static func make(
        withSecret: Bool, totpRequired: Bool = false, endpoint: String? = nil, deadline: Duration = .seconds(10),
        retryPolicy: RetryPolicy? = nil
    ) async throws -> MotoFixture {
        let moto = try await MotoServer.shared()
        let pool = try await moto.call("CreateUserPool", ["PoolName": "pool-\(UUID().uuidString.prefix(8))"])
        let poolId = try require(
            (pool["UserPool"] as? [String: Any])?["Id"] as? String, "CreateUserPool answered no id")
        if totpRequired {
            try await moto.call(
                "SetUserPoolMfaConfig",
                [
                    "UserPoolId": poolId, "MfaConfiguration": "ON",
                    "SoftwareTokenMfaConfiguration": ["Enabled": true],
                ])
        }
        let created = try await moto.call(
            "CreateUserPoolClient",
            [
                "UserPoolId": poolId, "ClientName": "authvault-test", "GenerateSecret": withSecret,
                "ReadAttributes": ["email"],
                "ExplicitAuthFlows": ["ALLOW_USER_SRP_AUTH", "ALLOW_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"],
            ])
        let appClient = try require(
            created["UserPoolClient"] as? [String: Any], "CreateUserPoolClient answered no client")
        let clientId = try require(appClient["ClientId"] as? String, "no ClientId")
        let secret = appClient["ClientSecret"] as? String
        if withSecret { _ = try require(secret, "moto generated no secret") }

        let recorder = RecordingTransport(transport)
        var policy = RetryPolicy(
            maximumAttempts: 4, initialBackoff: .milliseconds(20), maximumBackoff: .milliseconds(200))
        if let retryPolicy { policy = retryPolicy }
        let client = try CognitoClient.forTests(
            poolId: poolId, clientId: clientId, clientSecret: secret, endpoint: endpoint ?? moto.endpoint,
            jwksURL: moto.jwksURL(poolId: poolId), transport: recorder, jwksTransport: transport,
            deadline: deadline, retryPolicy: policy)
        return MotoFixture(
            moto: moto, poolId: poolId, clientId: clientId, clientSecret: secret, recorder: recorder, client: client)
    }

    /// A confirmed user with a permanent password (and an email address).
    func createUser(_ username: String, password: String, email: String? = nil) async throws {
        try await createUser(username, temporaryPassword: password, email: email)
        try await moto.call(
            "AdminSetUserPassword",
            ["UserPoolId": poolId, "Username": username, "Password": password, "Permanent": true])
    }

    /// A user as an administrator creates one: FORCE_CHANGE_PASSWORD, so sign-in asks for a new password.
    func createUser(_ username: String, temporaryPassword: String, email: String? = nil) async throws {
        var body: [String: Any] = [
            "UserPoolId": poolId, "Username": username, "TemporaryPassword": temporaryPassword,
            "MessageAction": "SUPPRESS",
        ]
        if let email {
            body["UserAttributes"] = [["Name": "email", "Value": email], ["Name": "email_verified", "Value": "true"]]
        }
        try await moto.call("AdminCreateUser", body)
    }

    func subject(of username: String) async throws -> String {
        let user = try await moto.call("AdminGetUser", ["UserPoolId": poolId, "Username": username])
        let attributes = user["UserAttributes"] as? [[String: String]] ?? []
        return try Self.require(attributes.first { $0["Name"] == "sub" }?["Value"], "no sub")
    }

    private static func require<T>(_ value: T?, _ message: String) throws -> T {
        guard let value else { throw TestFixtureError(message) }
        return value
    }
}
