import Foundation
import NetworkHosts
import TestSupport
import Testing

@testable import CognitoAuth

/// The text of a refusal (Cognito's `message` and `__type`, an authorization server's `error` and
/// `error_description`) is escaped where the error is made, so no description of it holds a terminal escape or a
/// line break of the server's choosing.
@Suite struct ServerMessageEscapingTests {
    static let hostile = "bad\u{1B}]0;pwned\u{7}\u{1B}[2J\r\nauthvault: ok"
    static let shown = #"bad\u{1B}]0;pwned\u{7}\u{1B}[2J\r\nauthvault: ok"#

    @Test func cognitosMessageAndTypeAreEscaped() async {
        let (refused, _) = await ErrorMappingTests().failingCall {
            StubTransport.error("NotAuthorizedException", message: Self.hostile)
        }
        #expect(refused == .notAuthorized(message: Self.shown))
        #expect(refused.map { "\($0)".contains(Self.shown) } == true)
        let (unknown, _) = await ErrorMappingTests().failingCall {
            StubTransport.error("Odd\u{1B}[2JException", message: "m")
        }
        #expect(unknown == .unknownService(type: #"Odd\u{1B}[2JException"#, status: 400, message: "m"))
    }

    @Test func anAuthorizationServersCodeAndDescriptionAreEscaped() async throws {
        let transport = URLStubTransport { _ in
            URLStubTransport.json(["error": "odd\u{1B}[2J", "error_description": Self.hostile], status: 400)
        }
        let client = try ClientCredentialsClientTests.client(transport: transport)
        let error = await caughtOAuthError { () async throws(OAuthError) in try await client.token() }
        guard case .refused(let code, let description, 400, .clientCredentials)? = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(description == Self.shown)
        #expect(code.code == #"odd\u{1B}[2J"#)
    }
}
