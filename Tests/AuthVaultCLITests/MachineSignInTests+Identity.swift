import Foundation
import TestSupport
import Testing

/// Issue 26: a machine profile has no user. `whoami` shows what it has (its app client, scopes and token expiry),
/// and a user's things (an ID token, MFA, remembered devices) are refused as a machine profile's, with the command
/// that helps: never as "The Cognito settings are invalid", nor as a user-pool error.
extension MachineSignInTests {
    @Test func whoamiShowsTheClientAndAUsersThingsAreRefusedAsAMachineProfiles() async throws {
        let profile = try await Self.machineProfile()
        let cli = profile.cli
        let whoami = try await cli.run(["whoami"])
        #expect(whoami.status == 0, "\(whoami.stderrText)")
        #expect(
            whoami.stdoutText.contains(
                "Client:     \(profile.clientId) (machine sign-in: client credentials, no user)"),
            "\(whoami.stdoutText)")
        #expect(whoami.stdoutText.contains("Scopes:     \(OAuthServer.machineScope)"), "\(whoami.stdoutText)")
        #expect(whoami.stdoutText.contains("Access:     valid until "), "\(whoami.stdoutText)")
        let json = try await cli.run(["whoami", "--json"])
        let described = try #require(
            try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any], "\(json.stderrText)")
        #expect(
            described["source"] as? String == "client-credentials"
                && described["clientId"] as? String == profile.clientId)
        #expect((described["accessTokenExpiresAt"] as? Double ?? 0) > Date().timeIntervalSince1970)
        #expect(try await JSONSchemaCheck.violations(of: json.stdout, against: "whoami.schema.json") == [])

        let refusals: [(arguments: [String], remedy: String)] = [
            (["token", "--id"], "'authvault token --profile default' (for kubectl-credential, --token access)"),
            (["mfa", "status"], "'authvault whoami --profile default' shows its app client and token"),
            (["devices", "list"], "'authvault whoami --profile default' shows its app client and token"),
        ]
        for (arguments, remedy) in refusals {
            let output = try await cli.run(arguments)
            #expect(output.status == 2 && output.stdout.isEmpty, "\(arguments): \(output.status) \(output.stderrText)")
            #expect(
                output.stderrText.contains("machine profile") && output.stderrText.contains(remedy),
                "\(arguments): \(output.stderrText)")
            #expect(
                !output.stderrText.contains("settings are invalid") && !output.stderrText.contains("Cognito"),
                "\(arguments): \(output.stderrText)")
        }
        // kubectl-credential decides on its server first (issue 31), then finds no ID token.
        #expect(try await cli.run(["configure", "--helper-host", "kube.example.com"]).status == 0)
        let execInfo =
            #"{"apiVersion":"client.authentication.k8s.io/v1","spec":{"interactive":false,"cluster":{"server":"https://kube.example.com"}}}"#
        let kubectl = try await cli.run(["kubectl-credential"], extraEnvironment: ["KUBERNETES_EXEC_INFO": execInfo])
        #expect(kubectl.status == 2 && kubectl.stdout.isEmpty, "\(kubectl.status) \(kubectl.stderrText)")
        #expect(
            kubectl.stderrText.contains("'authvault token --profile default' (for kubectl-credential, --token access)"),
            "\(kubectl.stderrText)")
        cli.expectNoSecretLeaks()
    }
}
