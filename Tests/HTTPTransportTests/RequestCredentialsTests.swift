import HTTPTransport
import Testing

extension HTTPTransportTests {
    /// What an error must not show of a request: every form of what its credential headers carry.
    @Suite struct RequestCredentials {
        @Test func basicGivesTheValueItsBase64AndTheDecodedPair() {
            // YWxpY2U6czNjcmV0 is base64("alice:s3cret").
            let request = HTTPRequest(url: "https://idp.example/token", headers: [
                HTTPHeader(name: "content-type", value: "application/json"),
                HTTPHeader(name: "AUTHORIZATION", value: "Basic YWxpY2U6czNjcmV0"),
            ])
            #expect(request.credentials == ["Basic YWxpY2U6czNjcmV0", "YWxpY2U6czNjcmV0", "alice:s3cret"])
        }

        @Test func bearerAndProxyCredentialsAreNamedWhateverTheScheme() {
            let request = HTTPRequest(url: "https://idp.example/userinfo", headers: [
                HTTPHeader(name: "Authorization", value: "Bearer eyJ.token"),
                HTTPHeader(name: "Proxy-Authorization", value: "opaque"),
            ])
            #expect(request.credentials == ["Bearer eyJ.token", "eyJ.token", "opaque"])
        }

        @Test func aRequestWithoutCredentialHeadersHasNone() {
            #expect(HTTPRequest(url: "https://idp.example/", headers: [HTTPHeader(name: "Accept", value: "a")]).credentials.isEmpty)
        }
    }
}
