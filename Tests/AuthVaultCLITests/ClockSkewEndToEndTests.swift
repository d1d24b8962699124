import Foundation
import TestSupport
import Testing

/// The built binary on a machine whose clock is ten minutes off (libfaketime preloaded), against moto on real
/// time: sign-in works, `token` twice asks Cognito nothing, a token is refreshed when Cognito's clock says it is
/// due (not when the local one does), and `status` says how far off the clock is.
@Suite(.enabled(if: !SanitizerOptions.areSet, Comment(rawValue: SanitizerOptions.fakeTimeDeadlock)))
struct ClockSkewEndToEndTests {
    /// A profile signed in by the binary running `skew` seconds off real time, its Cognito calls counted by a proxy.
    struct SkewedMachine {
        let cli: HeadlessCLI
        let proxy: FaultProxy
        let environment: [String: String]

        func run(_ arguments: [String], stdin: String? = nil) async throws -> ProcessOutput {
            try await cli.run(arguments, stdin: stdin, extraEnvironment: environment)
        }

        /// Cognito operations that `body` caused.
        func operations(of body: () async throws -> Void) async throws -> [String] {
            let before = try await proxy.records().count
            try await body()
            return Array(try await proxy.records().dropFirst(before).map(\.operation))
        }
    }

    static func signedIn(skew: Int) async throws -> SkewedMachine {
        let pool = try await CognitoPool.make()
        try await pool.createUser(SignedInProfile.username, password: SignedInProfile.password)
        let proxy = try await FaultProxy.start(upstream: pool.moto.baseURL)
        let cli = try HeadlessCLI()
        try await cli.configure(pool, endpoint: proxy.endpoint)
        let machine = SkewedMachine(cli: cli, proxy: proxy, environment: try fakeTime(skew))
        cli.remember(SignedInProfile.password, as: "the password")
        let login = try await machine.run(
            ["login", "--password", "--username", SignedInProfile.username, "--password-stdin"],
            stdin: SignedInProfile.password + "\n")
        #expect(login.status == 0, "\(login.stderrText)")
        return machine
    }

    /// The environment that runs a program `seconds` off real time (monotonic clocks left alone).
    static func fakeTime(_ seconds: Int) throws -> [String: String] {
        let candidates = ["x86_64", "aarch64"].map { "/usr/lib/\($0)-linux-gnu/faketime/libfaketimeMT.so.1" }
        guard let library = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw TestFixtureError("libfaketime is missing: run Scripts/install-deps.sh test")
        }
        return [
            "LD_PRELOAD": library, "FAKETIME": seconds < 0 ? "\(seconds)" : "+\(seconds)",
            "FAKETIME_DONT_FAKE_MONOTONIC": "1",
        ]
    }

    func storedOffset(_ machine: SkewedMachine) async throws -> Double {
        try #require(try await machine.cli.storedRecord()?["clockOffset"] as? Double)
    }

    @Test func tenMinutesBehindSignsInAndRefreshesByCognitosClock() async throws {
        let machine = try await Self.signedIn(skew: -600)
        #expect(abs(try await storedOffset(machine) - 600) < 5)
        let calls = try await machine.operations {
            for _ in 0..<2 {
                let token = try await machine.run(["token"])
                #expect(token.status == 0, "\(token.stderrText)")
            }
        }
        #expect(calls.isEmpty)

        let status = try await machine.run(["status"])
        #expect(
            status.stdoutText.contains("Clock:      this machine's clock is 10 min behind the identity provider's"),
            "\(status.stdoutText)")
        let json = try await machine.run(["status", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect((report["clockOffsetSeconds"] as? Int).map { abs($0 - 600) < 5 } == true, "\(report)")

        // Half a minute left by Cognito's clock, ten and a half minutes by this machine's: due now.
        try await machine.cli.ageTokens(expiringIn: 30)
        let refresh = try await machine.operations {
            let token = try await machine.run(["token"])
            #expect(token.status == 0, "\(token.stderrText)")
        }
        #expect(refresh == ["InitiateAuth"])
        machine.cli.expectNoSecretLeaks()
    }

    @Test func tenMinutesAheadDoesNotRefreshOnEveryCall() async throws {
        let machine = try await Self.signedIn(skew: 600)
        #expect(abs(try await storedOffset(machine) + 600) < 5)
        // Eight minutes left by Cognito's clock; by this machine's, expired two minutes ago.
        try await machine.cli.ageTokens(expiringIn: 480)
        let calls = try await machine.operations {
            for _ in 0..<2 {
                let token = try await machine.run(["token"])
                #expect(token.status == 0, "\(token.stderrText)")
            }
        }
        #expect(calls.isEmpty)

        // Tools compare the expiry they are given with this machine's clock: it is given on that clock.
        let json = try await machine.run(["token", "--format", "json"])
        let served = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        let expiry = try #require(try await machine.cli.storedRecord()?["accessTokenExpiresAt"] as? Double)
        #expect(
            (served["expiresAtUnix"] as? NSNumber).map(\.doubleValue).map { abs($0 - (expiry + 600)) < 5 } == true,
            "\(served["expiresAtUnix"] ?? "-")")

        let status = try await machine.run(["status"])
        #expect(
            status.stdoutText.contains("this machine's clock is 10 min ahead of the identity provider's"),
            "\(status.stdoutText)")
        #expect(status.stdoutText.contains("Access:     valid until"), "\(status.stdoutText)")
        machine.cli.expectNoSecretLeaks()
    }

    /// A provider answer that put its clock two hours off (a hostile `Date`, a cache's absurd `Age`) was refused
    /// and kept with the session: `status` reports it, in words and in its JSON.
    @Test func aRefusedOffsetIsReportedByStatus() async throws {
        let profile = try await SignedInProfile.make()
        var record = try #require(try await profile.cli.storedRecord())
        record["refusedClockOffset"] = 7200.0
        try await profile.cli.saveRecord(record)
        let status = try await profile.cli.run(["status"])
        #expect(
            status.stdoutText.contains(
                "Clock:      the identity provider's answers put its clock 2 h ahead of this machine's: "
                    + "more than 60 min, so not adopted"), "\(status.stdoutText)")
        let json = try await profile.cli.run(["status", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect(report["clockOffsetRefusedSeconds"] as? Int == 7200, "\(report)")
        #expect(report["clockOffsetSeconds"] == nil, "\(report)")
        try StatusSchemaTests.expectConforms(report)
    }

    /// Ten minutes ahead at sign-in, set right since (NTP, a person): the offset kept with the session is tied to the
    /// boot clock and follows, so a token that has expired is refreshed, not served for ten more minutes, and
    /// `status` no longer says the clock is off.
    @Test func aClockSetRightAfterSignInIsFollowed() async throws {
        let machine = try await Self.signedIn(skew: 600)
        #expect(abs(try await storedOffset(machine) + 600) < 5)
        let json = try await machine.cli.run(["status", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect(report["clockOffsetSeconds"] == nil, "\(report)")

        // Expired half a minute ago by the true clock; by the offset measured at sign-in, nine and a half minutes left.
        try await machine.cli.ageTokens(expiringIn: -30)
        let calls = try await machine.operations {
            let token = try await machine.cli.run(["token"])
            #expect(token.status == 0, "\(token.stderrText)")
        }
        #expect(calls == ["InitiateAuth"])
        machine.cli.expectNoSecretLeaks()
    }
}
