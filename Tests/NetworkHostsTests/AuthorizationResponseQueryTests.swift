import NetworkHosts
import Testing

/// Issue 11 item 5: the one parser of an OAuth callback's query, which the loopback listener and the OAuth client
/// both read (their own tests check that each refuses what this refuses).
@Suite struct AuthorizationResponseQueryTests {
    @Test func readsTheFourParametersDecodedAndIgnoresOthers() throws {
        let parsed = try AuthorizationResponseQuery("code=a%2Fb+c%3D&state=s%2Bt&flag&scope=openid")
        #expect(parsed.code == "a/b c=")
        #expect(parsed.state == "s+t")
        #expect(parsed.error == nil && parsed.errorDescription == nil)
        let denied = try AuthorizationResponseQuery(
            "error=access_denied&error_description=User+cancelled%20login&state=")
        #expect(denied.error == "access_denied")
        #expect(denied.errorDescription == "User cancelled login")
        #expect(denied.state == "")
        #expect(try AuthorizationResponseQuery("").code == nil)
    }

    @Test(arguments: ["code=a&state=x&state=x", "code=a&code=b&state=x", "state=x&error=e&error=e", "x=1&x=2&state=s"])
    func refusesARepeatedParameter(query: String) {
        #expect(throws: AuthorizationResponseQuery.Failure.self) { try AuthorizationResponseQuery(query) }
    }

    @Test func namesTheRepeatedParameterAndTellsABrokenEscape() {
        #expect(throws: AuthorizationResponseQuery.Failure.repeated(name: "code")) {
            try AuthorizationResponseQuery("code=a&code=b")
        }
        for broken in ["code=%zz&state=x", "code=%C3%28&state=x", "state=%"] {
            #expect(throws: AuthorizationResponseQuery.Failure.brokenEscape) { try AuthorizationResponseQuery(broken) }
        }
    }
}
