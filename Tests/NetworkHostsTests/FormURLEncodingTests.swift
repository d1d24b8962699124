import NetworkHosts
import Testing

/// Issue 11 item 5: the one form encoder and decoder, shared by the OAuth client and the loopback listener.
@Suite struct FormURLEncodingTests {
    @Test func encodesAllButUnreservedAndDecodesBack() throws {
        let encoded = FormURLEncoding.encode([
            ("redirect_uri", "http://127.0.0.1/cb"), ("scope", "openid a+b"), ("é", "~-._"),
        ])
        #expect(encoded == "redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&scope=openid%20a%2Bb&%C3%A9=~-._")
        let decoded = try #require(FormURLEncoding.decode(encoded))
        #expect(decoded.map(\.name) == ["redirect_uri", "scope", "é"])
        #expect(decoded.map(\.value) == ["http://127.0.0.1/cb", "openid a+b", "~-._"])
    }

    @Test func decodesAPlusAsASpaceAndANameAlone() throws {
        let decoded = try #require(FormURLEncoding.decode("code=a%2Fb+c%3D&flag&&state=xyz"))
        #expect(decoded.map(\.name) == ["code", "flag", "state"])
        #expect(decoded.map(\.value) == ["a/b c=", "", "xyz"])
    }

    @Test(arguments: ["code=%G1", "code=%4", "code=%", "code=%FF"])
    func refusesABrokenEscapeOrNonUTF8(query: String) {
        #expect(FormURLEncoding.decode(query) == nil)
    }
}
