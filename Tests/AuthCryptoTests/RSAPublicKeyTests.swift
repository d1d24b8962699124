import AuthCrypto
import Foundation
import TestSupport
import Testing

/// Keys and signatures made by the openssl CLI, verified by AuthCrypto.
@Suite struct RSAPublicKeyTests {
    struct CLIKey {
        let modulus: [UInt8]
        let exponent: [UInt8]
        let directory: TemporaryDirectory
        var keyPath: String { directory.appending("key.pem") }

        init(bits: Int) throws {
            directory = try TemporaryDirectory(prefix: "authcrypto-rsa")
            let keyPath = directory.appending("key.pem")
            let generated = try ProcessRunner.run(
                "openssl", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:\(bits)", "-out", keyPath])
            try #require(generated.status == 0, "\(generated.stderrText)")
            // `-modulus` prints "Modulus=<HEX>"; `-text` prints "publicExponent: 65537 (0x10001)".
            let modulusOutput = try ProcessRunner.run("openssl", ["rsa", "-in", keyPath, "-noout", "-modulus"])
                .stdoutText
            let modulusHex = try #require(modulusOutput.split(separator: "=").last).trimmingCharacters(
                in: .whitespacesAndNewlines)
            modulus = AuthCryptoTests.bytes(modulusHex)
            let text = try ProcessRunner.run("openssl", ["rsa", "-in", keyPath, "-noout", "-text"]).stdoutText
            let exponentLine = try #require(text.split(separator: "\n").first { $0.hasPrefix("publicExponent:") })
            let exponentHex = try #require(exponentLine.split(separator: "(0x").last?.dropLast())
            exponent = AuthCryptoTests.bytes((exponentHex.count.isMultiple(of: 2) ? "" : "0") + exponentHex)
        }

        func sign(_ message: [UInt8]) throws -> [UInt8] {
            let messagePath = directory.appending("message")
            let signaturePath = directory.appending("signature")
            try Data(message).write(to: URL(fileURLWithPath: messagePath))
            let signed = try ProcessRunner.run(
                "openssl", ["dgst", "-sha256", "-sign", keyPath, "-out", signaturePath, messagePath])
            try #require(signed.status == 0, "\(signed.stderrText)")
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: signaturePath)))
        }
    }

    @Test func verifiesOpenSSLSignatures() throws {
        let cliKey = try CLIKey(bits: 2048)
        #expect(cliKey.exponent == [0x01, 0x00, 0x01])
        let key = try RSAPublicKey(modulus: cliKey.modulus, exponent: cliKey.exponent)
        #expect(key.modulusBits == 2048)
        let message = utf8("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0")
        let signature = try cliKey.sign(message)

        #expect(key.isValidSignature(signature, for: message))
        #expect(key.isValidSignature(Data(signature), for: Data(message)))

        var flipped = signature
        flipped[100] ^= 0x04
        #expect(!key.isValidSignature(flipped, for: message))
        #expect(!key.isValidSignature(signature, for: utf8("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9")))
        #expect(!key.isValidSignature(signature.dropLast(), for: message))
        #expect(!key.isValidSignature([UInt8](), for: message))
        // A JWK's n may carry a leading zero byte; it is the same key.
        let padded = try RSAPublicKey(modulus: [0] + cliKey.modulus, exponent: cliKey.exponent)
        #expect(padded.isValidSignature(signature, for: message))
    }

    @Test func rejects1024BitKey() throws {
        let cliKey = try CLIKey(bits: 1024)
        #expect(throws: CryptoError.invalidKey) {
            try RSAPublicKey(modulus: cliKey.modulus, exponent: cliKey.exponent)
        }
    }

    @Test func rejectsMalformedExponents() throws {
        let modulus = [UInt8](repeating: 0xff, count: 256)
        for exponent: [UInt8] in [[], [1], [2], [0x01, 0x00, 0x00], [UInt8](repeating: 0xff, count: 257)] {
            #expect(throws: CryptoError.invalidKey) { try RSAPublicKey(modulus: modulus, exponent: exponent) }
        }
    }
}
