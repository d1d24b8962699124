import Foundation

/// A server that lets in only requests carrying a valid Cognito token, checked on its own (RS256 by python3's
/// cryptography against the pool's JWKS, `exp`, `iss`, `token_use`, the app client): git over smart HTTP
/// (Tests/TestSupport/Scripts/bearer_git_server.py, the token as the Basic password) or a minimal Kubernetes API
/// over HTTPS (bearer_kube_server.py, the token as `Authorization: Bearer`). Every request it saw is an `Attempt`.
public final class BearerTokenServer: Sendable {
    /// What a token must be to pass.
    public struct Expectation: Sendable {
        public enum TokenUse: String, Sendable {
            case access, id
        }

        public let jwksURL: String
        public let issuer: String
        public let clientId: String
        public let tokenUse: TokenUse

        public init(jwksURL: String, issuer: String, clientId: String, tokenUse: TokenUse) {
            self.jwksURL = jwksURL
            self.issuer = issuer
            self.clientId = clientId
            self.tokenUse = tokenUse
        }

        var arguments: [String] {
            ["--jwks-url", jwksURL, "--issuer", issuer, "--client-id", clientId, "--token-use", tokenUse.rawValue]
        }
    }

    /// One request as the server judged it; the token itself is never kept, only some of its claims.
    public struct Attempt: Sendable, Equatable {
        public let path: String
        /// 401 when the token was missing or did not pass; otherwise what was served.
        public let status: Int
        /// `accepted`, or why not (`no credentials`, `expired`, `bad signature`, `alg is not RS256`, ...).
        public let reason: String
        public let jti: String?
        public let exp: Int?
        public let tokenUse: String?

        public var accepted: Bool { reason == "accepted" }
    }

    private let server: ScriptServer
    private let logDirectory: TemporaryDirectory
    private var logPath: String { logDirectory.appending("attempts.jsonl") }

    public var port: Int { server.port }

    private init(server: ScriptServer, logDirectory: TemporaryDirectory) {
        self.server = server
        self.logDirectory = logDirectory
    }

    /// Serves the bare repositories under `projectRoot` at `https://127.0.0.1:PORT/NAME.git` with `tls`'s server
    /// certificate, or at `http://...` without one.
    public static func git(projectRoot: String, tls: TLSFixture?, expecting expectation: Expectation) async throws
        -> BearerTokenServer
    {
        try await start(
            "bearer_git_server.py", ["--project-root", projectRoot] + (tls?.serverArguments ?? []), expectation)
    }

    /// Serves `https://127.0.0.1:PORT` with `tls`'s server certificate: discovery and one namespace, `authvault-e2e`.
    public static func kubernetes(tls: TLSFixture, expecting expectation: Expectation) async throws -> BearerTokenServer
    {
        try await start("bearer_kube_server.py", tls.serverArguments, expectation)
    }

    private static func start(_ script: String, _ arguments: [String], _ expectation: Expectation) async throws
        -> BearerTokenServer
    {
        let logDirectory = try TemporaryDirectory(prefix: "authvault-bearer")
        let server = try await ScriptServer.start(
            script: script,
            arguments: arguments + expectation.arguments + ["--log", logDirectory.appending("attempts.jsonl")])
        return BearerTokenServer(server: server, logDirectory: logDirectory)
    }

    /// Every request so far, in order (each is logged before it is answered).
    public func attempts() throws -> [Attempt] {
        guard let log = FileManager.default.contents(atPath: logPath) else { return [] }
        return try log.split(separator: UInt8(ascii: "\n")).map { line in
            guard let entry = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
                throw TestFixtureError("bearer server log: a line that is no JSON object")
            }
            return Attempt(
                path: entry["path"] as? String ?? "", status: entry["status"] as? Int ?? 0,
                reason: entry["reason"] as? String ?? "", jti: entry["jti"] as? String,
                exp: entry["exp"] as? Int, tokenUse: entry["tokenUse"] as? String)
        }
    }
}

extension TLSFixture {
    /// The options the test servers take to serve HTTPS with this fixture's certificate.
    var serverArguments: [String] { ["--cert", serverCertificatePath, "--key", serverKeyPath] }
}
