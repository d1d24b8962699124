import Foundation
import TestSupport
import Testing

/// Machine sign-in through the built binary against django-oauth-toolkit's client-credentials grant: a profile
/// with `--grant client-credentials` needs no login; its token is fetched, cached in the vault, fetched again near
/// expiry, once for many processes at once, and served by the helpers and the agent. Serialized: the server's
/// count of client-credentials requests is per client, and every test here uses the same machine client.
@Suite(.serialized) struct MachineSignInTests {
    struct MachineProfile {
        let server: OAuthServer
        let cli: HeadlessCLI
        let client: OAuthServer.Client
        var clientId: String { client.clientId }

        /// The requests the server has had from the machine client so far.
        func grants() async throws -> Int {
            try await server.clientCredentialsRequests(clientId: clientId)
        }
    }

    /// A machine profile on the file vault: the server's token endpoint (as a Hosted UI domain), its issuer and
    /// keys, `secret` on standard input.
    static func machineProfile(
        client: OAuthServer.Client = OAuthServer.machineClient,
        secret: String? = OAuthServer.machineClient.clientSecret,
        scopes: String = OAuthServer.machineScope
    ) async throws -> MachineProfile {
        let server = try await OAuthServer.shared()
        let cli = try HeadlessCLI()
        var arguments = [
            "configure", "--user-pool-id", "us-east-1_Machine", "--client-id", client.clientId,
            "--grant", "client-credentials", "--scopes", scopes, "--hosted-ui", server.baseURL,
            "--issuer", server.issuer, "--jwks-url", server.jwksURL, "--vault", "file",
        ]
        if let secret {
            cli.remember(secret, as: "the app client secret")
            arguments.append("--client-secret-stdin")
        }
        let output = try await cli.run(arguments, stdin: secret.map { $0 + "\n" })
        guard output.status == 0 else {
            throw TestFixtureError("configure exited \(output.status): \(output.stderrText)")
        }
        return MachineProfile(server: server, cli: cli, client: client)
    }

    @Test func tokenNeedsNoLoginAndIsServedFromTheVaultUntilLogoutForgetsIt() async throws {
        let profile = try await Self.machineProfile()
        let cli = profile.cli
        let before = try await profile.grants()

        let first = try await cli.run(["token"])
        #expect(first.status == 0, "\(first.stderrText)")
        #expect(first.stderr.isEmpty, "\(first.stderrText)")
        let token = first.stdoutText.trimmingCharacters(in: .newlines)
        let claims = try #require(TestJWT.claims(of: token))
        #expect(claims["sub"] as? String == profile.clientId && claims["client_id"] as? String == profile.clientId)
        #expect(claims["scope"] as? String == OAuthServer.machineScope)
        #expect(try await profile.grants() == before + 1)

        let second = try await cli.run(["token"])
        expectSecret(first.stdoutText, equals: second.stdoutText, "the cached token")
        #expect(try await profile.grants() == before + 1, "served from the vault: no new request")

        let status = try await cli.run(["status"])
        #expect(status.status == 0, "\(status.stderrText)")
        #expect(status.stdoutText.contains("Sign-in:    machine (client credentials)"), "\(status.stdoutText)")
        #expect(status.stdoutText.contains("Access:     valid until"), "\(status.stdoutText)")

        let login = try await cli.run(["login"])
        #expect(login.status == 0, "\(login.stderrText)")
        #expect(login.stderrText.contains("no login is needed"), "\(login.stderrText)")
        #expect(try await profile.grants() == before + 2, "login fetches a token now")

        let logout = try await cli.run(["logout"])
        #expect(logout.status == 0, "\(logout.stderrText)")
        let record = try #require(try await cli.storedRecord(), "the client secret stays")
        #expect(record["accessToken"] == nil && record["clientSecret"] is String)
        let afterLogout = try await cli.run(["token"])
        #expect(afterLogout.status == 0, "\(afterLogout.stderrText)")
        #expect(try await profile.grants() == before + 3, "a new token after logout")
        cli.expectNoSecretLeaks()
    }

    /// In the mandatory window (30 s left of an hour) `token` fetches a new token before answering.
    @Test func aTokenNearExpiryIsFetchedAgain() async throws {
        let profile = try await Self.machineProfile()
        #expect(try await profile.cli.run(["token"]).status == 0)
        let aged = try await profile.cli.ageTokens(expiringIn: 30)
        let stub = try #require(aged["accessToken"] as? String)
        let before = try await profile.grants()

        let output = try await profile.cli.run(["token"])
        #expect(output.status == 0, "\(output.stderrText)")
        expectSecret(stub + "\n", differsFrom: output.stdoutText, "a new token, not the one about to expire")
        #expect(try await profile.grants() == before + 1)
        let stored = try #require(try await profile.cli.storedRecord())
        expectSecret(stored["accessToken"] as? String, equals: output.stdoutText.trimmingCharacters(in: .newlines))
        profile.cli.expectNoSecretLeaks()
    }

