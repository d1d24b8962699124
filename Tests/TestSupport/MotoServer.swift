import Foundation

/// moto's Cognito emulator (PyPI `moto[cognitoidp]`, flask, flask-cors) on a free loopback port, with TOTP codes
/// checked (MOTO_COGNITO_IDP_USER_POOL_ENABLE_TOTP). One server per test process: `shared()` starts it on first
/// use; tests keep apart by making pools of their own. Unsigned calls land in us-east-1.
public final class MotoServer: Sendable {
    public let server: ScriptServer
    public var baseURL: String { server.baseURL }
    /// The user-pool API endpoint.
    public var endpoint: String { server.baseURL + "/" }

    private init(server: ScriptServer) {
        self.server = server
    }

    public static func start() async throws -> MotoServer {
        let server = try await ScriptServer.start(
            script: "moto_server.py", environment: ["MOTO_COGNITO_IDP_USER_POOL_ENABLE_TOTP": "true"])
        return MotoServer(server: server)
    }

    /// `make demo`'s strict emulator (Scripts/cognito_emulator.py): moto with RevokeToken acting on moto's state,
    /// so a revoked refresh token is refused afterwards. One per test that needs it.
    public static func startEmulator() async throws -> MotoServer {
        MotoServer(server: try await ScriptServer.start(script: "cognito_emulator.py"))
    }

    private static let sharedServer = SharedStart()

    public static func shared() async throws -> MotoServer {
        try await sharedServer.value()
    }

    /// Wipes every pool, user and token (moto's `POST /moto-api/reset`).
    public func reset() async throws {
        let response = try await LoopbackHTTP.send(url: baseURL + "/moto-api/reset")
        guard response.status == 200 else { throw TestFixtureError("moto reset answered HTTP \(response.status)") }
    }

    /// One user-pool API call (admin operations included: moto accepts them unsigned), or with `service`
    /// "AWSCognitoIdentityService" an identity-pool call. Throws on an error answer.
    @discardableResult
    public func call(
        _ operation: String, _ body: [String: Any],
        service: String = "AWSCognitoIdentityProviderService"
    ) async throws -> [String: Any] {
        let response = try await LoopbackHTTP.send(
            url: endpoint,
            headers: [
                "Content-Type": "application/x-amz-json-1.1",
                "X-Amz-Target": "\(service).\(operation)",
            ], body: try JSONSerialization.data(withJSONObject: body))
        guard response.status == 200 else {
            throw TestFixtureError(
                "moto \(operation) answered HTTP \(response.status): \(String(decoding: response.body, as: UTF8.self))")
        }
        return response.json
    }

    /// The JWKS URL moto serves for a pool (its tokens' `iss` is the real AWS URL, so the two are set apart).
    public func jwksURL(poolId: String) -> String { "\(baseURL)/\(poolId)/.well-known/jwks.json" }

    public static func issuer(poolId: String) -> String { "https://cognito-idp.us-east-1.amazonaws.com/\(poolId)" }
}

/// Starts the shared server once, whoever asks first; later callers await the same start.
private actor SharedStart {
    private var task: Task<MotoServer, any Error>?

    func value() async throws -> MotoServer {
        if let task { return try await task.value }
        let started = Task { try await MotoServer.start() }
        task = started
        return try await started.value
    }
}
