import Foundation
import TestSupport
import Testing

/// Debian's kubectl 1.20 (`ExampleKubeconfig`) with the kubeconfig of Examples/kubectl/kubeconfig.yaml, its exec
/// plugin `authvault kubectl-credential` found on PATH, against a minimal Kubernetes API over HTTPS (a CA the test
/// makes) that lets in only a valid Cognito ID token as `Authorization: Bearer`, checked by the server itself
/// against moto's JWKS, the way Kubernetes' OIDC authenticator checks it.
@Suite struct KubectlTests {
    @Test func kubectlSendsTheProfilesTokenAndListsNamespaces() async throws {
        let kube = try await KubectlSetup.make()
        let cli = kube.profile.cli
        let idToken = try #require(try await cli.storedRecord()?["idToken"] as? String)
        let jti = try #require(TestJWT.claims(of: idToken)?["jti"] as? String)

        let run = try await kube.kubectl(["get", "namespaces", "-o", "name"])
        #expect(run.output.status == 0, "\(run.output.stderrText)")
        #expect(run.output.stdoutText == "namespace/authvault-e2e\n")
        let attempts = try kube.server.attempts()
        // Discovery (/api, /apis, /api/v1), then the list: every request with the stored ID token, none without.
        #expect(attempts.map(\.path).contains("/api/v1/namespaces"), "\(attempts.map(\.path))")
        #expect(
            attempts.allSatisfy { $0.accepted && $0.status == 200 }, "\(attempts.map { "\($0.path) \($0.reason)" })")
        #expect(attempts.allSatisfy { $0.jti == jti && $0.tokenUse == "id" }, "the profile's current ID token")
        #expect(SecretScan.names(of: cli.knownSecrets, in: [run.output]).isEmpty, "kubectl printed no secret")
        cli.expectNoSecretLeaks()
    }

    @Test func withoutASessionKubectlFailsAtOnceNamingTheLogin() async throws {
        let kube = try await KubectlSetup.make()
        let cli = kube.profile.cli
        // moto has no RevokeToken, so logout reports that remote step; the local sign-out stands.
        _ = try await cli.run(["logout"])
        #expect(try await cli.storedRecord()?["refreshToken"] == nil, "signed out on this machine")

        let run = try await kube.kubectl(["get", "namespaces", "-o", "name"])
        #expect(run.output.status != 0)
        #expect(run.seconds < 15, "kubectl gave up in \(Int(run.seconds)) s")
        #expect(run.output.stdout.isEmpty)
        #expect(run.output.stderrText.contains("authvault login --profile default"), "\(run.output.stderrText)")
        #expect(try kube.server.attempts().allSatisfy { !$0.accepted }, "no request got in")
        #expect(SecretScan.names(of: cli.knownSecrets, in: [run.output]).isEmpty, "kubectl printed no secret")
        cli.expectNoSecretLeaks()
    }

    /// The example sets provideClusterInfo, so kubectl names its server: the same server under a name the profile
    /// does not list (`localhost`, which its certificate also covers) gets no token.
    @Test func aServerTheProfileDoesNotListGetsNoToken() async throws {
        let kube = try await KubectlSetup.make()
        let cli = kube.profile.cli
        let run = try await kube.kubectl([
            "get", "namespaces", "-o", "name",
            "--server", "https://localhost:\(kube.server.port)",
        ])
        #expect(run.output.status != 0)
        #expect(
            run.output.stderrText.contains("--helper-host localhost:\(kube.server.port)"), "\(run.output.stderrText)")
        #expect(try kube.server.attempts().allSatisfy { !$0.accepted }, "no token got in")
        #expect(SecretScan.names(of: cli.knownSecrets, in: [run.output]).isEmpty, "kubectl printed no secret")
        cli.expectNoSecretLeaks()
    }
}

