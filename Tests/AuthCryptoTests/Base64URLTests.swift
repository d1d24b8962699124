import AuthCrypto
import Foundation
import Testing

@Suite struct Base64URLTests {
    // RFC 4648 section 10, without the padding.
    static let rfc4648: [(String, String)] = [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
        ("foobar", "Zm9vYmFy"),
    ]

    @Test func rfc4648Vectors() {
        for (plain, encoded) in Self.rfc4648 {
            #expect(Base64URL.encode(utf8(plain)) == encoded)
            #expect(Base64URL.decode(encoded) == utf8(plain))
        }
    }

    @Test func acceptsPadding() {
        #expect(Base64URL.decode("Zg==") == utf8("f"))
        #expect(Base64URL.decode("Zm8=") == utf8("fo"))
        #expect(Base64URL.decode("Zm9v"[...]) == utf8("foo"))
    }

    // The two characters that differ from standard base64: printf '\xfb\xff\xbf' | base64 gives "+/+/".
    @Test func urlSafeAlphabet() {
        #expect(Base64URL.encode([0xfb, 0xff, 0xbf]) == "-_-_")
        #expect(Base64URL.decode("-_-_") == [0xfb, 0xff, 0xbf])
        #expect(Base64URL.decode("+/+/") == nil)
    }

    @Test(arguments: ["Z", "Zg=", "Zg===", "Z===", "Zh", "Zm9", "Zm 9v", "Zm9v\n", "Zg==Zg==", "=", "é"])
    func rejectsMalformedInput(_ text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    // Random round trips checked against Foundation's standard base64 with the alphabet swapped.
    @Test func randomRoundTrips() {
        for length in 0..<70 {
            let data = SecureRandom.bytes(count: length)
            let encoded = Base64URL.encode(data)
            let standard = Data(data).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(encoded == standard)
            #expect(Base64URL.decode(encoded) == data)
        }
    }
}
