import AuthCrypto
import Foundation
import HTTPTransport
import TestSupport
import Testing
import TokenVerification

@testable import CognitoAuth

/// The authorize URL and the callback, with no network: every parameter read back with Foundation's URLComponents
/// (an independent decoder), PKCE checked against the openssl CLI and RFC 7636's own vector.
@Suite struct OAuthAuthorizationRequestTests {
    static let redirectURI = "http://127.0.0.1:53682/callback"

    static func client(scopes: [String] = ["openid", "email", "profile"]) throws -> OAuthClient {
        let configuration = OAuthClientConfiguration(
            endpoints: try OAuthEndpoints(hostedUIBaseURL: "https://example.auth.us-east-1.amazoncognito.com"),
            clientId: "client-abc", redirectURI: redirectURI, scopes: scopes)
        let transport = StubTransport(jwks: Data("{\"keys\":[]}".utf8)) { _, _ in StubTransport.json([:], status: 500) }
        let verifier = TokenVerifier(
            issuer: "https://issuer.example", clientId: "client-abc",
            keys: JWKSCache(url: StubTransport.jwksURL, transport: transport))
        return try OAuthClient(configuration: configuration, transport: transport, verifier: verifier)
    }

    /// The query items of a URL, by name, each name expected once.
    static func queryItems(_ url: String) throws -> [String: String] {
        let components = try #require(URLComponents(string: url))
        let items = components.queryItems ?? []
        #expect(Set(items.map(\.name)).count == items.count, "a parameter appears twice")
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    /// base64url(SHA-256(text)) by the openssl CLI.
    static func opensslS256(_ text: String) async throws -> String {
        let output = try await OffPool.run {
            try ProcessRunner.run("openssl", ["dgst", "-sha256", "-binary"], stdin: Data(text.utf8))
        }
        return Base64URLText.encode(Array(output.stdout))
    }

    @Test func authorizeURLCarriesEveryParameterOnce() async throws {
        let request = try Self.client().authorizationRequest(identityProvider: "Google")
        let components = try #require(URLComponents(string: request.url))
        #expect(components.scheme == "https")
        #expect(components.host == "example.auth.us-east-1.amazoncognito.com")
        #expect(components.path == "/oauth2/authorize")
        let items = try Self.queryItems(request.url)
        #expect(
            Set(items.keys) == [
                "response_type", "client_id", "redirect_uri", "scope", "state", "nonce", "code_challenge",
                "code_challenge_method", "identity_provider",
            ])
        #expect(items["response_type"] == "code")
        #expect(items["client_id"] == "client-abc")
        #expect(items["redirect_uri"] == Self.redirectURI)
        #expect(items["scope"] == "openid email profile")
        #expect(items["identity_provider"] == "Google")
        #expect(items["code_challenge_method"] == "S256")
        #expect(!request.url.contains("plain"))
        let verifier = request.pkce.verifier.text
        #expect(verifier.count == 43)
        #expect(items["code_challenge"] == (try await Self.opensslS256(verifier)))
        #expect(items["state"] == request.state && request.state.count == 43)
        #expect(items["nonce"] == request.nonce && request.nonce.count == 43)
        #expect(!request.url.contains(verifier))
        #expect(!String(describing: request).contains(request.state) && !String(describing: request).contains(verifier))
    }

    @Test func withoutIdentityProviderTheHostedUIPageIsShown() throws {
        let request = try Self.client().authorizationRequest()
        #expect(try Self.queryItems(request.url)["identity_provider"] == nil)
        #expect(request.identityProvider == nil)
    }

    @Test func everyRequestHasItsOwnVerifierStateAndNonce() throws {
        let client = try Self.client()
        let requests = try (0..<8).map { _ in try client.authorizationRequest() }
        #expect(Set(requests.map(\.state)).count == 8)
        #expect(Set(requests.map(\.nonce)).count == 8)
        #expect(Set(requests.map(\.pkce.verifier.text)).count == 8)
        #expect(Set(requests.map(\.state) + requests.map(\.nonce)).count == 16)
    }

