import Foundation
import TestSupport
import Testing

/// The built Examples/LibraryClient (`authvault-library-example`) on a profile the CLI signed in, against a small
/// API (Tests/TestSupport/Scripts/bearer_api_server.py) that checks the bearer token on its own: RS256 against
/// moto's JWKS, `exp`, `iss`, `token_use`, `client_id`.
@Suite struct LibraryExampleTests {
    let example = BuiltProducts.executable("authvault-library-example")

    /// The profile by name only: its pool, endpoint, JWKS and vault are what `authvault configure` wrote.
    func arguments(api: String) -> [String] {
        ["--profile", "default", api]
    }

    func startAPI(_ pool: CognitoPool, log: String) async throws -> ScriptServer {
        try await ScriptServer.start(
            script: "bearer_api_server.py",
            arguments: [
                "--jwks-url", pool.jwksURL, "--issuer", pool.issuer, "--client-id", pool.clientId, "--token-use",
                "access", "--log", log,
            ])
    }

    /// The session has expired: the example's store refreshes it (one InitiateAuth, saved to the vault the CLI
    /// reads), sends the new access token, and prints what the API answered — and no token.
    @Test func theExampleRefreshesAnExpiredSessionAndCallsTheAPIWithTheNewToken() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        let aged = try await cli.ageTokens(expiringIn: -120)
        let baseline = try await profile.proxy.records().count
        let logs = try TemporaryDirectory(prefix: "library-example")
        let attemptLog = logs.appending("attempts.jsonl")
        let api = try await startAPI(profile.pool, log: attemptLog)

        let output = try await BoundedProcess.run(
            example, arguments(api: api.baseURL + "/whoami"),
            environment: cli.environment, timeout: 25)
        #expect(output.status == 0, "\(output.stderrText)")
        let lines = output.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.first == "HTTP 200")
        let answer = try #require(
            try JSONSerialization.jsonObject(with: Data((lines.dropFirst().first ?? "").utf8)) as? [String: String])
        #expect(answer == ["username": SignedInProfile.username, "tokenUse": "access"])

        #expect(try await profile.operations(after: baseline) == ["InitiateAuth"], "one refresh upstream")
        let stored = try #require(try await cli.storedRecord()?["accessToken"] as? String)
        expectSecret(stored, differsFrom: aged["accessToken"] as? String, "the refreshed session is in the vault")
        // The API saw one request, with the token now in the vault (told apart by its jti; the log holds no token).
        let attempts = try String(contentsOfFile: attemptLog, encoding: .utf8).split(separator: "\n").map { line in
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
        }
        #expect(attempts.count == 1)
        #expect(attempts.first?["reason"] as? String == "accepted")
        let sentJTI = attempts.first?["jti"] as? String
        #expect(sentJTI != nil && sentJTI == TestJWT.claims(of: stored)?["jti"] as? String)
        expectNoSecrets(in: output, known: cli.knownSecrets)
        cli.expectNoSecretLeaks()
    }

    /// A profile that was configured but never signed in: the example says to sign in (exit 3) and calls nothing.
    @Test func withoutASessionTheExampleSaysToSignInAndCallsNothing() async throws {
        let pool = try await CognitoPool.make()
        let cli = try HeadlessCLI()
        try await cli.configure(pool)
        let logs = try TemporaryDirectory(prefix: "library-example")
        let attemptLog = logs.appending("attempts.jsonl")
        let api = try await startAPI(pool, log: attemptLog)

        let output = try await BoundedProcess.run(
            example, arguments(api: api.baseURL + "/whoami"),
            environment: cli.environment, timeout: 25)
        #expect(output.status == 3, "\(output.stderrText)")
        #expect(output.stdout.isEmpty)
        #expect(output.stderrText.contains("authvault login"), "\(output.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: attemptLog), "the API was not called")
    }

    private func expectNoSecrets(
        in output: ProcessOutput, known secrets: [String: String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let shown = secrets.filter { output.stdoutText.contains($0.key) || output.stderrText.contains($0.key) }.map(
            \.value)
        #expect(shown.isEmpty, "the example printed \(shown)", sourceLocation: sourceLocation)
    }
}
