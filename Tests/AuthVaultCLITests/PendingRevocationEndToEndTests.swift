import Foundation
import TestSupport
import Testing

/// Issue 33 item 2: a revocation that failed for want of the network is kept and retried, against the strict Cognito
/// emulator (moto with RevokeToken, so a revoked refresh token is refused afterwards) behind a fault proxy that cuts
/// the network. The release binary's behaviour, driven as a user does.
@Suite struct PendingRevocationEndToEndTests {
    static let username = "rosa"
    static let password = "Revoke-Later-3!"
    /// Enough resets for every retry of one RevokeToken: the network stays down for the whole call.
    static let networkDown = [FaultProxy.Fault](repeating: .reset, count: 40)

    struct Machine {
        let pool: CognitoPool
        let proxy: FaultProxy
        let cli: HeadlessCLI

        static func make() async throws -> Machine {
            let emulator = try await MotoServer.startEmulator()
            let pool = try await CognitoPool.make(on: emulator)
            try await pool.createUser(username, password: password)
            let proxy = try await FaultProxy.start(upstream: emulator.baseURL)
            let cli = try HeadlessCLI()
            try await cli.configure(pool, endpoint: proxy.endpoint)
            let login = try await cli.login(username, lines: [password])
            guard login.status == 0 else { throw TestFixtureError("login exited \(login.status): \(login.stderrText)") }
            return Machine(pool: pool, proxy: proxy, cli: cli)
        }

        func refreshToken() async throws -> String {
            guard let token = try await cli.storedRecord()?["refreshToken"] as? String else {
                throw TestFixtureError("no refresh token stored")
            }
            return token
        }

        /// Whether the server still takes the refresh token (the refresh grant, straight at the emulator).
        func serverAccepts(_ refreshToken: String) async -> Bool {
            do {
                try await pool.moto.call(
                    "InitiateAuth",
                    [
                        "AuthFlow": "REFRESH_TOKEN_AUTH", "ClientId": pool.clientId,
                        "AuthParameters": ["REFRESH_TOKEN": refreshToken],
                    ])
                return true
            } catch {
                return false
            }
        }

        /// Signs out with the network cut, then brings it back; returns the refresh token left pending.
        func logoutWhileTheNetworkIsDown() async throws -> String {
            let token = try await refreshToken()
            try await proxy.inject(PendingRevocationEndToEndTests.networkDown)
            let logout = try await cli.run(["logout"])
            guard logout.status == 5 else {
                throw TestFixtureError("logout exited \(logout.status): \(logout.stderrText)")
            }
            try await proxy.inject([])
            return token
        }

        func pendingTokens() async throws -> [String] {
            try await cli.storedRecord()?["pendingRevocationTokens"] as? [String] ?? []
        }

        /// The tokens kept to revoke are `expected`, compared outside `#expect`, which would print them.
        func expectPending(
            _ expected: [String], _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
        ) async throws {
            let pending = try await pendingTokens()
            #expect(pending.count == expected.count, comment, sourceLocation: sourceLocation)
            for (secret, kept) in zip(expected, pending) {
                expectSecret(secret, equals: kept, comment, sourceLocation: sourceLocation)
            }
        }
    }

