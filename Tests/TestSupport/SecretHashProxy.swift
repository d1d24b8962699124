import Foundation

/// Tests/TestSupport/Scripts/secret_hash_proxy.py in front of moto, which checks SECRET_HASH only on SRP sign-in:
/// the proxy checks it (python's hmac) on every call of one app client that should carry it, refuses a wrong or
/// missing one, or one sent for a client without a secret, and keeps the reset codes moto returns in a header.
public final class SecretHashProxy: Sendable {
    /// One Cognito call the proxy saw.
    public struct Record: Sendable, Equatable {
        public let operation: String
        /// The call is one that must carry a secret hash when the client has a secret, and its hash was checked.
        public let checked: Bool
        /// Why it was refused, or nil when it passed.
        public let refused: String?
    }

    private let server: ScriptServer
    /// Point the client's endpoint here.
    public var endpoint: String { server.baseURL + "/" }

    private init(server: ScriptServer) {
        self.server = server
    }

    public static func start(upstream: String, clientId: String, clientSecret: String?) async throws -> SecretHashProxy
    {
        var environment: [String: String] = [:]
        environment["SECRET_HASH_PROXY_CLIENT_SECRET"] = clientSecret
        let server = try await ScriptServer.start(
            script: "secret_hash_proxy.py", arguments: ["--upstream", upstream, "--client-id", clientId],
            environment: environment)
        return SecretHashProxy(server: server)
    }

    private func log() async throws -> [String: Any] {
        let response = try await LoopbackHTTP.send(method: "GET", url: server.baseURL + "/__proxy__/log")
        guard response.status == 200 else {
            throw TestFixtureError("secret hash proxy answered HTTP \(response.status)")
        }
        return response.json
    }

    /// Every Cognito call so far, in order.
    public func records() async throws -> [Record] {
        let entries = try await log()["requests"] as? [[String: Any]] ?? []
        return entries.map {
            Record(
                operation: $0["target"] as? String ?? "", checked: $0["checked"] as? Bool ?? false,
                refused: $0["refused"] as? String)
        }
    }

    /// The last reset code moto sent back (in `x-moto-forgot-password-confirmation-code`) for ForgotPassword on `username`.
    public func forgotPasswordCode(for username: String) async throws -> String? {
        (try await log()["forgotPasswordCodes"] as? [String: String])?[username]
    }
}