    /// A wrong secret: exit 1, the reason and the command that stores the secret, and no secret anywhere.
    /// No secret at all: the same remedy, and nothing is sent.
    @Test func aWrongOrMissingSecretSaysHowToStoreIt() async throws {
        let wrong = try await Self.machineProfile(secret: "not+the/secret=at:all%")
        let output = try await wrong.cli.run(["token"])
        #expect(output.status == 1, "\(output.stderrText)")
        #expect(output.stdout.isEmpty)
        #expect(output.stderrText.contains("invalid_client"), "\(output.stderrText)")
        #expect(
            output.stderrText.contains("authvault configure --profile default --client-secret-stdin"),
            "\(output.stderrText)")
        #expect(try await wrong.cli.storedRecord()?["accessToken"] == nil)
        wrong.cli.expectNoSecretLeaks()

        let missing = try await Self.machineProfile(secret: nil)
        let before = try await missing.grants()
        let unset = try await missing.cli.run(["token"])
        #expect(unset.status == 1, "\(unset.stderrText)")
        #expect(unset.stderrText.contains("no client secret"), "\(unset.stderrText)")
        #expect(
            unset.stderrText.contains("authvault configure --profile default --client-secret-stdin"),
            "\(unset.stderrText)")
        #expect(try await missing.grants() == before, "nothing sent without a secret")
    }

    @Test func aScopeTheServerDoesNotKnowIsNamed() async throws {
        let profile = try await Self.machineProfile(scopes: "authvault-api/missing")
        let output = try await profile.cli.run(["token"])
        #expect(output.status == 1, "\(output.stderrText)")
        #expect(output.stderrText.contains("invalid_scope"), "\(output.stderrText)")
        #expect(output.stderrText.contains("authvault-api/missing"), "\(output.stderrText)")
        #expect(output.stderrText.contains("authvault configure --profile default --scopes"), "\(output.stderrText)")
        profile.cli.expectNoSecretLeaks()
    }

    /// Six processes at once with nothing cached: one request, and every process prints that token.
    @Test func manyProcessesAtOnceShareOneFetch() async throws {
        let profile = try await Self.machineProfile()
        let before = try await profile.grants()
        let outputs = try await profile.cli.runConcurrently(6, ["token"])
        #expect(outputs.allSatisfy { $0.status == 0 }, "\(outputs.map(\.stderrText))")
        #expect(Set(outputs.map(\.stdoutText)).count == 1, "one token for all")
        #expect(try await profile.grants() == before + 1)
        profile.cli.expectNoSecretLeaks()
    }

    /// The agent fetches and serves the token; the helpers answer from it without the vault's passphrase.
    @Test func theAgentAndTheHelpersServeIt() async throws {
        let profile = try await Self.machineProfile()
        let cli = profile.cli
        let hosts = try await cli.run(["configure", "--helper-host", "git.example.com"])
        #expect(hosts.status == 0, "\(hosts.stderrText)")
        let before = try await profile.grants()
        let agent = try AgentProcess.start(cli.authvault, environment: cli.environment, log: cli.root + "/agent.log")
        defer { agent.kill() }
        try await agent.waitForSocket(cli.environment["XDG_RUNTIME_DIR"]! + "/authvault/agent.sock")

        // Without the passphrase the vault cannot be read here: every answer comes from the agent.
        let viaAgent = cli.environment.merging(["AUTHVAULT_VAULT_PASSPHRASE": ""]) { $1 }
        let token = try await cli.run(["token"], extraEnvironment: viaAgent)
        #expect(token.status == 0, "\(token.stderrText) \(agent.log)")
        let served = token.stdoutText.trimmingCharacters(in: .newlines)
        // The helpers print the token by design: run apart from the CLI's transcript, which the leak sweep reads.
        let git = try ProcessRunner.run(
            cli.authvault, ["git-credential", "get"], stdin: Data("protocol=https\nhost=git.example.com\n\n".utf8),
            environment: viaAgent)
        let gitAnswered = git.stdoutText.hasPrefix(
            "protocol=https\nhost=git.example.com\nusername=\(profile.clientId)\npassword=\(served)\n")
        #expect(git.status == 0 && gitAnswered, "\(git.stderrText)")
        let vault = try ProcessRunner.run(
            cli.authvault, ["vault-token-helper", "get"],
            environment: viaAgent.merging(["VAULT_ADDR": "https://git.example.com:8200"]) { $1 })
        let vaultAnswered = vault.stdoutText == served
        #expect(vault.status == 0 && vaultAnswered, "\(vault.stderrText)")
        // A machine profile has no ID token: kubectl gets the access token.
        let execInfo =
            #"{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","spec":{"interactive":false,"#
            + #""cluster":{"server":"https://git.example.com:6443"}}}"#
        let kubectl = try ProcessRunner.run(
            cli.authvault, ["kubectl-credential", "--token", "access"],
            environment: viaAgent.merging(["KUBERNETES_EXEC_INFO": execInfo]) { $1 })
        let kubectlAnswered = kubectl.stdoutText.contains(served)
        #expect(kubectl.status == 0 && kubectlAnswered, "\(kubectl.stderrText)")
        for helper in [git, vault, kubectl] { #expect(helper.stderr.isEmpty, "\(helper.stderrText)") }
        #expect(try await profile.grants() == before + 1, "one fetch, by the agent")
        cli.remember(served, as: "the machine token")
        #expect(!agent.log.contains(served))
        cli.expectNoSecretLeaks()
    }
}

