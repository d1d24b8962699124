import Foundation
import TestSupport
import Testing

/// Issue 10 item 2, through the built binary: a token goes only over https, to a host (and port, when the entry
/// names one) that a profile lists with `configure --helper-host`, for every helper protocol. A profile named in
/// $AUTHVAULT_PROFILE chooses among the listing profiles and never widens them. The profile lists
/// `git.example.com` (any port) and `registry.example.com:5000`.
extension HelperProtocolTests {
    static let named = ["AUTHVAULT_PROFILE": "default"]

    @Test func gitGetsATokenOnlyForListedHttpsHostsAndPorts() async throws {
        let session = try await signedIn()
        func ask(_ request: String, _ environment: [String: String] = HelperProtocolTests.named) throws -> ProcessOutput
        {
            let output = try run(
                session.cli, ["git-credential", "get"], stdin: request + "\n", environment: environment)
            expectNoSecrets(in: output.stderrText, [session.accessToken], "stderr")
            return output
        }
        for listed in [
            "protocol=https\nhost=git.example.com\n", "protocol=https\nhost=GIT.Example.com.\n",
            "protocol=https\nhost=git.example.com:8443\n", "protocol=https\nhost=registry.example.com:5000\n",
        ] {
            let answer = try ask(listed)
            #expect(answer.status == 0)
            expectSecret("password=\(session.accessToken)\n", in: answer.stdoutText, "\(listed)")
        }
        for refused in [
            "protocol=https\nhost=github.com\n", "protocol=http\nhost=git.example.com\n",
            "protocol=HTTP\nhost=registry.example.com:5000\n", "host=git.example.com\n",
            "protocol=https\nhost=registry.example.com:5001\n", "protocol=https\nhost=registry.example.com\n",
            "protocol=https\nhost=git.example.com.evil.example\n", "protocol=https\nhost=user@git.example.com\n",
        ] {
            let answer = try ask(refused)
            #expect(answer.status == 0, "git moves on to its other helpers")
            #expect(answer.stdout.isEmpty, "\(refused)")
        }
        #expect(
            try ask("protocol=http\nhost=git.example.com\n", [:]).stdout.isEmpty,
            "http gets nothing without a profile named too")
    }

    @Test func aNamedProfileChoosesOnlyAmongTheListingProfiles() async throws {
        let session = try await signedIn()
        let other = try await session.cli.run([
            "--profile", "other", "configure", "--user-pool-id", "us-east-1_Other1",
            "--client-id", "other", "--vault", "file",
        ])
        #expect(other.status == 0, "\(other.stderrText)")
        let request = "protocol=https\nhost=git.example.com\n\n"
        let unlisted = try run(
            session.cli, ["git-credential", "get"], stdin: request, environment: ["AUTHVAULT_PROFILE": "other"])
        #expect(unlisted.status == 0)
        #expect(unlisted.stdout.isEmpty, "'other' lists no host: default's token must not answer for it")
        let viaFlag = try run(session.cli, ["git-credential", "get", "--profile", "other"], stdin: request)
        #expect(viaFlag.stdout.isEmpty)

        #expect(
            try await session.cli.run(["--profile", "other", "configure", "--helper-host", "git.example.com"]).status
                == 0)
        let chosen = try run(
            session.cli, ["git-credential", "get"], stdin: request, environment: ["AUTHVAULT_PROFILE": "other"])
        #expect(chosen.status == 3, "now 'other' answers, and it is not signed in")
        #expect(chosen.stderrText.contains("authvault login --profile other"))
        expectNoSecrets(in: chosen.stdoutText, [session.accessToken], "stdout")
    }

    /// With no profile named, the current one (`profiles use`, else "default") answers for a host it lists before
    /// another listing profile that sorts first.
    @Test func theCurrentProfileAnswersBeforeOtherListingProfiles() async throws {
        let session = try await signedIn()
        let first = try await session.cli.run([
            "--profile", "aaa", "configure", "--user-pool-id", "us-east-1_Other1",
            "--client-id", "other", "--vault", "file", "--helper-host", "git.example.com",
        ])
        #expect(first.status == 0, "\(first.stderrText)")
        let request = "protocol=https\nhost=git.example.com\n\n"
        let byDefault = try run(session.cli, ["git-credential", "get"], stdin: request)
        #expect(byDefault.status == 0, "\(byDefault.stderrText)")
        expectSecret(
            "password=\(session.accessToken)\n", in: byDefault.stdoutText, "'default' lists the host and is current")

        #expect(try await session.cli.run(["profiles", "use", "aaa"]).status == 0)
        let chosen = try run(session.cli, ["git-credential", "get"], stdin: request)
        #expect(chosen.status == 3, "'aaa' is current now, and it is not signed in")
        #expect(chosen.stderrText.contains("authvault login --profile aaa"), "\(chosen.stderrText)")
        expectNoSecrets(in: chosen.stdoutText, [session.accessToken])
        let docker = try run(session.cli, ["docker-credential", "get"], stdin: "git.example.com\n")
        #expect(docker.status != 0)
        expectNoSecrets(in: docker.stdoutText, [session.accessToken], "docker follows the same choice")
    }

    @Test func dockerGetsATokenOnlyForListedHttpsRegistries() async throws {
        let session = try await signedIn()
        for listed in [
            "registry.example.com:5000", "https://registry.example.com:5000/v2/", "Registry.Example.com:5000",
        ] {
            let get = try run(session.cli, ["docker-credential", "get"], stdin: listed + "\n", environment: Self.named)
            #expect(get.status == 0, "\(listed): \(get.stderrText)")
            expectSecret(session.accessToken, in: get.stdoutText, "\(listed)")
        }
        for refused in [
            "http://registry.example.com:5000", "registry.example.com:5001", "registry.example.com",
            "https://quay.io", "https://registry.example.com@evil.example:5000",
        ] {
            let get = try run(
                session.cli, ["docker-credential", "get"], stdin: refused + "\n", environment: Self.named)
            #expect(get.status == 1)
            #expect(get.stdoutText == "credentials not found in native keychain\n", "\(refused)")
            expectNoSecrets(in: get.stderrText, [session.accessToken], "stderr for \(refused)")
        }
    }

    /// kubectl names the cluster's server only with provideClusterInfo: true; then the same rule applies.
    @Test func kubectlChecksTheClusterServerWhenKubectlNamesIt() async throws {
        let session = try await signedIn()
        func info(_ server: String) -> [String: String] {
            [
                "KUBERNETES_EXEC_INFO":
                    #"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","spec":{"interactive":false,"#
                    + #""cluster":{"server":"\#(server)","certificate-authority-data":"AA=="}}}"#
            ]
        }
        let listed = try run(session.cli, ["kubectl-credential"], environment: info("https://git.example.com:6443"))
        #expect(listed.status == 0, "\(listed.stderrText)")
        expectSecret(session.idToken, in: listed.stdoutText)
        for refused in [
            "http://git.example.com:6443", "https://kube.example.com", "https://127.0.0.1:6443", "git.example.com:6443",
        ] {
            let output = try run(session.cli, ["kubectl-credential"], environment: info(refused))
            #expect(output.status == 1, "\(refused)")
            #expect(output.stdout.isEmpty)
            expectNoSecrets(in: output.stderrText, [session.idToken], "stderr for \(refused)")
        }
        let unknown = try run(session.cli, ["kubectl-credential"], environment: info("https://kube.example.com"))
        #expect(
            unknown.stderrText.contains("authvault configure --profile default --helper-host kube.example.com"),
            "\(unknown.stderrText)")
    }

    /// Vault's CLI sets VAULT_ADDR to the server it is about to call.
    @Test func vaultTokenHelperChecksVaultAddr() async throws {
        let session = try await signedIn()
        let listed = try run(
            session.cli, ["vault-token-helper", "get"], environment: ["VAULT_ADDR": "https://git.example.com:8200"])
        expectSecret(session.accessToken, equals: listed.stdoutText)
        for refused in ["http://git.example.com:8200", "https://vault.example.com:8200", "http://127.0.0.1:8200"] {
            let output = try run(session.cli, ["vault-token-helper", "get"], environment: ["VAULT_ADDR": refused])
            #expect(output.status == 1, "\(refused)")
            #expect(output.stdout.isEmpty)
            expectNoSecrets(in: output.stderrText, [session.accessToken], "stderr for \(refused)")
        }
    }

    /// Issue 31: a helper told nothing about the target decides all the same. kubectl without cluster info (no
    /// provideClusterInfo) gets no token, and is told what to change; the vault CLI without VAULT_ADDR calls its
    /// default https://127.0.0.1:8200, which is checked like any other address.
    @Test func aHelperToldNothingAboutTheTargetHandsOutNoTokenUnchecked() async throws {
        let session = try await signedIn()
        for info in [nil, #"{"apiVersion":"client.authentication.k8s.io/v1beta1","spec":{"interactive":false}}"#] {
            let output = try run(
                session.cli, ["kubectl-credential"], environment: info.map { ["KUBERNETES_EXEC_INFO": $0] } ?? [:])
            #expect(output.status == 1 && output.stdout.isEmpty, "\(output.status) \(output.stderrText)")
            #expect(
                output.stderrText.contains("provideClusterInfo: true")
                    && output.stderrText.contains("authvault setup kubectl --profile default"),
                "\(output.stderrText)")
            expectNoSecrets(in: output.stderrText, [session.idToken], "stderr")
        }
        for unset in [[:], ["VAULT_ADDR": ""]] {
            let output = try run(session.cli, ["vault-token-helper", "get"], environment: unset)
            #expect(output.status == 1 && output.stdout.isEmpty, "\(output.status) \(output.stderrText)")
            #expect(
                output.stderrText.contains("https://127.0.0.1:8200")
                    && output.stderrText.contains("--helper-host 127.0.0.1:8200"), "\(output.stderrText)")
            expectNoSecrets(in: output.stderrText, [session.accessToken], "stderr")
        }
        #expect(try await session.cli.run(["configure", "--helper-host", "127.0.0.1:8200"]).status == 0)
        expectSecret(
            session.accessToken, equals: try run(session.cli, ["vault-token-helper", "get"]).stdoutText,
            "the default address is listed now")
    }
}
