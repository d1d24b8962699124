import Foundation

/// A P-256 key pair made by the openssl CLI, for ES256 JWTs. Signing goes through `openssl dgst -sha256 -sign`,
/// whose DER signature is turned into JWS's raw `r || s` here.
public final class P256TestKey: TestSigningKey, @unchecked Sendable {
    public let kid: String
    public let algorithm = "ES256"
    private let directory: TemporaryDirectory
    private var privateKeyPath: String { directory.appending("key.pem") }

    public init(kid: String = UUID().uuidString) throws {
        self.kid = kid
        directory = try TemporaryDirectory(prefix: "authvault-p256")
        let result = try ProcessRunner.run(
            "openssl",
            [
                "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256",
                "-out", privateKeyPath,
            ])
        guard result.status == 0 else { throw TestFixtureError("openssl genpkey failed: \(result.stderrText)") }
    }

    /// The public point's coordinates: the last 64 bytes of the DER SubjectPublicKeyInfo (0x04, x, y).
    public func coordinates() throws -> (x: [UInt8], y: [UInt8]) {
        let result = try ProcessRunner.run("openssl", ["pkey", "-in", privateKeyPath, "-pubout", "-outform", "DER"])
        let der = Array(result.stdout)
        guard result.status == 0, der.count == 91, der[26] == 0x04 else {
            throw TestFixtureError("openssl pkey -pubout failed")
        }
        return (Array(der[27..<59]), Array(der[59..<91]))
    }

    public func jwk() throws -> [String: String] {
        let (x, y) = try coordinates()
        return [
            "kty": "EC", "crv": "P-256", "kid": kid, "alg": "ES256", "use": "sig",
            "x": Base64URLText.encode(x), "y": Base64URLText.encode(y),
        ]
    }

    /// ECDSA P-256 SHA-256 of `message` as `r || s`, 32 bytes each.
    public func sign(_ message: [UInt8]) throws -> [UInt8] {
        let result = try ProcessRunner.run(
            "openssl", ["dgst", "-sha256", "-sign", privateKeyPath], stdin: Data(message))
        guard result.status == 0 else { throw TestFixtureError("openssl dgst -sign failed: \(result.stderrText)") }
        return try Self.rawSignature(der: Array(result.stdout))
    }

    /// SEQUENCE { INTEGER r, INTEGER s } (short lengths: a P-256 signature is at most 72 bytes) to `r || s`.
    static func rawSignature(der: [UInt8]) throws -> [UInt8] {
        guard der.count > 2, der[0] == 0x30, Int(der[1]) == der.count - 2 else {
            throw TestFixtureError("not a DER ECDSA signature")
        }
        var index = 2
        var raw: [UInt8] = []
        for _ in 0..<2 {
            guard index + 2 <= der.count, der[index] == 0x02 else { throw TestFixtureError("not a DER INTEGER") }
            let length = Int(der[index + 1])
            guard index + 2 + length <= der.count else { throw TestFixtureError("truncated DER INTEGER") }
            let integer = der[(index + 2)..<(index + 2 + length)].drop { $0 == 0 }
            guard integer.count <= 32 else { throw TestFixtureError("integer too long for P-256") }
            raw += [UInt8](repeating: 0, count: 32 - integer.count) + integer
            index += 2 + length
        }
        return raw
    }
}
