import Foundation
import TestSupport
import Testing

/// The token helpers byte for byte, as git, docker, kubectl and Vault's CLI drive them: the built binary against
/// moto, on a signed-in headless profile. (The real git and kubectl drive them in their own tests.)
@Suite struct HelperProtocolTests {
    static let password = "Correct-Horse-9!"

    struct SignedIn {
        let cli: HeadlessCLI
        let accessToken: String
        let idToken: String
        let expiry: Int
    }

    func signedIn() async throws -> SignedIn {
        let pool = try await CognitoPool.make()
        try await pool.createUser("alice", password: Self.password)
        let cli = try HeadlessCLI()
        try await cli.configure(pool)
        let hosts = try await cli.run([
            "configure", "--helper-host", "git.example.com", "--helper-host", "registry.example.com:5000",
        ])
        #expect(hosts.status == 0, "\(hosts.stderrText)")
        #expect(try await cli.login("alice", lines: [Self.password]).status == 0)
        let record = try #require(try await cli.storedRecord())
        return SignedIn(
            cli: cli, accessToken: record["accessToken"] as! String, idToken: record["idToken"] as! String,
            expiry: Int(record["accessTokenExpiresAt"] as? Double ?? 0))
    }

    func run(
        _ cli: HeadlessCLI, _ arguments: [String], stdin: String? = nil, environment extra: [String: String] = [:],
        executable: String? = nil
    ) throws -> ProcessOutput {
        try ProcessRunner.run(
            executable ?? cli.authvault, arguments, stdin: stdin.map { Data($0.utf8) },
            environment: cli.environment.merging(extra) { $1 })
    }

