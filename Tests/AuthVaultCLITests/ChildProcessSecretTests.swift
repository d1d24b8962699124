import Foundation
import TestSupport
import Testing

/// What the processes authvault starts get from it: the browser of `logout --browser` a URL without the ID token,
/// the command of `exec` the token asked for and nothing else of ours (no AUTHVAULT_* variable, the user's own
/// core-size limit).
@Suite struct ChildProcessSecretTests {
    /// A browser sign-in (the ID token is then in the vault, and remembered as a secret of the test).
    func signIn(_ profile: BrowserProfile) async throws -> String {
        let login = try await profile.login(
            script: "scripted_browser.py", as: OAuthServer.poolUser, mode: "record",
            environment: ["TEST_BROWSER_SAVED": profile.scratch.appending("saved")])
        #expect(login.status == 0, "\(login.stderrText)")
        return try #require(try await profile.cli.storedRecord()?["idToken"] as? String)
    }

    @Test func logoutInTheBrowserNeverCarriesTheIDToken() async throws {
        let profile = try await BrowserProfile.make()
        let cli = profile.cli

        // A browser command that records its arguments and environment.
        var idToken = try await signIn(profile)
        let argumentsLog = profile.scratch.appending("browser-arguments")
        let environmentLog = profile.scratch.appending("browser-environment")
        let recorder = "sh -c 'printf \"%s\\n\" \"$0\" \"$@\" > \(argumentsLog); env > \(environmentLog)' browser"
        let recorded = try await cli.run(["logout", "--browser-command", recorder])
        #expect(recorded.status == 0, "\(recorded.stderrText)")
        #expect(recorded.stderrText.contains("Opened the Hosted UI's logout page"), "\(recorded.stderrText)")
        let arguments = String(decoding: try eventualContents(of: argumentsLog), as: UTF8.self)
        let tokenInArguments = arguments.contains(idToken)
        #expect(!tokenInArguments, "the ID token is on the browser's command line")
        #expect(
            arguments.contains("/logout?client_id=authvault-public&post_logout_redirect_uri="),
            "\(tokenInArguments ? "(not shown: it holds the ID token)" : arguments)")
        let environment = String(decoding: try eventualContents(of: environmentLog), as: UTF8.self)
        #expect(!environment.split(separator: "\n").contains { $0.hasPrefix("AUTHVAULT_") })

        // A browser command that fails, and no browser at all (the URL is printed): the ID token is on no stderr.
        idToken = try await signIn(profile)
        let failing = try await cli.run(["logout", "--browser-command", "/nonexistent/browser"])
        #expect(failing.status == 0, "\(failing.stderrText)")
        _ = try await signIn(profile)
        let printed = try await cli.run(["logout", "--browser"], extraEnvironment: ["PATH": "/nonexistent"])
        #expect(printed.status == 0, "\(printed.stderrText)")
        #expect(
            printed.stderrText.contains(
                "To end the browser's Hosted UI session too, open: \(profile.server.baseURL)/logout?client_id="),
            "\(printed.stderrText)")
        cli.expectNoSecretLeaks()
    }

    /// The command gets the token in the variable asked for, no AUTHVAULT_* variable (the vault passphrase above
    /// all), and the soft core-size limit its caller had (authvault itself runs with 0).
    @Test func execGivesTheTokenAndNothingElseOfOurs() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        let scratch = try TemporaryDirectory(prefix: "authvault-exec")
        let environmentLog = scratch.appending("environment")
        let limitLog = scratch.appending("core-limit")
        let script =
            #"ulimit -S -c 4096; exec "$0" exec --env API_TOKEN -- /bin/sh -c 'env > "$1"; ulimit -c > "$2"' child "$1" "$2""#
        let environment = cli.environment.merging(["AUTHVAULT_PROFILE": HeadlessCLI.profile]) { $1 }
        let output = try await OffPool.run {
            try ProcessRunner.run(
                "/bin/sh", ["-c", script, cli.authvault, environmentLog, limitLog], environment: environment)
        }
        #expect(output.status == 0, "\(output.stderrText)")
        let lines = String(decoding: try eventualContents(of: environmentLog), as: UTF8.self).split(separator: "\n")
        let token = lines.first { $0.hasPrefix("API_TOKEN=") }.map { String($0.dropFirst("API_TOKEN=".count)) }
        let stored = try await cli.storedRecord()?["accessToken"] as? String
        expectSecret(token, equals: stored, "the access token in API_TOKEN")
        #expect(lines.filter { $0.hasPrefix("AUTHVAULT_") }.map { $0.prefix { $0 != "=" } } == [])
        let passphraseGiven = lines.contains { $0.contains(HeadlessCLI.vaultPassphrase) }
        #expect(!passphraseGiven, "the vault passphrase reached the command")
        #expect(String(decoding: try eventualContents(of: limitLog), as: UTF8.self) == "4096\n")
        cli.expectNoSecretLeaks()
    }
}
