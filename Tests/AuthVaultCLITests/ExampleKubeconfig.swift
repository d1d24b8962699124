import Foundation
import TestSupport

/// Debian's kubectl 1.20 (`kubernetes-client`, unpacked into .build/debian-tools by Scripts/install-deps.sh: the
/// /usr/bin/kubectl here may be another one), and Examples/kubectl/kubeconfig.yaml filled in for a test's server: its
/// exec plugin `authvault kubectl-credential --profile PROFILE`, with provideClusterInfo.
enum ExampleKubeconfig {
    static let kubectlPath = PackageFiles.path(".build/debian-tools/usr/bin/kubectl")
    static let exampleServer = "https://kubernetes.example.com:6443"
    static let exampleCA = "CLUSTER_CA_CERTIFICATE_BASE64"
    static let exampleProfile = "--profile, work]"

    /// Fails the test, saying how to get it, unless that kubectl is there.
    static func requireKubectl() async throws {
        guard FileManager.default.isExecutableFile(atPath: kubectlPath) else {
            throw TestFixtureError("no \(kubectlPath): run Scripts/install-deps.sh test")
        }
        let version = try await BoundedProcess.run(kubectlPath, ["version", "--client", "--short"])
        guard version.stdoutText.contains("v1.20.") else {
            throw TestFixtureError("\(kubectlPath) is not kubectl 1.20: \(version.stdoutText)")
        }
    }

    /// Writes the example to `path`, for `server`, trusting the CA certificate at `caCertificatePath`, its plugin
    /// asking for `profile`.
    static func write(to path: String, server: String, caCertificatePath: String, profile: String) throws {
        let template = try PackageFiles.text("Examples/kubectl/kubeconfig.yaml")
        for placeholder in [exampleServer, exampleCA, exampleProfile] where !template.contains(placeholder) {
            throw TestFixtureError("Examples/kubectl/kubeconfig.yaml no longer holds \(placeholder)")
        }
        let caData = try Data(contentsOf: URL(fileURLWithPath: caCertificatePath)).base64EncodedString()
        try template.replacingOccurrences(of: exampleServer, with: server)
            .replacingOccurrences(of: exampleCA, with: caData)
            .replacingOccurrences(of: exampleProfile, with: "--profile, \(profile)]")
            .write(toFile: path, atomically: true, encoding: .utf8)
    }
}
