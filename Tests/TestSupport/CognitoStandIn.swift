import Foundation

/// Tests/TestSupport/Scripts/cognito_stand_in.py: the Cognito operations moto lacks (GetTokensFromRefreshToken
/// with rotation, RevokeToken, ResendConfirmationCode), checking each request's shape and answering as Cognito
/// documents. It serves the tokens and JWKS it is given, so tokens minted with an `RSATestKey` verify.
public final class CognitoStandIn: Sendable {
    public struct Configuration: Sendable {
        public var poolId: String
        public var clientId: String
        public var clientSecret: String?
        public var refreshToken: String
        public var idToken: String
        public var accessToken: String
        public var jwks: Data
        public var users: [String]
        /// How long a rotated-out refresh token still refreshes (the app client's RetryGracePeriodSeconds).
        public var retryGracePeriodSeconds: Int

        public init(
            poolId: String, clientId: String, clientSecret: String?, refreshToken: String, idToken: String,
            accessToken: String, jwks: Data, users: [String], retryGracePeriodSeconds: Int = 0
        ) {
            self.poolId = poolId
            self.clientId = clientId
            self.clientSecret = clientSecret
            self.refreshToken = refreshToken
            self.idToken = idToken
            self.accessToken = accessToken
            self.jwks = jwks
            self.users = users
            self.retryGracePeriodSeconds = retryGracePeriodSeconds
        }
    }

    private let server: ScriptServer
    private let poolId: String
    public var endpoint: String { server.baseURL + "/" }
    public var jwksURL: String { "\(server.baseURL)/\(poolId)/.well-known/jwks.json" }

    private init(server: ScriptServer, poolId: String) {
        self.server = server
        self.poolId = poolId
    }

    public static func start(_ configuration: Configuration) async throws -> CognitoStandIn {
        let directory = try TemporaryDirectory(prefix: "authvault-standin")
        var object: [String: Any] = [
            "poolId": configuration.poolId, "clientId": configuration.clientId,
            "refreshToken": configuration.refreshToken,
            "idToken": configuration.idToken, "accessToken": configuration.accessToken, "users": configuration.users,
            "jwks": try JSONSerialization.jsonObject(with: configuration.jwks),
            "retryGracePeriodSeconds": configuration.retryGracePeriodSeconds,
        ]
        object["clientSecret"] = configuration.clientSecret
        let path = directory.appending("config.json")
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        // The script reads its configuration before printing its port, so the file may go once it has started.
        let server = try await ScriptServer.start(script: "cognito_stand_in.py", arguments: [path])
        return CognitoStandIn(server: server, poolId: configuration.poolId)
    }

    /// The operations received so far, in order.
    public func operations() async throws -> [String] {
        let response = try await LoopbackHTTP.send(method: "GET", url: server.baseURL + "/__standin__/log")
        return response.json["requests"] as? [String] ?? []
    }
}
