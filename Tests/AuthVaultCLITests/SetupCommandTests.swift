import Foundation
import TestSupport
import Testing

@testable import AuthVaultCLI

/// `authvault setup TOOL` through the built binary (so the path it writes is the binary's own), read back by the
/// real tools: git asks the helper it wrote, kubectl runs the exec plugin, the AWS CLI runs credential_process;
/// each of them reaching authvault, which, with no session, names the sign-in to run. `--dry-run` writes nothing,
/// the second run changes nothing, and the output names the undo.
@Suite struct SetupCommandTests {
    @Test func gitDryRunThenSetupThenGitAsksAuthvault() async throws {
        let home = try SetupHome()
        let dryRun = try await home.authvault(["setup", "git", "--host", "git.example.com", "--dry-run"])
        #expect(dryRun.status == 0, "\(dryRun.stderrText)")
        #expect(dryRun.stdoutText.contains("Would change \(home.path(".gitconfig")):"), "\(dryRun.stdoutText)")
        #expect(
            dryRun.stdoutText.contains("Undo with: authvault --profile default setup git --host git.example.com --undo")
        )
        #expect(dryRun.stdoutText.contains("Dry run: nothing was written."))
        #expect(!FileManager.default.fileExists(atPath: home.path(".gitconfig")), "a dry run writes nothing")
        #expect(
            try !String(contentsOfFile: home.path("config/authvault/config.json"), encoding: .utf8).contains(
                "git.example.com"))

        let first = try await home.authvault(["setup", "git", "--host", "git.example.com"])
        #expect(first.status == 0, "\(first.stderrText)")
        #expect(
            first.stdoutText.contains("helper hosts of profile 'default': add git.example.com"), "\(first.stdoutText)")
        let second = try await home.authvault(["setup", "git", "--host", "git.example.com"])
        #expect(second.stdoutText.hasPrefix("git is already set up for profile 'default'"), "\(second.stdoutText)")
        #expect(second.stdoutText.contains("Undo with:"))

        // git runs the helper it was given: with no session, authvault names the login, and git gets no password.
        let fill = try await BoundedProcess.run(
            "/usr/bin/git", ["credential", "fill"],
            stdin: Data("protocol=https\nhost=git.example.com\n\n".utf8), environment: home.environment)
        #expect(fill.status != 0)
        #expect(fill.stderrText.contains("authvault login --profile default"), "\(fill.stderrText)")
        #expect(!fill.stdoutText.contains("password="))
    }

    @Test func kubectlRunsTheExecPluginItWasGiven() async throws {
        let home = try SetupHome()
        try home.write(SetupHome.kubeconfig, to: ".kube/config")
        let dryRun = try await home.authvault(["setup", "kubectl", "--context", "prod", "--dry-run"])
        #expect(dryRun.status == 0, "\(dryRun.stderrText)")
        #expect(dryRun.stdoutText.contains("context prod: user authvault-default"), "\(dryRun.stdoutText)")
        #expect(try home.text(".kube/config") == SetupHome.kubeconfig, "a dry run writes nothing")
        let setup = try await home.authvault(["setup", "kubectl", "--context", "prod"])
        #expect(setup.status == 0, "\(setup.stderrText)")
        #expect(
            setup.stdoutText.contains("helper hosts of profile 'default': add 127.0.0.1:9"),
            "the context's server: \(setup.stdoutText)")
        #expect(
            setup.stdoutText.contains("Undo with: authvault --profile default setup kubectl --context prod --undo"),
            "\(setup.stdoutText)")
        let written = try home.text(".kube/config")
        #expect(
            try await home.authvault(["setup", "kubectl", "--context", "prod"]).stdoutText.contains("already set up"))
        #expect(try home.text(".kube/config") == written, "the second run leaves the same bytes")
        try await home.expectKubectlRunsThePlugin()
    }

    /// A kubeconfig set up before kubectl is installed: Debian's kubectl, installed later, runs the plugin.
    @Test func kubectlSetupNeedsNoKubectl() async throws {
        let home = try SetupHome()
        var noKubectl = home.environment
        noKubectl["PATH"] = home.path("no-tools")
        try FileManager.default.createDirectory(atPath: home.path("no-tools"), withIntermediateDirectories: true)
        let setup = try await BoundedProcess.run(home.authvaultPath, ["setup", "kubectl"], environment: noKubectl)
        #expect(setup.status == 0, "\(setup.stderrText)")
        #expect(
            try await BoundedProcess.run(home.authvaultPath, ["setup", "kubectl"], environment: noKubectl).stdoutText
                .contains("already set up"))
        let clusters = try await BoundedProcess.run(
            SetupHome.kubectl, ["config", "set-cluster", "prod", "--server=https://127.0.0.1:9"],
            environment: home.environment)
        let context = try await BoundedProcess.run(
            SetupHome.kubectl, ["config", "set-context", "prod", "--cluster=prod", "--user=authvault-default"],
            environment: home.environment)
        let use = try await BoundedProcess.run(
            SetupHome.kubectl, ["config", "use-context", "prod"], environment: home.environment)
        for step in [clusters, context, use] { #expect(step.status == 0, "\(step.stderrText)") }
        // Without --context no server was listed: the plugin, told the server, hands out nothing until it is.
        let unlisted = try await BoundedProcess.run(
            SetupHome.kubectl, ["get", "namespaces"], environment: home.environment, timeout: 30)
        #expect(
            unlisted.status != 0 && unlisted.stderrText.contains("--helper-host 127.0.0.1:9"), "\(unlisted.stderrText)")
        #expect(try await home.authvault(["configure", "--helper-host", "127.0.0.1:9"]).status == 0)
        try await home.expectKubectlRunsThePlugin()
    }

    /// Issue 33 item 7: a profile without an identity pool gives the AWS CLI nothing: refused before any file is
    /// touched, naming the configure command that gives it one.
    @Test func awsWithoutAnIdentityPoolIsRefusedNamingTheConfigureCommand() async throws {
        let home = try SetupHome()
        try home.write(
            #"{"version":1,"profiles":{"default":{"userPoolId":"us-east-1_Setup1","clientId":"setup","vault":"file"}}}"#,
            to: "config/authvault/config.json")
        let setup = try await home.authvault(["setup", "aws", "--aws-profile", "work"])
        #expect(setup.status == 2, "\(setup.stderrText)")
        #expect(
            setup.stderrText.contains("'authvault configure --profile default --identity-pool-id ID'"),
            "\(setup.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: home.path(".aws")))
    }

    @Test func theAWSCLIRunsTheCredentialProcessItWasGiven() async throws {
        let home = try SetupHome()
        try home.write("[default]\nregion = us-east-1\n", to: ".aws/config")
        let setup = try await home.authvault(["setup", "aws", "--aws-profile", "work"])
        #expect(setup.status == 0, "\(setup.stderrText)")
        #expect(setup.stdoutText.contains("Undo with: authvault --profile default setup aws --aws-profile work --undo"))
        let aws = try await BoundedProcess.run(
            PackageFiles.path(".venv/bin/aws"), ["sts", "get-caller-identity", "--profile", "work"],
            environment: home.environment, timeout: 60)
        #expect(aws.status != 0)
        #expect(
            aws.stderrText.contains("authvault login --profile default"),
            "botocore ran credential_process: \(aws.stderrText)")

        let undo = try await home.authvault(["setup", "aws", "--aws-profile", "work", "--undo"])
        #expect(undo.status == 0, "\(undo.stderrText)")
        #expect(
            try String(contentsOfFile: home.path(".aws/config"), encoding: .utf8) == "[default]\nregion = us-east-1\n",
            "no empty [profile work] left")
    }

    @Test func dockerGetsItsHelperAndTheProfileTheHost() async throws {
        let home = try SetupHome()
        let setup = try await home.authvault(["setup", "docker", "--registry", "registry.example.com:5000"])
        #expect(setup.status == 0, "\(setup.stderrText)")
        let config =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: home.path(".docker/config.json")))) as? [String: Any]
        #expect(config?["credHelpers"] as? [String: String] == ["registry.example.com:5000": "authvault"])
        let answer = try await BoundedProcess.run(
            home.authvaultPath, ["docker-credential", "get"],
            stdin: Data("registry.example.com:5000".utf8), environment: home.environment)
        #expect(
            answer.stderrText.contains("authvault login --profile default")
                || answer.stdoutText.contains("authvault login --profile default"),
            "the registry is the profile's now: \(answer.stdoutText) \(answer.stderrText)")
    }

    @Test func aMissingToolOrContextSaysWhatToDo() async throws {
        let home = try SetupHome()
        let context = try await home.authvault(["setup", "kubectl", "--context", "nowhere"])
        #expect(context.status == 2)
        #expect(context.stderrText.contains("Name one with --context."), "\(context.stderrText)")
        let missing = try await home.authvault(["setup", "git"])
        #expect(missing.status == 2)
        #expect(missing.stderrText.contains("--host is required"))
    }

    /// Issue 26 item 3: `--helper-host` adds, `--remove-helper-host` removes, `--helper-host ''` clears.
    @Test func configureAddsRemovesAndClearsHelperHosts() async throws {
        let cli = try CLIHarness()
        #expect(
            await cli.run(
                "configure", "--user-pool-id", "us-east-1_Hosts1", "--client-id", "c", "--vault", "file",
                "--helper-host", "git.example.com"
            ).status == .success)
        #expect(await cli.run("configure", "--helper-host", "registry.example.com:5000").status == .success)
        let both = try cli.configText()
        #expect(
            both.contains("git.example.com") && both.contains("registry.example.com:5000"), "the second host is added")
        #expect(await cli.run("configure", "--remove-helper-host", "git.example.com").status == .success)
        #expect(try !cli.configText().contains("git.example.com"))
        #expect(try cli.configText().contains("registry.example.com:5000"))
        let unlisted = await cli.run("configure", "--remove-helper-host", "git.example.com")
        #expect(unlisted.status == .usage)
        #expect(await cli.run("configure", "--helper-host", "").status == .success)
        #expect(try !cli.configText().contains("helperHosts"))
        #expect(await cli.run("configure", "--help").stdout.contains("--remove-helper-host"))
    }
}