/// An opaque token (a generic OAuth server's) lasts `expires_in`: the vault keeps that expiry, and the agent hands it
/// out with the token.
extension MachineSignInTests {
    @Test func anOpaqueTokenKeepsItsExpiryThroughTheAgent() async throws {
        let client = OAuthServer.opaqueMachineClient
        let profile = try await Self.machineProfile(client: client, secret: client.clientSecret)
        let cli = profile.cli
        let direct = try await cli.run(["token", "--format", "json"])
        #expect(direct.status == 0, "\(direct.stderrText)")
        let agent = try AgentProcess.start(cli.authvault, environment: cli.environment, log: cli.root + "/agent.log")
        defer { agent.kill() }
        try await agent.waitForSocket(cli.environment["XDG_RUNTIME_DIR"]! + "/authvault/agent.sock")
        let viaAgent = try await cli.run(
            ["token", "--format", "json"], extraEnvironment: ["AUTHVAULT_VAULT_PASSPHRASE": ""])
        #expect(viaAgent.status == 0, "\(viaAgent.stderrText)")
        let now = Date().timeIntervalSince1970
        for output in [direct, viaAgent] {
            let answer = (try? JSONSerialization.jsonObject(with: output.stdout)) as? [String: Any] ?? [:]
            let expiry = answer["expiresAtUnix"] as? Double ?? 0
            #expect(expiry > now + 3000 && expiry <= now + 3600, "DOT's tokens live an hour: \(expiry - now) s left")
            if let token = answer["token"] as? String { cli.remember(token, as: "the opaque machine token") }
        }
        #expect(try await profile.grants() == 1)
        cli.expectNoSecretLeaks()
    }
}

/// Examples/ci/ci-job.sh as a CI system runs it, against django-oauth-toolkit and an API that checks the token.
extension MachineSignInTests {
    @Test func theCIExampleCallsTheAPIWithTheMachineToken() async throws {
        let server = try await OAuthServer.shared()
        let cli = try HeadlessCLI()
        let client = OAuthServer.machineClient
        // The test server's issuer and keys are not the ones a user pool id implies: set them before the job runs.
        let prepared = try await cli.run([
            "--profile", "ci", "configure", "--user-pool-id", "us-east-1_Machine", "--client-id", client.clientId,
            "--hosted-ui", server.baseURL, "--grant", "client-credentials",
            "--issuer", server.issuer, "--jwks-url", server.jwksURL, "--vault", "file",
        ])
        #expect(prepared.status == 0, "\(prepared.stderrText)")
        let logs = try TemporaryDirectory(prefix: "machine-ci")
        let api = try await ScriptServer.start(
            script: "bearer_api_server.py",
            arguments: [
                "--jwks-url", server.jwksURL, "--issuer", server.issuer, "--client-id", client.clientId, "--token-use",
                "access",
                "--log", logs.appending("attempts.jsonl"),
            ])
        let secret = try #require(client.clientSecret)
        let variables = [
            "AUTHVAULT": cli.authvault, "CI_CLIENT_SECRET": secret, "CI_USER_POOL_ID": "us-east-1_Machine",
            "CI_CLIENT_ID": client.clientId, "CI_HOSTED_UI": server.baseURL, "CI_SCOPES": OAuthServer.machineScope,
            "API_URL": api.baseURL + "/whoami",
        ]
        let environment = cli.environment.merging(variables) { $1 }.merging([
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        ]) { $1 }
        let output = try await OffPool.run {
            try ProcessRunner.run(
                "/bin/sh", [PackageFiles.path("Examples/ci/ci-job.sh")], environment: environment, timeout: 60)
        }
        let text = output.stdoutText + output.stderrText
        #expect(output.status == 0, "\(text)")
        #expect(text.contains(#""tokenUse": "access""#), "the API accepted the token: \(text)")
        #expect(text.contains("Sign-in:    machine (client credentials)"), "\(text)")
        expectNoSecrets(in: text, ["eyJ"], "no token (a JWT starts with eyJ) is printed")
        #expect(
            SecretScan.names(
                of: [secret: "the client secret", HeadlessCLI.vaultPassphrase: "the vault passphrase"], in: [output]
            ).isEmpty)
    }
}