extension KubectlTests {
    /// Issue 31 item 1: `setup kubectl --context a` lists a's server only. Pointed at that user, a context whose
    /// cluster is another https server (b, on another port, also TLS) gets nothing: kubectl names b to the plugin
    /// (provideClusterInfo), and b sees no token at all.
    @Test func aContextSwitchedToAnotherServerGetsNoToken() async throws {
        let clusters = try await Clusters.make()
        let (cli, a, b) = (clusters.profile.cli, clusters.a, clusters.b)
        func authvault(_ arguments: [String]) async throws -> ProcessOutput { try await clusters.authvault(arguments) }
        func kubectl(_ arguments: [String]) async throws -> ProcessOutput { try await clusters.kubectl(arguments) }

        let plain = try await authvault(["setup", "kubectl", "--context", "plain"])
        #expect(
            plain.status == 2 && plain.stderrText.contains("a token goes only to an https server"),
            "\(plain.stderrText)")
        let setup = try await authvault(["setup", "kubectl", "--context", "a"])
        #expect(setup.status == 0, "\(setup.stderrText)")
        #expect(
            setup.stdoutText.contains("helper hosts of profile 'default': add 127.0.0.1:\(a.port)"),
            "\(setup.stdoutText)")
        let throughA = try await kubectl(["--context", "a", "get", "namespaces", "-o", "name"])
        #expect(throughA.status == 0, "\(throughA.stderrText)")
        #expect(try a.attempts().contains { $0.accepted }, "a got the token")

        let pointed = try await kubectl(["config", "set-context", "b", "--user=authvault-default"])
        #expect(pointed.status == 0, "\(pointed.stderrText)")
        let throughB = try await kubectl(["--context", "b", "get", "namespaces", "-o", "name"])
        #expect(throughB.status != 0)
        #expect(throughB.stderrText.contains("--helper-host 127.0.0.1:\(b.port)"), "\(throughB.stderrText)")
        let atB = try b.attempts()
        #expect(atB.allSatisfy { $0.jti == nil && !$0.accepted }, "b saw no token: \(atB.map(\.reason))")
        #expect(
            SecretScan.names(of: cli.knownSecrets, in: [throughA, throughB, setup]).isEmpty, "kubectl printed no secret"
        )
        cli.expectNoSecretLeaks()
    }

    /// Issue 32: `setup kubectl` writes `interactiveMode: IfAvailable`, so kubectl gives the plugin its terminal
    /// when it has one. In a pipe kubectl still gets its token without a word, and without a session fails at once
    /// naming the login, never prompting, helper sign-in on or not; `--undo` gives back the very bytes.
    @Test func aKubeconfigSetupWroteServesKubectlInAPipeAndUndoGivesItBack() async throws {
        let clusters = try await Clusters.make()
        let cli = clusters.profile.cli
        let original = try Data(contentsOf: URL(fileURLWithPath: clusters.kubeconfig))
        let helperSignIn = try await clusters.authvault(["configure", "--helper-sign-in", "on"])
        #expect(helperSignIn.status == 0, "\(helperSignIn.stderrText)")
        let setup = try await clusters.authvault(["setup", "kubectl", "--context", "a"])
        #expect(setup.status == 0, "\(setup.stderrText)")
        let written = try String(contentsOfFile: clusters.kubeconfig, encoding: .utf8)
        #expect(written.contains(#""interactiveMode": "IfAvailable""#), "\(written)")

        let served = try await clusters.kubectl(["get", "namespaces", "-o", "name"])
        #expect(served.status == 0 && served.stdoutText == "namespace/authvault-e2e\n", "\(served.stderrText)")
        #expect(try clusters.a.attempts().contains { $0.accepted }, "a got the token")

        _ = try await cli.run(["logout"])
        let started = Date()
        let refused = try await clusters.kubectl(["get", "namespaces", "-o", "name"])
        #expect(refused.status != 0 && refused.stdout.isEmpty)
        #expect(Date().timeIntervalSince(started) < 15, "kubectl gave up at once")
        #expect(
            refused.stderrText.contains("authvault login --profile default")
                && refused.stderrText.contains("kubectl (interactive: false) forbids prompts")
                && !refused.stderrText.contains("enter the code"), "\(refused.stderrText)")

        let undo = try await clusters.authvault(["setup", "kubectl", "--context", "a", "--undo"])
        #expect(undo.status == 0, "\(undo.stderrText)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: clusters.kubeconfig)) == original, "the very bytes")
        #expect(SecretScan.names(of: cli.knownSecrets, in: [served, refused, setup]).isEmpty, "no secret printed")
        cli.expectNoSecretLeaks()
    }
}

/// Two https clusters (a and b) and a plain-http one, each with its context, in a kubeconfig in the signed-in
/// profile's HOME that names no user yet; kubectl and authvault run in a pipe (no terminal), as under a CI job.
private struct Clusters {
    let profile: SignedInProfile
    let tls: TLSFixture
    let a: BearerTokenServer
    let b: BearerTokenServer
    let kubeconfig: String
    let environment: [String: String]

