import AuthCrypto
import Testing

@Suite struct PKCETests {
    // RFC 7636 appendix B.
    @Test func rfc7636AppendixB() throws {
        let pkce = try PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(PKCE.method == "S256")
        // Appendix B's 32 random octets encode to that verifier.
        let octets: [UInt8] = [
            116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186,
            22, 212, 37, 77, 105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121,
        ]
        #expect(Base64URL.encode(octets) == "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
    }

    @Test func generatedVerifierIsFortyThreeUnreservedCharacters() throws {
        let pkce = PKCE()
        let verifier = pkce.verifier.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        #expect(verifier.count == 43)
        let checked = try PKCE(verifier: verifier)
        #expect(checked.challenge == pkce.challenge)
        #expect(PKCE().verifier != pkce.verifier)
    }

    @Test(arguments: [
        String(repeating: "a", count: 42),
        String(repeating: "a", count: 129),
        String(repeating: "a", count: 42) + "+",
        String(repeating: "a", count: 42) + "=",
        String(repeating: "a", count: 42) + " ",
        String(repeating: "a", count: 42) + "é",
    ])
    func rejectsInvalidVerifiers(_ verifier: String) {
        #expect(throws: CryptoError.self) { try PKCE(verifier: verifier) }
    }

    @Test func acceptsTheWholeUnreservedAlphabetAtBothLengthLimits() throws {
        _ = try PKCE(verifier: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        _ = try PKCE(verifier: String(repeating: "~", count: 43))
        _ = try PKCE(verifier: String(repeating: ".", count: 128))
    }
}
