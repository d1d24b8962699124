import Foundation

/// Tests/TestSupport/Scripts/identity_pool_proxy.py in front of moto, whose identity pools accept any `Logins`:
/// the proxy checks that GetId and GetCredentialsForIdentity carry exactly the user pool's key with a valid ID
/// token of that pool and app client (signature by the pool's JWKS, issuer, audience, token use, expiry), and
/// refuses the call as Cognito would otherwise.
public final class IdentityPoolProxy: Sendable {
    /// One identity-pool call the proxy saw.
    public struct Record: Sendable, Equatable {
        public let operation: String
        /// The `Logins` key sent, or nil for a call without one (a guest).
        public let provider: String?
        /// Why it was refused, or nil when it passed.
        public let refused: String?
        /// The role asked for (`CustomRoleArn`), if any.
        public let role: String?

        public init(operation: String, provider: String?, refused: String?, role: String? = nil) {
            self.operation = operation
            self.provider = provider
            self.refused = refused
            self.role = role
        }
    }

    private let server: ScriptServer
    /// Point the identity-pool client's endpoint here.
    public var endpoint: String { server.baseURL + "/" }

    private init(server: ScriptServer) {
        self.server = server
    }

    /// - Parameters:
    ///   - lifetime: seconds the credentials it passes on last from the moment they pass (moto's: 90 s); nil
    ///     leaves moto's.
    ///   - issuer: the ID tokens' `iss`, for another OpenID provider; nil: `https://` and the provider's name.
    public static func start(
        moto: MotoServer, provider: String, clientId: String, jwksURL: String,
        lifetime: Double? = nil, issuer: String? = nil
    ) async throws -> IdentityPoolProxy {
        let server = try await ScriptServer.start(
            script: "identity_pool_proxy.py",
            arguments: [
                "--upstream", moto.baseURL, "--provider", provider, "--client-id", clientId, "--jwks-url", jwksURL,
            ] + (lifetime.map { ["--lifetime", String($0)] } ?? []) + (issuer.map { ["--issuer", $0] } ?? []))
        return IdentityPoolProxy(server: server)
    }

    /// Every identity-pool call so far, in order.
    public func records() async throws -> [Record] {
        try await entries().map {
            Record(
                operation: $0["target"] as? String ?? "", provider: $0["provider"] as? String,
                refused: $0["refused"] as? String,
                role: $0["role"] as? String)
        }
    }

    /// The identity pool each GetId so far named, in order.
    public func poolsAskedForAnIdentity() async throws -> [String] {
        try await entries().filter { $0["target"] as? String == "GetId" }.map { $0["pool"] as? String ?? "-" }
    }

    private func entries() async throws -> [[String: Any]] {
        let response = try await LoopbackHTTP.send(method: "GET", url: server.baseURL + "/__proxy__/log")
        guard response.status == 200 else {
            throw TestFixtureError("identity pool proxy answered HTTP \(response.status)")
        }
        return response.json["requests"] as? [[String: Any]] ?? []
    }
}