    static func make() async throws -> Clusters {
        let profile = try await SignedInProfile.make()
        let tls = try TLSFixture()
        let pool = profile.pool
        let expectation = BearerTokenServer.Expectation(
            jwksURL: pool.jwksURL, issuer: pool.issuer, clientId: pool.clientId, tokenUse: .id)
        let a = try await BearerTokenServer.kubernetes(tls: tls, expecting: expectation)
        let b = try await BearerTokenServer.kubernetes(tls: tls, expecting: expectation)
        let caData = try Data(contentsOf: URL(fileURLWithPath: tls.caCertificatePath)).base64EncodedString()
        let kubeconfig = profile.cli.environment["HOME"]! + "/kubeconfig.yaml"
        try """
        apiVersion: v1
        kind: Config
        clusters:
        - name: a
          cluster: {server: "https://127.0.0.1:\(a.port)", certificate-authority-data: \(caData)}
        - name: b
          cluster: {server: "https://127.0.0.1:\(b.port)", certificate-authority-data: \(caData)}
        - name: plain
          cluster: {server: "http://127.0.0.1:\(b.port)"}
        contexts:
        - name: a
          context: {cluster: a}
        - name: b
          context: {cluster: b}
        - name: plain
          context: {cluster: plain}
        current-context: a

        """.write(toFile: kubeconfig, atomically: true, encoding: .utf8)
        let environment = profile.cli.environment.merging([
            "KUBECONFIG": kubeconfig,
            "PATH": (KubectlSetup.kubectlPath as NSString).deletingLastPathComponent + ":/usr/bin:/bin",
        ]) { $1 }
        return Clusters(profile: profile, tls: tls, a: a, b: b, kubeconfig: kubeconfig, environment: environment)
    }

    func authvault(_ arguments: [String]) async throws -> ProcessOutput {
        try await BoundedProcess.run(profile.cli.authvault, arguments, environment: environment)
    }

    func kubectl(_ arguments: [String]) async throws -> ProcessOutput {
        try await BoundedProcess.run(
            KubectlSetup.kubectlPath, arguments + ["--request-timeout=30s"], environment: environment, timeout: 60)
    }
}

/// A signed-in profile listing the server's address and port, the bearer-token Kubernetes server on a fresh TLS
/// fixture, and the example kubeconfig filled in (server URL, CA data, profile name) in the profile's HOME, with
/// `authvault` first on PATH.
private struct KubectlSetup {
    static let kubectlPath = ExampleKubeconfig.kubectlPath

    let profile: SignedInProfile
    let tls: TLSFixture
    let server: BearerTokenServer
    let environment: [String: String]

    static func make() async throws -> KubectlSetup {
        try await ExampleKubeconfig.requireKubectl()
        let profile = try await SignedInProfile.make()
        let tls = try TLSFixture()
        let pool = profile.pool
        let server = try await BearerTokenServer.kubernetes(
            tls: tls,
            expecting: .init(jwksURL: pool.jwksURL, issuer: pool.issuer, clientId: pool.clientId, tokenUse: .id))

        let cli = profile.cli
        let hosts = try await cli.run(["configure", "--helper-host", "127.0.0.1:\(server.port)"])
        guard hosts.status == 0 else {
            throw TestFixtureError("configure --helper-host exited \(hosts.status): \(hosts.stderrText)")
        }
        let kubeconfig = cli.environment["HOME"]! + "/kubeconfig.yaml"
        try ExampleKubeconfig.write(
            to: kubeconfig, server: "https://127.0.0.1:\(server.port)", caCertificatePath: tls.caCertificatePath,
            profile: HeadlessCLI.profile)
        let links = try CommandLinks(["authvault"], to: cli.authvault, in: cli.root)
        let environment = cli.environment.merging([
            "PATH": links.searchPath(before: cli.environment["PATH"]),
            "KUBECONFIG": kubeconfig,
        ]) { $1 }
        return KubectlSetup(profile: profile, tls: tls, server: server, environment: environment)
    }

    /// kubectl with its standard input not a terminal (as under a CI job or another tool).
    func kubectl(_ arguments: [String]) async throws -> (output: ProcessOutput, seconds: TimeInterval) {
        let started = Date()
        let output = try await BoundedProcess.run(
            Self.kubectlPath, arguments + ["--request-timeout=30s"],
            environment: environment, timeout: 60)
        return (output, Date().timeIntervalSince(started))
    }
}
