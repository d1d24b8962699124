import AuthCrypto
import Foundation
import TestSupport
import Testing

@Suite struct BigUIntTests {
    // RFC 5054 appendix A / RFC 3526 group 15, the 3072-bit SRP group Cognito uses. Produced by
    // `openssl genpkey -genparam -algorithm DH -pkeyopt group:modp_3072 | openssl asn1parse`.
    static let rfc5054Prime3072 = """
        FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD\
        EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED\
        EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F\
        83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B\
        E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510\
        15728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7\
        ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200C\
        BBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF
        """

    @Test func hexRoundTrip() throws {
        #expect(BigUInt(0).hex == "0")
        #expect(BigUInt(10).hex == "a")
        #expect(BigUInt(0xdead_beef).hex == "deadbeef")
        #expect(BigUInt(UInt64.max).hex == "ffffffffffffffff")
        #expect(try #require(BigUInt(hex: "000000AbCdEf")).hex == "abcdef")
        #expect(try #require(BigUInt(hex: "0000")).isZero)
        #expect(try #require(BigUInt(hex: Self.rfc5054Prime3072)).hex == Self.rfc5054Prime3072.lowercased())
        #expect(BigUInt(hex: "0x10") == nil)
        for invalid in ["", "-1", "12 34", "g", "1_000", "١٢"] {
            #expect(BigUInt(hex: invalid) == nil)
        }
    }

    @Test func bigEndianBytes() throws {
        #expect(BigUInt(0).bigEndianBytes == [])
        #expect(BigUInt(0).bigEndianBytes(paddedTo: 3) == [0, 0, 0])
        #expect(BigUInt(0x0102).bigEndianBytes == [1, 2])
        #expect(BigUInt(0x0102).bigEndianBytes(paddedTo: 4) == [0, 0, 1, 2])
        #expect(BigUInt(0x010203).bigEndianBytes(paddedTo: 2) == [1, 2, 3], "never truncates")
        #expect(BigUInt(bigEndian: [0, 0, 0x80, 0x01]) == BigUInt(0x8001))
        #expect(BigUInt(bigEndian: [UInt8]()).isZero)
        let prime = try #require(BigUInt(hex: Self.rfc5054Prime3072))
        #expect(prime.bigEndianBytes.count == 384)
        #expect(prime.bitWidth == 3072)
        #expect(BigUInt(bigEndian: prime.bigEndianBytes) == prime)
        #expect(BigUInt(5).bigEndianBytes(paddedTo: 384).count == 384)
    }

    @Test func comparisonAndRedactedDescription() {
        #expect(BigUInt(3) < BigUInt(hex: "10000000000000000")!)
        #expect(BigUInt(7) == BigUInt(hex: "07")!)
        #expect(BigUInt(7) != BigUInt(8))
        #expect(!BigUInt(0xabcdef).description.contains("abcdef"))
        #expect(BigUInt(0xabcdef).description == "BigUInt(<24 bits>)")
    }

    /// Random operands, some with an even modulus and some with other > self, checked against python3's integers.
    @Test func arithmeticMatchesPython() throws {
        var cases: [(a: String, b: String, m: String)] = []
        for index in 0..<40 {
            let a = Self.randomHex(maximumBytes: index < 20 ? 8 : 200)
            let b = Self.randomHex(maximumBytes: index < 20 ? 8 : 200)
            var m = Self.randomHex(maximumBytes: index < 20 ? 8 : 200)
            if m.allSatisfy({ $0 == "0" }) { m = "1" + m }
            cases.append((a, b, m))
        }
        cases.append(("0", "0", "1"))
        cases.append(("5", "9", "7"))  // a < b in subtraction
        cases.append(("ffffffffffffffff", "1", "2"))  // even modulus with power

        let script = """
            import sys
            for line in sys.stdin:
                a, b, m = (int(x, 16) for x in line.split())
                print(" ".join(format(v, "x") for v in (pow(a, b, m), a * b % m, (a + b) % m, (a - b) % m, a % m, a + b, a * b)))
            """
        let input = cases.map { "\($0.a) \($0.b) \($0.m)" }.joined(separator: "\n") + "\n"
        let output = try ProcessRunner.run(PeerPython.path, ["-c", script], stdin: Data(input.utf8))
        #expect(output.status == 0, "\(output.stderrText)")
        let lines = output.stdoutText.split(separator: "\n")
        try #require(lines.count == cases.count)
        for (operands, line) in zip(cases, lines) {
            let a = try #require(BigUInt(hex: operands.a))
            let b = try #require(BigUInt(hex: operands.b))
            let m = try #require(BigUInt(hex: operands.m))
            let results = [
                a.power(b, modulus: m), a.multiplying(b, modulus: m), a.adding(b, modulus: m),
                a.subtracting(b, modulus: m), a.modulo(m), a + b, a * b,
            ].map(\.hex)
            #expect(
                results == line.split(separator: " ").map(String.init),
                "a=\(operands.a) b=\(operands.b) m=\(operands.m)")
        }
    }

    /// One SRP-sized exponentiation: 2^a mod N with a random 256-bit a, checked against python3.
    @Test func modpowWith3072BitGroup() throws {
        let prime = try #require(BigUInt(hex: Self.rfc5054Prime3072))
        let exponentHex = hex(SecureRandom.bytes(count: 32))
        let result = BigUInt(2).power(try #require(BigUInt(hex: exponentHex)), modulus: prime)
        let output = try ProcessRunner.run(
            PeerPython.path,
            [
                "-c", "import sys; print(format(pow(2, int(sys.argv[1], 16), int(sys.argv[2], 16)), 'x'))",
                exponentHex, Self.rfc5054Prime3072,
            ])
        #expect(result.hex == output.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(result < prime)
    }

    /// A hex string of 0 to `maximumBytes` random bytes, sometimes with leading zeros.
    private static func randomHex(maximumBytes: Int) -> String {
        let count = Int.random(in: 0...maximumBytes)
        return count == 0 ? "0" : hex(SecureRandom.bytes(count: count))
    }
}