/// An isolated home with the `default` profile (no session), the built binary, and the tools on PATH, Debian's
/// kubectl 1.20 first (the one Debian 12's users have: no other kubectl is run).
struct SetupHome {
    static let kubectl = PackageFiles.path(".build/debian-tools/usr/bin/kubectl")
    static let kubeconfig = """
        apiVersion: v1
        kind: Config
        clusters:
        - name: prod
          cluster:
            server: https://127.0.0.1:9
        contexts:
        - name: prod
          context:
            cluster: prod
        current-context: prod

        """

    let home: TemporaryDirectory
    let environment: [String: String]
    let authvaultPath = BuiltProducts.executable("authvault")

    init() throws {
        home = try TemporaryDirectory(prefix: "setup-e2e")
        environment = [
            "HOME": home.path, "XDG_CONFIG_HOME": home.appending("config"), "XDG_DATA_HOME": home.appending("data"),
            "XDG_RUNTIME_DIR": home.appending("run"), "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0",
            "AUTHVAULT_VAULT_PASSPHRASE": "setup test passphrase", "AUTHVAULT_KEY_CACHE_TIMEOUT": "0",
            "PATH": PackageFiles.path(".build/debian-tools/usr/bin") + ":/usr/bin:/bin:"
                + PackageFiles.path(".venv/bin"),
        ]
        try FileManager.default.createDirectory(
            atPath: home.appending("run"), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        try write(
            #"{"version":1,"profiles":{"default":{"userPoolId":"us-east-1_Setup1","clientId":"setup","vault":"file","identityPoolId":"us-east-1:0c8e1f6a-2b3c-4d5e-8f90-a1b2c3d4e5f6"}}}"#,
            to: "config/authvault/config.json")
    }

    func path(_ relative: String) -> String { home.appending(relative) }

    func write(_ text: String, to relative: String) throws {
        let path = home.appending(relative)
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        _ = FileManager.default.createFile(
            atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
    }

    func text(_ relative: String) throws -> String {
        try String(contentsOfFile: path(relative), encoding: .utf8)
    }

    /// kubectl runs the exec plugin: with no session, authvault names the login.
    func expectKubectlRunsThePlugin() async throws {
        let run = try await BoundedProcess.run(
            Self.kubectl, ["get", "namespaces"], environment: environment, timeout: 30)
        #expect(run.status != 0)
        #expect(
            run.stderrText.contains("authvault login --profile default"), "kubectl ran the plugin: \(run.stderrText)")
    }

    func authvault(_ arguments: [String]) async throws -> ProcessOutput {
        try await BoundedProcess.run(authvaultPath, arguments, environment: environment)
    }
}
