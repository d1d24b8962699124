import Foundation
import TestSupport
import Testing

/// Fault matrix rows on a session whose app client rotates refresh tokens (GetTokensFromRefreshToken at the
/// Cognito stand-in; moto has no rotation), and on the agent: processes killed with SIGKILL at random moments, 50
/// processes at once. A rotated-out refresh token is dead, so a lost write costs the session: these rows count it.
@Suite struct RotatingSessionFaultTests {
    /// SIGKILL at a random moment of `token` on an expired session, many times; after each, a plain `token` must
    /// still print the session's token. The app client's retry grace period (10 s, Cognito allows 0 to 60) is what
    /// a process killed after Cognito rotated but before the vault was written relies on.
    @Test func sigkillAtRandomMomentsOfARotatingRefresh() async throws {
        let session = try await RotatingSession.make(retryGracePeriodSeconds: 10)
        let cli = session.profile.cli
        let rounds = FaultMatrix.rounds(quick: 3, full: 30)
        var landed = 0
        var lost = 0
        for _ in 0..<rounds {
            try await cli.ageTokens(expiringIn: -120)
            let victim = try InteractiveProcess(cli.authvault, ["token"], environment: cli.environment)
            try await Task.sleep(for: .milliseconds(Int.random(in: 0..<600)))
            if victim.isRunning { landed += 1 }
            victim.kill(signal: SIGKILL)
            let next = try await cli.run(["token"])
            if !(next.status == 0 && sameSecret(next.stdoutText, session.accessToken + "\n")) {
                lost += 1
                break
            }
        }
        let record = try await cli.storedRecord()
        let facts: [FaultFact] = [("every next token works", lost == 0), ("vault readable", record != nil)]
        try await FaultMatrix.record(
            "SIGKILL at random moments of a rotating refresh (\(rounds) rounds, \(landed) mid-run)", facts,
            tokensLost: lost, sweeping: cli)
    }

    /// Many processes at once on an expired rotating session: one refresh upstream (a second would reuse a
    /// rotated-out token and end the session), every process prints the new token.
    @Test func manyProcessesOnAnExpiredRotatingSession() async throws {
        let session = try await RotatingSession.make(retryGracePeriodSeconds: 0)
        let cli = session.profile.cli
        let count = FaultMatrix.rounds(quick: 10, full: 50)
        try await cli.ageTokens(expiringIn: -120)
        let results = try await cli.runConcurrently(count, ["token"])
        let refreshes = try await session.standIn.operations().filter { $0 == "GetTokensFromRefreshToken" }.count
        let allServed = results.allSatisfy { $0.status == 0 && sameSecret($0.stdoutText, session.accessToken + "\n") }
        let next = try await cli.run(["token"])
        let facts: [FaultFact] = [
            ("all print the new token", allServed), ("one refresh upstream", refreshes == 1),
            ("next token works", next.status == 0),
        ]
        try await FaultMatrix.record(
            "\(count) processes at once on an expired rotating session", facts,
            tokensLost: next.status == 0 ? 0 : 1, sweeping: cli)
    }

    /// The agent killed with SIGKILL while helpers without a passphrase of their own are asking it for a token on an
    /// expired session: each helper prints the token or says the vault is locked (4), none hangs; the session is
    /// whole afterwards, and a new agent starts on the dead one's socket path.
    @Test func sigkillOfTheAgentInTheMiddleOfRequests() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        try await cli.ageTokens(expiringIn: -120)
        let socket = cli.environment["XDG_RUNTIME_DIR"]! + "/authvault/agent.sock"
        let agent = try AgentProcess.start(cli.authvault, environment: cli.environment, log: cli.root + "/agent.log")
        defer { agent.kill() }
        try await agent.waitForSocket(socket)

