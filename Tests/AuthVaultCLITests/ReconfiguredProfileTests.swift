import Foundation
import TestSupport
import Testing

/// A profile on the encrypted file vault reconfigured for another app client or user pool is signed out for it:
/// `authvault token` hands out no token of the old client or pool, and hands it out again once the configuration
/// goes back (the record itself is kept).
@Suite struct ReconfiguredProfileTests {
    @Test func aTokenIsServedOnlyForThePoolAndClientItWasIssuedFor() async throws {
        let cli = try HeadlessCLI()
        #expect(
            try await cli.run([
                "configure", "--user-pool-id", "us-east-1_Test1", "--client-id", "client1", "--vault", "file",
            ]).status == 0)
        let now = Int(Date().timeIntervalSince1970)
        let token = try TestJWT.unsigned(["iat": now, "exp": now + 3600, "jti": "bound"])
        cli.remember(token, as: "the access token")
        let record: [String: Any] = [
            "profile": "default", "revision": 1, "accessToken": token, "refreshToken": "refresh-bound",
            "username": "alice", "accessTokenExpiresAt": Double(now + 3600),
        ]
        cli.remember("refresh-bound", as: "the refresh token")
        let saved = try await BoundedProcess.run(
            BuiltProducts.executable("vault-probe"),
            [
                "save", "--backend", "file", "--directory", cli.dataDirectory, "--logn", "10", "--cache", "none",
                "--pool", "us-east-1_Test1", "--client", "client1", "--profile", "default",
            ],
            stdin: try JSONSerialization.data(withJSONObject: record),
            environment: cli.session.environment.merging(["AUTHVAULT_PROBE_PASSPHRASE": HeadlessCLI.vaultPassphrase]) {
                $1
            }, timeout: 30)
        #expect(saved.stdoutText.contains(#""outcome":"ok""#), "\(saved.stdoutText)")
        let served = try await cli.run(["token"])
        #expect(served.status == 0, "\(served.stderrText)")

        for (option, value) in [("--client-id", "client2"), ("--user-pool-id", "us-east-1_Other1")] {
            #expect(try await cli.run(["configure", option, value]).status == 0)
            let refused = try await cli.run(["token"])
            #expect(refused.status == 3 && refused.stdout.isEmpty, "\(option): \(refused.status) \(refused.stderrText)")
        }
        #expect(
            try await cli.run(["configure", "--user-pool-id", "us-east-1_Test1", "--client-id", "client1"]).status == 0)
        let again = try await cli.run(["token"])
        #expect(again.status == 0 && again.stdout == served.stdout, "\(again.stderrText)")
        cli.expectNoSecretLeaks()
    }

    /// A key URL given for the old pool is not kept for the new one: the change is refused, naming the option to give,
    /// and the configuration is left as it was.
    @Test func movingToAnotherPoolRefusesAKeyURLOfTheOldOne() async throws {
        let cli = try HeadlessCLI()
        let jwks = "http://127.0.0.1:9/us-east-1_Test1/.well-known/jwks.json"
        #expect(
            try await cli.run([
                "configure", "--user-pool-id", "us-east-1_Test1", "--client-id", "client1", "--jwks-url", jwks,
            ]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: cli.configPath))
        let moved = try await cli.run(["configure", "--user-pool-id", "us-east-1_Other1"])
        #expect(moved.status == 2, "\(moved.stderrText)")
        #expect(
            moved.stderrText.contains("names the user pool us-east-1_Test1") && moved.stderrText.contains("--jwks-url"),
            "\(moved.stderrText)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.configPath)) == before, "nothing was changed")
        let newKeys = "http://127.0.0.1:9/us-east-1_Other1/.well-known/jwks.json"
        #expect(
            try await cli.run(["configure", "--user-pool-id", "us-east-1_Other1", "--jwks-url", newKeys]).status == 0)
        #expect(try String(contentsOfFile: cli.configPath, encoding: .utf8).contains("us-east-1_Other1/.well-known"))
    }
}
