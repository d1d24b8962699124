import Foundation
import Testing
import TestSupport

/// Debian's kubectl 1.20 (`kubernetes-client`, unpacked into .build/debian-tools by Scripts/install-deps.sh: the
/// /usr/bin/kubectl here may be another one) with the kubeconfig of Examples/kubectl/kubeconfig.yaml, its exec
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
        #expect(attempts.allSatisfy { $0.accepted && $0.status == 200 }, "\(attempts.map { "\($0.path) \($0.reason)" })")
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
        let run = try await kube.kubectl(["get", "namespaces", "-o", "name",
                                          "--server", "https://localhost:\(kube.server.port)"])
        #expect(run.output.status != 0)
        #expect(run.output.stderrText.contains("--helper-host localhost:\(kube.server.port)"), "\(run.output.stderrText)")
        #expect(try kube.server.attempts().allSatisfy { !$0.accepted }, "no token got in")
        #expect(SecretScan.names(of: cli.knownSecrets, in: [run.output]).isEmpty, "kubectl printed no secret")
        cli.expectNoSecretLeaks()
    }
}

/// A signed-in profile listing the server's address and port, the bearer-token Kubernetes server on a fresh TLS
/// fixture, and the example kubeconfig filled in (server URL, CA data, profile name) in the profile's HOME, with
/// `authvault` first on PATH.
private struct KubectlSetup {
    static let kubectlPath = PackageFiles.path(".build/debian-tools/usr/bin/kubectl")
    static let exampleServer = "https://kubernetes.example.com:6443"
    static let exampleCA = "CLUSTER_CA_CERTIFICATE_BASE64"
    static let exampleProfile = "--profile, work]"

    let profile: SignedInProfile
    let tls: TLSFixture
    let server: BearerTokenServer
    let environment: [String: String]

    static func make() async throws -> KubectlSetup {
        guard FileManager.default.isExecutableFile(atPath: kubectlPath) else {
            throw TestFixtureError("no \(kubectlPath): run Scripts/install-deps.sh test")
        }
        let version = try await BoundedProcess.run(kubectlPath, ["version", "--client", "--short"])
        guard version.stdoutText.contains("v1.20.") else {
            throw TestFixtureError("\(kubectlPath) is not kubectl 1.20: \(version.stdoutText)")
        }
        let profile = try await SignedInProfile.make()
        let tls = try TLSFixture()
        let pool = profile.pool
        let server = try await BearerTokenServer.kubernetes(
            tls: tls, expecting: .init(jwksURL: pool.jwksURL, issuer: pool.issuer, clientId: pool.clientId, tokenUse: .id))

        let template = try PackageFiles.text("Examples/kubectl/kubeconfig.yaml")
        for placeholder in [exampleServer, exampleCA, exampleProfile] where !template.contains(placeholder) {
            throw TestFixtureError("Examples/kubectl/kubeconfig.yaml no longer holds \(placeholder)")
        }
        let caData = try Data(contentsOf: URL(fileURLWithPath: tls.caCertificatePath)).base64EncodedString()
        let cli = profile.cli
        let hosts = try await cli.run(["configure", "--helper-host", "127.0.0.1:\(server.port)"])
        guard hosts.status == 0 else { throw TestFixtureError("configure --helper-host exited \(hosts.status): \(hosts.stderrText)") }
        let kubeconfig = cli.environment["HOME"]! + "/kubeconfig.yaml"
        try template.replacingOccurrences(of: exampleServer, with: "https://127.0.0.1:\(server.port)")
            .replacingOccurrences(of: exampleCA, with: caData)
            .replacingOccurrences(of: exampleProfile, with: "--profile, \(HeadlessCLI.profile)]")
            .write(toFile: kubeconfig, atomically: true, encoding: .utf8)
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
        let output = try await BoundedProcess.run(Self.kubectlPath, arguments + ["--request-timeout=30s"],
                                                  environment: environment, timeout: 60)
        return (output, Date().timeIntervalSince(started))
    }
}