        let clientEnvironment = cli.environment.filter { $0.key != "AUTHVAULT_VAULT_PASSPHRASE" }
        let count = FaultMatrix.rounds(quick: 10, full: 30)
        async let helpers = withThrowingTaskGroup(of: ProcessOutput.self) { group in
            for _ in 0..<count {
                group.addTask {
                    try await BoundedProcess.run(cli.authvault, ["token"], environment: clientEnvironment, timeout: 25)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        try await Task.sleep(for: .milliseconds(Int.random(in: 50..<400)))
        agent.kill()
        let results = try await helpers
        for token in results.map({ $0.stdoutText.trimmingCharacters(in: .newlines) }) where !token.isEmpty {
            cli.remember(token, as: "a token served through the agent")
        }
        let answered = results.allSatisfy { $0.status == 0 || $0.status == 4 }
        let restarted = try AgentProcess.start(
            cli.authvault, environment: cli.environment, log: cli.root + "/agent-again.log")
        defer { restarted.kill() }
        // The dead agent's socket file is still there: wait for the new agent to say it listens in its place.
        var waits = 0
        while !restarted.log.contains("agent listening"), waits < 500 {
            try await Task.sleep(for: .milliseconds(20))
            waits += 1
        }
        let restartedOnSocket =
            restarted.log.contains("agent listening") && FileManager.default.fileExists(atPath: socket)
        let throughNewAgent = try await BoundedProcess.run(
            cli.authvault, ["token"], environment: clientEnvironment, timeout: 25)
        #expect(throughNewAgent.status == 0, "\(throughNewAgent.stderrText); the new agent: \(restarted.log)")
        let served = throughNewAgent.stdoutText.trimmingCharacters(in: .newlines)
        let owner = try? await profile.pool.owner(ofAccessToken: served)
        let facts: [FaultFact] = [
            ("each helper prints the token or exits 4", answered), ("a new agent starts", restartedOnSocket),
            ("token works through it", throughNewAgent.status == 0 && owner == SignedInProfile.username),
        ]
        try await FaultMatrix.record(
            "SIGKILL of the agent amid \(count) requests", facts,
            tokensLost: facts.last!.held ? 0 : 1, sweeping: cli)
    }
}

/// A session signed in at moto, then handed to the Cognito stand-in as an app client that rotates refresh tokens:
/// the stand-in takes the session's refresh token and answers refreshes with tokens signed by a test key (the
/// moto tokens' claims with a fresh hour), served at its JWKS.
struct RotatingSession {
    let profile: SignedInProfile
    let standIn: CognitoStandIn
    /// What every refresh answers.
    let accessToken: String

    static func make(retryGracePeriodSeconds: Int) async throws -> RotatingSession {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        guard let record = try await cli.storedRecord(), let refreshToken = record["refreshToken"] as? String,
            let access = record["accessToken"] as? String, let id = record["idToken"] as? String
        else {
            throw TestFixtureError("no signed-in session to hand over")
        }
        let key = try RSATestKey()
        let now = Int(Date().timeIntervalSince1970)
        func reissued(_ token: String) throws -> String {
            var claims = TestJWT.claims(of: token) ?? [:]
            claims["iat"] = now
            claims["auth_time"] = now
            claims["exp"] = now + 3600
            let minted = try key.mintJWT(claims: claims)
            cli.remember(minted, as: "a token the stand-in issues")
            return minted
        }
        let accessToken = try reissued(access)
        let standIn = try await CognitoStandIn.start(
            .init(
                poolId: profile.pool.poolId, clientId: profile.pool.clientId, clientSecret: nil,
                refreshToken: refreshToken,
                idToken: try reissued(id), accessToken: accessToken, jwks: try jwksDocument([key]), users: [],
                retryGracePeriodSeconds: retryGracePeriodSeconds))
        let configured = try await cli.run([
            "configure", "--endpoint", standIn.endpoint, "--jwks-url", standIn.jwksURL,
            "--rotate-refresh-tokens", "true",
        ])
        guard configured.status == 0 else {
            throw TestFixtureError("configure exited \(configured.status): \(configured.stderrText)")
        }
        return RotatingSession(profile: profile, standIn: standIn, accessToken: accessToken)
    }
}