    /// Reserved characters in values are escaped as python's urllib.parse.quote(value, safe='') escapes them:
    /// python3 -c "import urllib.parse; print(urllib.parse.quote('http://127.0.0.1:53682/callback', safe=''))"
    /// python3 -c "import urllib.parse; print(urllib.parse.quote('openid email https://api.example.com/read+write', safe=''))"
    @Test func valuesArePercentEncodedStrictly() throws {
        let request = try Self.client(scopes: ["openid", "email", "https://api.example.com/read+write"])
            .authorizationRequest()
        #expect(request.url.contains("&redirect_uri=http%3A%2F%2F127.0.0.1%3A53682%2Fcallback&"))
        #expect(request.url.contains("&scope=openid%20email%20https%3A%2F%2Fapi.example.com%2Fread%2Bwrite&"))
        #expect(try Self.queryItems(request.url)["scope"] == "openid email https://api.example.com/read+write")
    }

    /// RFC 7636 appendix B: verifier dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk gives the S256 challenge
    /// E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM.
    @Test func pkceChallengeMatchesRFC7636AppendixB() throws {
        let request = OAuthAuthorizationRequest(
            authorizationEndpoint: "https://as.example/authorize", clientId: "c", redirectURI: Self.redirectURI,
            scopes: ["openid"],
            identityProvider: nil, pkce: try PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"))
        #expect(try Self.queryItems(request.url)["code_challenge"] == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }

    @Test func configurationIsChecked() throws {
        let endpoints = try OAuthEndpoints(hostedUIBaseURL: "https://example.auth.us-east-1.amazoncognito.com")
        let transport = StubTransport(jwks: Data()) { _, _ in StubTransport.json([:]) }
        let verifier = TokenVerifier(
            issuer: "i", clientId: "c", keys: JWKSCache(url: StubTransport.jwksURL, transport: transport))
        for (redirect, scopes) in [
            ("http://example.com/callback", ["openid"]), ("http://127.0.0.1:1/cb?x=1", ["openid"]),
            (Self.redirectURI, ["email"]),
        ] {
            let configuration = OAuthClientConfiguration(
                endpoints: endpoints, clientId: "c", redirectURI: redirect, scopes: scopes)
            #expect(throws: OAuthError.self) {
                try OAuthClient(configuration: configuration, transport: transport, verifier: verifier)
            }
        }
    }

    // MARK: The callback

    @Test func callbackInEveryFormGivesTheCode() throws {
        let request = try Self.client().authorizationRequest()
        let query = "code=the-code-123&state=\(request.state)"
        for callback in [
            "\(Self.redirectURI)?\(query)", "/callback?\(query)", query, "?\(query)",
            "  \(Self.redirectURI)?\(query)#_=_\n",
        ] {
            let code = try request.authorizationCode(fromCallback: callback)
            #expect(code.code.text == "the-code-123")
            #expect(!String(describing: code).contains("the-code-123"))
        }
    }

    @Test func wrongMissingOrForeignStateIsRefused() throws {
        let client = try Self.client()
        let request = try client.authorizationRequest()
        let other = try client.authorizationRequest()
        #expect(throws: OAuthCallbackError.stateMismatch) {
            try request.authorizationCode(fromCallback: "code=c1&state=\(other.state)")
        }
        #expect(throws: OAuthCallbackError.stateMismatch) {
            try request.authorizationCode(fromCallback: "code=c1&state=\(request.state)x")
        }
        #expect(throws: OAuthCallbackError.missingState) { try request.authorizationCode(fromCallback: "code=c1") }
        #expect(throws: OAuthCallbackError.missingCode) {
            try request.authorizationCode(fromCallback: "state=\(request.state)")
        }
        #expect(throws: OAuthCallbackError.self) {
            try request.authorizationCode(fromCallback: "code=c1&code=c2&state=\(request.state)")
        }
        #expect(throws: OAuthCallbackError.self) {
            try request.authorizationCode(fromCallback: "code=%zz&state=\(request.state)")
        }
    }

    /// The listener's CallbackMatcherTests refuse these same queries as malformed: one parser reads both.
    @Test func callbackQueriesTheListenerRefusesAreRefusedHereToo() throws {
        let request = try Self.client().authorizationRequest()
        let state = request.state
        #expect(throws: OAuthCallbackError.malformed("'state' appears twice")) {
            try request.authorizationCode(fromCallback: "code=a&state=\(state)&state=\(state)")
        }
        #expect(throws: OAuthCallbackError.malformed("'code' appears twice")) {
            try request.authorizationCode(fromCallback: "code=a&code=b&state=\(state)")
        }
        #expect(throws: OAuthCallbackError.malformed("'x' appears twice")) {
            try request.authorizationCode(fromCallback: "code=a&state=\(state)&x=1&x=2")
        }
        for broken in ["code=%zz&state=\(state)", "code=%C3%28&state=\(state)"] {
            #expect(throws: OAuthCallbackError.malformed("a %-escape is broken")) {
                try request.authorizationCode(fromCallback: broken)
            }
        }
        #expect(
            try request.authorizationCode(fromCallback: "/callback?code=a%2Fb+c&state=\(state)").code.text == "a/b c")
    }

    @Test func aPastedURLIsCheckedLikeACallbackAndABareCodeIsTaken() throws {
        let request = try Self.client().authorizationRequest()
        #expect(
            try request.authorizationCode(pasted: " \(Self.redirectURI)?code=c-1&state=\(request.state)\n").code.text
                == "c-1")
        #expect(try request.authorizationCode(pasted: "4f1b-9c2e_x.y~z\n").code.text == "4f1b-9c2e_x.y~z")
        #expect(throws: OAuthCallbackError.stateMismatch) {
            try request.authorizationCode(pasted: "\(Self.redirectURI)?code=c-1&state=other")
        }
        #expect(throws: OAuthCallbackError.missingCode) { try request.authorizationCode(pasted: "  \n") }
    }

    @Test func aRedirectedRequestKeepsItsStateNonceAndVerifier() throws {
        let request = try Self.client().authorizationRequest(identityProvider: "Google")
        let moved = request.redirected(to: "http://127.0.0.1:53683/callback")
        #expect(
            moved.state == request.state && moved.nonce == request.nonce && moved.pkce.verifier == request.pkce.verifier
        )
        #expect(moved.redirectURI == "http://127.0.0.1:53683/callback")
        #expect(moved.url.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A53683%2Fcallback"))
        #expect(moved.url.contains("identity_provider=Google"))
        #expect(moved.url == request.url.replacingOccurrences(of: "53682", with: "53683"))
    }

    @Test func otherURLsAreNotTheCallback() throws {
        let request = try Self.client().authorizationRequest()
        let query = "code=c1&state=\(request.state)"
        for callback in [
            "http://127.0.0.1:53683/callback?\(query)", "http://127.0.0.1:53682/other?\(query)",
            "https://127.0.0.1:53682/callback?\(query)", "/favicon.ico", "/callback/extra?\(query)",
        ] {
            #expect(throws: OAuthCallbackError.wrongRedirectURI(expected: Self.redirectURI)) {
                try request.authorizationCode(fromCallback: callback)
            }
        }
    }

    @Test func accessDeniedIsExplainedInWords() throws {
        let request = try Self.client().authorizationRequest()
        do {
            _ = try request.authorizationCode(
                fromCallback:
                    "\(Self.redirectURI)?error=access_denied&error_description=User+cancelled%20login&state=\(request.state)"
            )
            Issue.record("an error callback must throw")
        } catch {
            #expect(error == .authorizationFailed(.accessDenied, description: "User cancelled login"))
            #expect(error.description.contains("cancelled or refused"))
        }
        // No state at all (the server may omit it): still the server's answer.
        #expect(throws: OAuthCallbackError.authorizationFailed(.other("weird_error"), description: nil)) {
            try request.authorizationCode(fromCallback: "error=weird_error")
        }
        // Another sign-in's error is not this one's outcome.
        #expect(throws: OAuthCallbackError.stateMismatch) {
            try request.authorizationCode(fromCallback: "error=access_denied&state=other")
        }
    }

    @Test func errorDescriptionsCannotCarryTerminalEscapes() throws {
        let request = try Self.client().authorizationRequest()
        do {
            _ = try request.authorizationCode(
                fromCallback:
                    "error=access_denied&error_description=%1B%5B31mred%1B%5B0m%E2%80%AEx&state=\(request.state)")
            Issue.record("an error callback must throw")
        } catch {
            #expect(
                error == .authorizationFailed(.accessDenied, description: #"\u{1B}[31mred\u{1B}[0m\u{202E}x"#),
                "escaped where seen")
            #expect(!error.description.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E })
        }
    }
}