    @Test func aRevocationCutOffByTheNetworkIsRetriedWhenItIsBack() async throws {
        let machine = try await Machine.make()
        let cli = machine.cli
        let token = try await machine.refreshToken()

        try await machine.proxy.inject(Self.networkDown)
        let first = try await cli.run(["logout"])
        #expect(first.status == 5, "\(first.stderrText)")
        #expect(first.stderrText.contains("Signed out of profile 'default' on this machine."), "\(first.stderrText)")
        #expect(
            first.stderrText.contains(
                "Sign-out not finished: the refresh token is not revoked yet and stays valid at the server until"),
            "\(first.stderrText)")
        #expect(first.stderrText.contains("'authvault logout --profile default --forget'"), "\(first.stderrText)")
        #expect(
            first.stderrText.contains(
                "the refresh token is kept, encrypted, to revoke at the next logout, login or refresh."),
            "\(first.stderrText)")
        let record = try await cli.storedRecord()
        #expect(record?["refreshToken"] == nil && record?["accessToken"] == nil, "the session is gone from here")
        try await machine.expectPending([token], "kept to revoke, apart from any session")

        let status = try await cli.run(["status"])
        #expect(
            status.stdoutText.contains("Pending:    Sign-out not finished: the refresh token is not revoked yet"),
            "\(status.stdoutText)")
        let json = try await cli.run(["status", "--json"])
        #expect(try await JSONSchemaCheck.violations(of: json.stdout, against: "status.schema.json") == [])
        let pending =
            (try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])?["pendingRevocations"]
            as? [[String: Any]]
        #expect(pending?.count == 1 && pending?.first?["validUntilByDefault"] is String, "\(json.stdoutText)")
        expectNoSecrets(in: json.stdoutText + status.stdoutText, [token], "the token is never shown")

        let stillDown = try await cli.run(["logout"])
        #expect(stillDown.status == 5, "\(stillDown.stderrText)")
        #expect(
            stillDown.stderrText.contains("Revoking the earlier refresh token failed again"), "\(stillDown.stderrText)")
        #expect(stillDown.stderrText.contains("Sign-out not finished"), "\(stillDown.stderrText)")
        try await machine.expectPending([token])
        let stillAccepted = await machine.serverAccepts(token)
        #expect(stillAccepted, "not revoked yet: the truth status and logout tell")

        try await machine.proxy.inject([])
        let back = try await cli.run(["logout"])
        #expect(back.status == 0, "\(back.stderrText)")
        #expect(
            back.stderrText.contains("Revoked the refresh token an earlier logout could not revoke, too."),
            "\(back.stderrText)")
        #expect(!back.stderrText.contains("Sign-out not finished"), "\(back.stderrText)")
        try await machine.expectPending([])
        let acceptedAfter = await machine.serverAccepts(token)
        #expect(acceptedAfter == false, "the server refuses the revoked refresh token")
        let after = try await cli.run(["status", "--json"])
        #expect(!after.stdoutText.contains("pendingRevocations"), "\(after.stdoutText)")
        cli.expectNoSecretLeaks()
    }

    @Test func logoutForgetDropsThePendingRevocationWithoutRevoking() async throws {
        let machine = try await Machine.make()
        let cli = machine.cli
        let token = try await machine.logoutWhileTheNetworkIsDown()
        let triedWhileDown = try await machine.proxy.attempts(of: "RevokeToken")

        let forget = try await cli.run(["logout", "--forget"])
        #expect(forget.status == 0, "\(forget.stderrText)")
        #expect(forget.stderrText.contains("Forgot 1 refresh token(s) without revoking them"), "\(forget.stderrText)")
        try await machine.expectPending([])
        #expect(try await machine.proxy.attempts(of: "RevokeToken") == triedWhileDown, "no retry: forgotten on purpose")
        let accepted = await machine.serverAccepts(token)
        #expect(accepted, "forgotten, not revoked: it stays valid at the server")
        let status = try await cli.run(["status"])
        #expect(!status.stdoutText.contains("Sign-out not finished"), "\(status.stdoutText)")
    }

    @Test func aLoginRetriesThePendingRevocationAfterSavingTheNewSession() async throws {
        let machine = try await Machine.make()
        let cli = machine.cli
        let token = try await machine.logoutWhileTheNetworkIsDown()

        let login = try await cli.login(Self.username, lines: [Self.password])
        #expect(login.status == 0, "\(login.stderrText)")
        try await machine.expectPending([])
        let earlierAccepted = await machine.serverAccepts(token)
        #expect(earlierAccepted == false, "the earlier refresh token is revoked")
        let newToken = try await machine.refreshToken()
        expectSecret(newToken, differsFrom: token)
        let newAccepted = await machine.serverAccepts(newToken)
        #expect(newAccepted, "the new session stands")
    }

    @Test func logoutHelpNamesForget() async throws {
        let help = try await HeadlessCLI().run(["logout", "--help"])
        #expect(help.status == 0)
        #expect(help.stdoutText.contains("--forget"), "\(help.stdoutText)")
        #expect(help.stdoutText.contains("revoked at the next logout, login or refresh"), "\(help.stdoutText)")
    }
}
