import Foundation
import TestSupport
import Testing

/// Issue 26 item 3: every remedy names the profile it is about, in one wording ('authvault COMMAND --profile P'):
/// the profile a helper served (chosen by the tool's server, not the current one), the one named, the current one.
@Suite struct RemedyProfileTests {
    /// Two profiles without a session, each listing its own helper host; "work" is the current one.
    static func twoProfiles() async throws -> HeadlessCLI {
        let cli = try HeadlessCLI()
        for (name, host) in [("work", "git.example.com"), ("kube", "kube.example.com")] {
            let made = try await cli.run([
                "--profile", name, "configure", "--user-pool-id", "us-east-1_\(name)", "--client-id", name,
                "--vault", "file", "--helper-host", host,
            ])
            guard made.status == 0 else {
                throw TestFixtureError("configure \(name) exited \(made.status): \(made.stderrText)")
            }
        }
        let chosen = try await cli.run(["profiles", "use", "work"])
        guard chosen.status == 0 else {
            throw TestFixtureError("profiles use exited \(chosen.status): \(chosen.stderrText)")
        }
        return cli
    }

    /// kubectl, git and Vault name their server; the profile listing it is the one to sign in, not the current one.
    @Test func aHelperNamesTheProfileOfTheServerItServed() async throws {
        let cli = try await Self.twoProfiles()
        let execInfo =
            #"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","spec":{"interactive":false,"#
            + #""cluster":{"server":"https://kube.example.com:6443"}}}"#
        let kubectl = try await cli.run(["kubectl-credential"], extraEnvironment: ["KUBERNETES_EXEC_INFO": execInfo])
        let git = try await cli.run(["git-credential", "get"], stdin: "protocol=https\nhost=kube.example.com\n\n")
        let vault = try await cli.run(
            ["vault-token-helper", "get"], extraEnvironment: ["VAULT_ADDR": "https://kube.example.com:8200"])
        for (tool, output) in [("kubectl", kubectl), ("git", git), ("vault", vault)] {
            #expect(output.status == 3 && output.stdout.isEmpty, "\(tool): \(output.status) \(output.stderrText)")
            #expect(
                output.stderrText.contains("'authvault login --profile kube' in a terminal"),
                "\(tool): \(output.stderrText)")
            #expect(
                !output.stderrText.contains("--profile work") && !output.stderrText.contains("'authvault login'"),
                "\(tool): \(output.stderrText)")
        }
    }

    /// A command's own remedies name the profile it ran for: the current one, or the one --profile named.
    @Test func aCommandNamesTheProfileItRanFor() async throws {
        let cli = try await Self.twoProfiles()
        let current = try await cli.run(["token"])
        #expect(
            current.status == 3 && current.stderrText.contains("Run 'authvault login --profile work' in a terminal."),
            "\(current.stderrText)")
        let named = try await cli.run(["--profile", "kube", "whoami"])
        #expect(
            named.status == 3
                && named.stderrText == "Error: Not signed in. Run 'authvault login --profile kube' in a terminal.\n",
            "\(named.stderrText)")
        let refresh = try await cli.run(["refresh", "--profile", "kube"])
        #expect(
            refresh.status == 3
                && refresh.stderrText == "Error: Not signed in. Run 'authvault login --profile kube' in a terminal.\n",
            "\(refresh.stderrText)")
        let forget = try await cli.run(["devices", "forget"])
        #expect(
            forget.status == 2 && forget.stderrText.contains("(see 'authvault devices list --profile work')"),
            "\(forget.stderrText)")
    }

    /// Issue 32 item 4: a command's sign-in remedy names the profile's flow as a helper's does: for a session Cognito
    /// no longer accepts (signed out everywhere: the account call, then the refresh), and after signing out.
    @Test func aCommandsSignInRemedyNamesTheProfilesFlow() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        let configured = try await cli.run(["configure", "--auth-flow", "email-otp"])
        #expect(configured.status == 0, "\(configured.stderrText)")
        try await profile.pool.signOutEverywhere(SignedInProfile.username)
        let remedy = "Run 'authvault login --profile default --auth-flow email-otp' in a terminal.\n"
        let revoked = try await cli.run(["--debug", "whoami"])
        #expect(
            revoked.status == 3 && revoked.stderrText.contains("Cognito no longer accepts this session")
                && revoked.stderrText.hasSuffix(remedy)
                && revoked.stderrText.contains("underneath: CognitoError.notAuthorized\n"),
            "\(revoked.stderrText)")
        for command in [["refresh"], ["whoami"], ["token"]] {
            let output = try await cli.run(command)
            #expect(output.status == 3 && output.stderrText.hasSuffix(remedy), "\(command): \(output.stderrText)")
        }
        _ = try await cli.run(["logout"])
        let signedOut = try await cli.run(["whoami"])
        #expect(
            signedOut.status == 3 && signedOut.stderrText == "Error: Not signed in. \(remedy)",
            "\(signedOut.stderrText)")
        cli.expectNoSecretLeaks()
    }

    /// The remedy's login is the one that signs the profile in where it is said (`SignInNeed`, by login's own
    /// choice): the user-pool API names its flow; a Hosted UI opens the browser on a desktop and prints its address
    /// over SSH (a plain login, the user-pool flow no part of it), and with no browser to open and no device grant
    /// asks for the pasted sign-in. The same for a helper, `token`, `whoami` and `status`.
    @Test func theSignInRemedyNamesTheRouteLoginTakesHere() async throws {
        let cli = try HeadlessCLI()
        for (name, hostedUI) in [("pool", nil), ("hosted", "https://hosted.auth.us-east-1.amazoncognito.com")] {
            let made = try await cli.run(
                ["--profile", name, "configure", "--user-pool-id", "us-east-1_\(name)", "--client-id", name]
                    + (hostedUI.map { ["--hosted-ui", $0] } ?? [])
                    + ["--auth-flow", "email-otp", "--vault", "file", "--helper-host", "\(name).example.com"])
            try #require(made.status == 0, "\(made.stderrText)")
        }
        let places: [(String, [String: String], String, String)] = [
            ("no display", [:], "--auth-flow email-otp", "--paste"),
            ("a desktop", ["DISPLAY": ":0"], "--auth-flow email-otp", ""),
            ("SSH", ["SSH_CONNECTION": "10.0.0.2 50000 10.0.0.1 22"], "--auth-flow email-otp", ""),
        ]
        for (place, environment, poolOptions, hostedOptions) in places {
            for (name, options) in [("pool", poolOptions), ("hosted", hostedOptions)] {
                let login = "'authvault login --profile \(name)\(options.isEmpty ? "" : " " + options)'"
                let token = await cli.runInProcess(["--profile", name, "token"], extraEnvironment: environment)
                let whoami = await cli.runInProcess(["--profile", name, "whoami"], extraEnvironment: environment)
                // git's request is read from the process's own standard input: a process of its own.
                let git = try await cli.run(
                    ["git-credential", "get"], stdin: "protocol=https\nhost=\(name).example.com\n\n",
                    extraEnvironment: environment)
                for (command, output) in [("token", token), ("whoami", whoami), ("git-credential", git)] {
                    #expect(
                        output.status == 3 && output.stderrText.hasSuffix("Run \(login) in a terminal.\n"),
                        "\(place), \(name), \(command): \(output.stderrText)")
                }
                let status = await cli.runInProcess(["--profile", name, "status"], extraEnvironment: environment)
                #expect(
                    status.status == 3 && status.stdoutText.contains("not signed in; run \(login)"),
                    "\(place), \(name), status: \(status.stdoutText)")
            }
        }
    }

    /// With --debug the library's error underneath is named, by type and case only; without it, the exact lines
    /// above show nothing more is said.
    @Test func debugNamesTheErrorUnderneath() async throws {
        let cli = try await Self.twoProfiles()
        let named = try await cli.run(["--debug", "--profile", "kube", "whoami"])
        #expect(
            named.status == 3
                && named.stderrText.contains("authvault debug: underneath: AuthStoreError.signInRequired\n"),
            "\(named.stderrText)")
        #expect(
            named.stderrText.hasSuffix("Error: Not signed in. Run 'authvault login --profile kube' in a terminal.\n"),
            "\(named.stderrText)")
    }

    /// `status` without a session says "not signed in" once, in its report, with the exit status its help gives;
    /// nothing repeats it on standard error. Not after a logout either (moto: a real session first).
    @Test func statusSaysNotSignedInOnce() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        _ = try await cli.run(["logout"])  // moto has no RevokeToken: the local sign-out stands either way
        let status = try await cli.run(["status"])
        #expect(status.status == 3, "\(status.stderrText)")
        #expect(status.stderr.isEmpty, "said once, in the report: \(status.stderrText)")
        #expect(status.stdoutText.components(separatedBy: "not signed in").count == 2, "\(status.stdoutText)")
        #expect(
            status.stdoutText.contains("Note:       not signed in; run 'authvault login --profile default'"),
            "\(status.stdoutText)")
        let json = try await cli.run(["status", "--json"])
        #expect(json.status == 3 && json.stderr.isEmpty, "\(json.stderrText)")
        let report = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect((report["problem"] as? String)?.hasPrefix("not signed in") == true, "\(json.stdoutText)")
        cli.expectNoSecretLeaks()
    }
}