    @Test func gitCredentialGetAnswersForListedHostsOnly() async throws {
        let session = try await signedIn()
        let answer = try run(
            session.cli, ["git-credential", "get"],
            stdin: "protocol=https\nhost=git.example.com\npath=team/repo.git\n\n")
        #expect(answer.status == 0)
        expectSecret(
            "protocol=https\nhost=git.example.com\nusername=alice\npassword=\(session.accessToken)\n"
                + "password_expiry_utc=\(session.expiry)\n\n", equals: answer.stdoutText)
        expectNoSecrets(in: answer.stderrText, [session.accessToken], "stderr")

        let bearer = try run(
            session.cli, ["git-credential", "get"],
            stdin: "capability[]=authtype\nprotocol=https\nhost=git.example.com\n\n")
        expectSecret("authtype=Bearer\ncredential=\(session.accessToken)\nephemeral=true\n", in: bearer.stdoutText)
        #expect(!bearer.stdoutText.contains("password="))

        let stranger = try run(session.cli, ["git-credential", "get"], stdin: "protocol=https\nhost=github.com\n\n")
        #expect(stranger.status == 0)
        #expect(stranger.stdout.isEmpty)

        // Run under the name git looks for, through a link.
        let link = session.cli.root + "/git-credential-authvault"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: session.cli.authvault)
        let linked = try run(session.cli, ["get"], stdin: "protocol=https\nhost=git.example.com\n\n", executable: link)
        expectSecret(answer.stdoutText, equals: linked.stdoutText, "the answer through the link")
    }

    @Test func gitStoreAndEraseNeverSignOut() async throws {
        let session = try await signedIn()
        let before = session.cli.recordBytes
        for operation in ["store", "erase"] {
            let output = try run(
                session.cli, ["git-credential", operation],
                stdin: "protocol=https\nhost=git.example.com\nusername=alice\npassword=\(session.accessToken)\n\n")
            #expect(output.status == 0)
            #expect(output.stdout.isEmpty)
        }
        #expect(session.cli.recordBytes == before)
        expectSecret(session.accessToken + "\n", equals: try run(session.cli, ["token"]).stdoutText)
    }

    @Test func gitWithoutASessionFailsWithTheCommandToRun() async throws {
        let session = try await signedIn()
        _ = try await session.cli.run(["logout"])
        let output = try run(
            session.cli, ["git-credential", "get"], stdin: "protocol=https\nhost=git.example.com\n\n",
            environment: ["GIT_TERMINAL_PROMPT": "0"])
        #expect(output.status == 3)
        #expect(output.stdout.isEmpty)
        #expect(output.stderrText.contains("authvault login --profile default"))
    }

    @Test func dockerCredentialHelper() async throws {
        let session = try await signedIn()
        let get = try run(session.cli, ["docker-credential", "get"], stdin: "https://registry.example.com:5000\n")
        #expect(get.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: get.stdout) as? [String: String])
        #expect(
            object.filter { $0.key != "Secret" } == [
                "ServerURL": "https://registry.example.com:5000", "Username": "alice",
            ])
        expectSecret(session.accessToken, equals: object["Secret"], "the Secret field")

        let unknown = try run(session.cli, ["docker-credential", "get"], stdin: "https://quay.io\n")
        #expect(unknown.status == 1)
        #expect(unknown.stdoutText == "credentials not found in native keychain\n")

        let list = try run(session.cli, ["docker-credential", "list"])
        #expect(
            try JSONSerialization.jsonObject(with: list.stdout) as? [String: String]
                == ["git.example.com": "default", "registry.example.com:5000": "default"])
        #expect(
            try run(
                session.cli, ["docker-credential", "store"], stdin: #"{"ServerURL":"x","Username":"u","Secret":"s"}"#
            ).status == 0)
        #expect(
            try run(session.cli, ["docker-credential", "erase"], stdin: "https://registry.example.com:5000\n").status
                == 0)
        #expect(try run(session.cli, ["docker-credential", "version"]).stdoutText.hasPrefix("authvault "))
        #expect(try run(session.cli, ["token"]).status == 0)
    }

    @Test(arguments: ["client.authentication.k8s.io/v1beta1", "client.authentication.k8s.io/v1"])
    func kubectlExecCredentialEchoesTheApiVersion(apiVersion: String) async throws {
        let session = try await signedIn()
        let info =
            #"{"apiVersion":"\#(apiVersion)","kind":"ExecCredential","spec":{"interactive":false,"cluster":{"server":"https://git.example.com:6443"}}}"#
        let output = try run(session.cli, ["kubectl-credential"], environment: ["KUBERNETES_EXEC_INFO": info])
        #expect(output.status == 0, "\(output.stderrText)")
        let object = try #require(try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any])
        #expect(object["apiVersion"] as? String == apiVersion)
        #expect(object["kind"] as? String == "ExecCredential")
        let status = try #require(object["status"] as? [String: String])
        expectSecret(session.idToken, equals: status["token"], "status.token")
        let expiry = try #require(status["expirationTimestamp"])
        #expect(ISO8601DateFormatter().date(from: expiry) != nil)

        let access = try run(
            session.cli, ["kubectl-credential", "--token", "access"], environment: ["KUBERNETES_EXEC_INFO": info])
        expectSecret(session.accessToken, in: access.stdoutText)
    }

    @Test func kubectlNonInteractiveWithoutASessionFailsFast() async throws {
        let session = try await signedIn()
        _ = try await session.cli.run(["logout"])
        let started = Date()
        let output = try run(
            session.cli, ["kubectl-credential"],
            environment: [
                "KUBERNETES_EXEC_INFO":
                    #"{"apiVersion":"client.authentication.k8s.io/v1beta1","spec":{"interactive":false,"#
                    + #""cluster":{"server":"https://git.example.com:6443"}}}"#
            ])
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(output.status == 3)
        #expect(output.stdout.isEmpty)
        #expect(output.stderrText.contains("Run 'authvault login --profile default' in a terminal"))
    }

    @Test func vaultTokenHelperAndExec() async throws {
        let session = try await signedIn()
        let vaultAddress = ["VAULT_ADDR": "https://git.example.com:8200"]
        expectSecret(
            session.accessToken,
            equals: try run(session.cli, ["vault-token-helper", "get"], environment: vaultAddress).stdoutText)
        #expect(try run(session.cli, ["vault-token-helper", "store"], stdin: "hvs.something").status == 0)
        #expect(try run(session.cli, ["vault-token-helper", "erase"]).status == 0)
        #expect(try run(session.cli, ["token"]).status == 0)

        let exec = try run(
            session.cli, ["exec", "--env", "API_TOKEN", "--", "/bin/sh", "-c", #"printf %s "$API_TOKEN""#])
        #expect(exec.status == 0)
        expectSecret(session.accessToken, equals: exec.stdoutText, "API_TOKEN as the child printed it")
        let status = try run(session.cli, ["exec", "--", "/bin/sh", "-c", "exit 7"])
        #expect(status.status == 7)
        #expect(try run(session.cli, ["exec"]).status == 2)
        #expect(try run(session.cli, ["exec", "--env", "1BAD", "--", "true"]).status == 2)
        // No other command puts a token in a child's environment: the helpers spawn nothing.
    }
}
