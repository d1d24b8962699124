import Foundation

public enum TLSFixtureError: Error, CustomStringConvertible {
    case opensslFailed(step: String, stderr: String)
    public var description: String {
        switch self {
        case .opensslFailed(let step, let stderr): return "openssl \(step) failed: \(stderr)"
        }
    }
}

/// A private certificate authority and a server certificate it signed, made by the openssl CLI in a
/// temporary directory: what a test HTTPS peer serves, and what a client must be told to trust.
public final class TLSFixture: Sendable {
    public let directory: TemporaryDirectory
    /// The CA certificate (PEM): the bundle a client trusts.
    public let caCertificatePath: String
    /// The server certificate (PEM), subjectAltName as given.
    public let serverCertificatePath: String
    /// The server's private key (PEM, unencrypted).
    public let serverKeyPath: String

    /// - Parameter subjectAltNames: openssl syntax, e.g. `IP:127.0.0.1` or `DNS:localhost`.
    public init(subjectAltNames: [String] = ["IP:127.0.0.1", "DNS:localhost"]) throws {
        directory = try TemporaryDirectory(prefix: "authvault-tls")
        caCertificatePath = directory.appending("ca.pem")
        serverCertificatePath = directory.appending("server.pem")
        serverKeyPath = directory.appending("server.key")
        let caKey = directory.appending("ca.key")
        let request = directory.appending("server.csr")
        let extensions = directory.appending("server.ext")
        try """
        basicConstraints = critical, CA:FALSE
        keyUsage = critical, digitalSignature
        extendedKeyUsage = serverAuth
        subjectAltName = \(subjectAltNames.joined(separator: ", "))
        authorityKeyIdentifier = keyid
        """.write(toFile: extensions, atomically: true, encoding: .utf8)
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try Self.openssl(
            "CA certificate",
            ["req", "-x509"] + curve + [
                "-keyout", caKey, "-out", caCertificatePath, "-days", "2", "-subj", "/CN=AuthVault Test CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ])
        try Self.openssl(
            "server request",
            ["req"] + curve + [
                "-keyout", serverKeyPath, "-out", request, "-subj", "/CN=AuthVault Test Server",
            ])
        try Self.openssl(
            "server certificate",
            [
                "x509", "-req", "-in", request, "-CA", caCertificatePath, "-CAkey", caKey, "-set_serial", "2",
                "-days", "2", "-extfile", extensions, "-out", serverCertificatePath,
            ])
    }

    private static func openssl(_ step: String, _ arguments: [String]) throws {
        let output = try ProcessRunner.run("openssl", arguments)
        guard output.status == 0 else { throw TLSFixtureError.opensslFailed(step: step, stderr: output.stderrText) }
    }
}
