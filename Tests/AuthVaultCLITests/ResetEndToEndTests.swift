import Foundation
import TestSupport
import Testing

/// Issue 33 item 6: `authvault reset` leaves nothing of AuthVault for this user. Two profiles signed in at moto,
/// both set up for git and the AWS CLI, an agent running, the vault's key cached in the user keyring: `reset --yes`
/// signs both out (moto has no RevokeToken, so each says its token was not revoked, and the status is 5), puts the
/// tools' files back byte for byte, stops the agent, leaves no key in the user keyring and no configuration or data
/// file. Without a terminal it asks nobody and wants --yes; `--dry-run` names everything and changes nothing.
@Suite(.serialized, .enabled(if: KeyringTools.present, "needs keyctl"))
struct ResetEndToEndTests {
    static let identityPool = "us-east-1:0c8e1f6a-2b3c-4d5e-8f90-a1b2c3d4e5f6"
    static let gitconfig =
        "# mine\n[user]\n  name=Someone   ; me\n[credential \"https://git.example.com\"]\n\thelper = cache\n"
    static let awsConfig = "# AWS\n[default]\nregion=eu-west-1\n\n[profile dev]\ncredential_process =  /old/tool\n"

    @Test func resetSignsOutUndoesEverySetupStopsTheAgentAndLeavesNoFileOrKey() async throws {
        let signedIn = try await SignedInProfile.make()
        let cli = signedIn.cli
        let pool = signedIn.pool
        let cached = ["AUTHVAULT_KEY_CACHE_TIMEOUT": "300"]
        let second = try await cli.run([
            "--profile", "second", "configure", "--user-pool-id", pool.poolId, "--client-id", pool.clientId,
            "--endpoint", signedIn.proxy.endpoint, "--jwks-url", pool.jwksURL,
        ])
        #expect(second.status == 0, "\(second.stderrText)")
        let login = try await cli.run(
            ["--profile", "second", "login", "--username", SignedInProfile.username, "--password-stdin"],
            stdin: SignedInProfile.password + "\n")
        #expect(login.status == 0, "\(login.stderrText)")
        let home = try #require(cli.environment["HOME"])
        try Data(Self.gitconfig.utf8).write(to: URL(fileURLWithPath: home + "/.gitconfig"))
        try FileManager.default.createDirectory(atPath: home + "/.aws", withIntermediateDirectories: true)
        try Data(Self.awsConfig.utf8).write(to: URL(fileURLWithPath: home + "/.aws/config"))
        for profile in ["default", "second"] {
            for step in [
                ["configure", "--identity-pool-id", Self.identityPool], ["setup", "git", "--host", "git.example.com"],
                ["setup", "aws", "--aws-profile", profile == "default" ? "dev" : "second"],
            ] {
                let run = try await cli.run(
                    ["--profile", profile] + step, extraEnvironment: ["GIT_CONFIG_NOSYSTEM": "1"])
                #expect(run.status == 0, "\(step): \(run.stderrText)")
            }
        }
        #expect(try String(contentsOfFile: home + "/.gitconfig", encoding: .utf8) != Self.gitconfig)

        let agent = try AgentProcess.start(cli.authvault, environment: cli.environment, log: cli.root + "/agent.log")
        defer { agent.kill() }
        try await agent.waitForSocket(cli.environment["XDG_RUNTIME_DIR"]! + "/authvault/agent.sock")
        let status = try await cli.run(["status"], extraEnvironment: cached)
        #expect(status.status == 0, "\(status.stderrText)")
        let description = try KeyCacheSharingTests.keyDescription(dataDirectory: cli.dataDirectory)
        let cachedBefore = try await Self.inUserKeyring(description)
        #expect(cachedBefore, "the vault's key is cached before the reset")

        let unasked = try await cli.run(["reset"])
        #expect(unasked.status == 2 && unasked.stderrText.contains("--yes"), "\(unasked.stderrText)")
        let dry = try await cli.run(["reset", "--dry-run"])
        #expect(dry.status == 0, "\(dry.stderrText)")
        for named in [
            "profile 'default'", "profile 'second'", "'setup git --host git.example.com' of profile 'second'",
            "'setup aws --aws-profile dev' of profile 'default'", "Would stop the agent",
            "Dry run: nothing was changed.",
        ] {
            #expect(dry.stdoutText.contains(named), "\(named) in: \(dry.stdoutText)")
        }
        let stillCached = try await Self.inUserKeyring(description)
        #expect(FileManager.default.fileExists(atPath: cli.configPath) && stillCached, "the dry run changed nothing")

        let reset = try await cli.run(["reset", "--yes"], extraEnvironment: cached)
        #expect(reset.status == 5, "moto revokes nothing: \(reset.stdoutText) \(reset.stderrText)")
        #expect(
            reset.stdoutText.contains("Signed out of profile 'second', but its refresh token was not revoked"),
            "\(reset.stdoutText)")
        #expect(
            try String(contentsOfFile: home + "/.gitconfig", encoding: .utf8) == Self.gitconfig,
            "git's file, byte for byte")
        #expect(
            try String(contentsOfFile: home + "/.aws/config", encoding: .utf8) == Self.awsConfig,
            "the AWS config, byte for byte")
        #expect(
            !FileManager.default.fileExists(atPath: cli.configPath)
                && !FileManager.default.fileExists(atPath: cli.dataDirectory))
        #expect(!FileManager.default.fileExists(atPath: (cli.configPath as NSString).deletingLastPathComponent))
        let leftCached = try await Self.inUserKeyring(description)
        #expect(!leftCached, "no key left in the user keyring")
        for _ in 0..<300 where agent.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!agent.isRunning, "the reset stopped the agent: \(agent.log)")
        cli.expectNoSecretLeaks()
    }

    /// On a terminal, reset asks first: anything but y changes nothing; y goes ahead.
    @Test func onATerminalResetAsksFirst() async throws {
        let cli = try HeadlessCLI()
        let configured = try await cli.run([
            "configure", "--user-pool-id", "us-east-1_T1", "--client-id", "t", "--endpoint", "http://127.0.0.1:9",
        ])
        #expect(configured.status == 0, "\(configured.stderrText)")
        let declined = try await cli.runOnTerminal(["reset"], answers: [("[y/N] ", "n")])
        #expect(
            declined.status == 1 && declined.screen.contains("Would sign out of profile 'default'"),
            "\(declined.screen)")
        #expect(
            declined.screen.contains("Nothing was changed.") && FileManager.default.fileExists(atPath: cli.configPath))
        let accepted = try await cli.runOnTerminal(["reset"], answers: [("[y/N] ", "y")])
        #expect(accepted.status == 0, "\(accepted.screen)")
        #expect(
            accepted.screen.contains("Removed \(cli.configPath)")
                && !FileManager.default.fileExists(atPath: cli.configPath))
    }

    /// Where the provider revokes (the Hosted UI stand-in, django-oauth-toolkit): the refresh token the reset
    /// revoked is refused by the server afterwards.
    @Test func theRefreshTokenTheResetRevokedIsRefusedByTheServer() async throws {
        let profile = try await BrowserProfile.make()
        let login = try await profile.login(script: "scripted_browser.py", as: OAuthServer.poolUser, mode: "plain")
        #expect(login.status == 0, "\(login.stderrText)")
        let refreshToken = try #require(try await profile.cli.storedRecord()?["refreshToken"] as? String)
        let reset = try await profile.cli.run(["reset", "--yes"])
        #expect(reset.status == 0, "\(reset.stdoutText) \(reset.stderrText)")
        #expect(
            reset.stdoutText.contains("Signed out of profile 'default', refresh token revoked."), "\(reset.stdoutText)")
        var form = URLComponents()
        form.queryItems = [
            URLQueryItem(name: "grant_type", value: "refresh_token"),
            URLQueryItem(name: "refresh_token", value: refreshToken),
            URLQueryItem(name: "client_id", value: profile.client.clientId),
        ]
        let refresh = try await LoopbackHTTP.send(
            url: profile.server.baseURL + "/oauth2/token",
            headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: Data((form.percentEncodedQuery ?? "").utf8))
        #expect(refresh.status == 400, "the server refuses the revoked refresh token (HTTP \(refresh.status))")
        profile.cli.expectNoSecretLeaks()
    }

    /// A profile whose session, client secret and device keys are in the Secret Service: nothing of it stays there,
    /// though its revocation fails (its endpoint answers nothing).
    @Test(.enabled(if: SecretServiceSession.isSupported, "needs \(SecretServiceSession.requiredTools)"))
    func nothingOfAProfileStaysInTheSecretService() async throws {
        let cli = try HeadlessCLI(.gnomeKeyring)
        let configured = try await cli.run(
            [
                "configure", "--user-pool-id", "us-east-1_G1", "--client-id", "g", "--endpoint", "http://127.0.0.1:9",
                "--client-secret-stdin",
            ], stdin: "client-secret-gone\n")
        #expect(configured.status == 0, "\(configured.stderrText)")
        try await ProfileRemovalTests().save(
            "default", backend: "secret-service", pool: "us-east-1_G1", client: "g", cli: cli)
        let search = { () throws -> String in
            let output = try cli.session.run("secret-tool", ["search", "--all", "application", "authvault"])
            return output.stdoutText + output.stderrText
        }
        let held = try search().contains("profile = default")
        #expect(held, "the keyring holds the profile's items")
        let reset = try await cli.run(["reset", "--yes"])
        #expect(
            reset.status == 5 && reset.stdoutText.contains("was not revoked"), "\(reset.stdoutText) \(reset.stderrText)"
        )
        // A Bool, not the text: `secret-tool search --all` prints the secrets themselves.
        let nothingLeft = try search().isEmpty
        #expect(nothingLeft, "nothing of the profile is left in the keyring")
        #expect(
            !FileManager.default.fileExists(atPath: cli.dataDirectory)
                && !FileManager.default.fileExists(atPath: cli.configPath))
        cli.expectNoSecretLeaks()
    }

    static func inUserKeyring(_ description: String) async throws -> Bool {
        try await BoundedProcess.run(
            "/usr/bin/keyctl", ["search", "@u", "user", description], environment: ["PATH": "/usr/bin:/bin"],
            timeout: 10
        ).status == 0
    }
}
