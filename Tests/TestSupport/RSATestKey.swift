import Foundation

/// An RSA key pair made by the openssl CLI, for minting JWTs that the code under test must verify.
/// Signing also goes through the openssl CLI, so no value a test checks comes from the code under test.
public final class RSATestKey: TestSigningKey, @unchecked Sendable {
    public let kid: String
    public let algorithm = "RS256"
    private let directory: TemporaryDirectory
    private var privateKeyPath: String { directory.appending("key.pem") }

    public init(kid: String = UUID().uuidString, bits: Int = 2048) throws {
        self.kid = kid
        directory = try TemporaryDirectory(prefix: "authvault-rsa")
        let result = try ProcessRunner.run(
            "openssl",
            [
                "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:\(bits)",
                "-out", privateKeyPath,
            ])
        guard result.status == 0 else { throw TestFixtureError("openssl genpkey failed: \(result.stderrText)") }
    }

    /// The modulus as big-endian bytes, read with `openssl rsa -modulus`.
    public func modulus() throws -> [UInt8] {
        let result = try ProcessRunner.run("openssl", ["rsa", "-in", privateKeyPath, "-noout", "-modulus"])
        guard result.status == 0, let hex = result.stdoutText.split(separator: "=").last else {
            throw TestFixtureError("openssl rsa -modulus failed")
        }
        return try Hex.decode(hex.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The public key as a JWK (RSA, RS256, sig) with this key's `kid`.
    public func jwk() throws -> [String: String] {
        [
            "kty": "RSA", "kid": kid, "alg": "RS256", "use": "sig",
            "n": Base64URLText.encode(try modulus()), "e": Base64URLText.encode([0x01, 0x00, 0x01]),
        ]
    }

    /// RSASSA-PKCS1-v1_5 SHA-256 signature of `message`, by `openssl dgst -sha256 -sign`.
    public func sign(_ message: [UInt8]) throws -> [UInt8] {
        let result = try ProcessRunner.run(
            "openssl", ["dgst", "-sha256", "-sign", privateKeyPath], stdin: Data(message))
        guard result.status == 0 else { throw TestFixtureError("openssl dgst -sign failed: \(result.stderrText)") }
        return Array(result.stdout)
    }
}

/// A JWKS document for the given keys.
public func jwksDocument(_ keys: [any TestSigningKey]) throws -> Data {
    try JSONSerialization.data(withJSONObject: ["keys": try keys.map { try $0.jwk() }], options: [.sortedKeys])
}

public struct TestFixtureError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Base64url with Foundation's encoder, independent of the project's own.
public enum Base64URLText {
    public static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

public enum Hex {
    public static func decode(_ text: String) throws -> [UInt8] {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { throw TestFixtureError("odd-length hex") }
        return try stride(from: 0, to: digits.count, by: 2).map { index in
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                throw TestFixtureError("not hex")
            }
            return byte
        }
    }

    public static func encode(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}
