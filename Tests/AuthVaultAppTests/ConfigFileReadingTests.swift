import Foundation
import Testing

@testable import AuthVaultApp

/// The configuration read without Codable on every start-up (`ConfigStore.read`, `ConfigFile(fields:)`) agrees with
/// the `Codable` conformance JSONDecoder uses: the same file for everything it reads, and a refusal, which leaves
/// the file (and any error message) to JSONDecoder, for the rest.
@Suite struct ConfigFileReadingTests {
    static let readAlike = [
        #"{"version":1,"profiles":{}}"#,
        #"{"version":1,"profiles":{"work":{"userPoolId":"us-east-1_A","clientId":"c"}},"currentProfile":"work"}"#,
        // Unknown keys, at every level, whatever their values.
        #"{"version":1,"later":[1,{"a":null}],"profiles":{"w":{"region":"eu-west-1","future":{"x":[true]},"#
            + #""oauthEndpoints":{"token":"https://t.example/","other":3}}}}"#,
        // Optional keys missing or null.
        #"{"version":1,"profiles":{"w":{"region":null,"scopes":null,"oauthEndpoints":null}},"currentProfile":null}"#,
        #"{"version":1,"profiles":{"w":{"oauthEndpoints":{}}}}"#,
        // Versions are checked after the reading, by the store.
        #"{"version":0,"profiles":{}}"#, #"{"version":2,"profiles":{}}"#, #"{"version":-1,"profiles":{}}"#,
        #"{"version":1.0,"profiles":{}}"#, #"{"version":1e0,"profiles":{}}"#,
        // Escapes, lists, every enum.
        #"{"version":1,"profiles":{"w":{"issuer":"https:\/\/id.example\/\u00e9\ud83d\ude00","helperHosts":[],"#
            + #""scopes":["openid","a b"],"vault":"secret-service","authFlow":"email-otp","grant":"client-credentials","#
            + #""rotateRefreshTokens":false,"helperSignIn":true,"refreshTokenValidity":3600,"#
            + #""oauthEndpoints":{"logoutStyle":"oidc"}}}}"#,
        "  \n{ \"version\" : 1 , \"profiles\" : { } }\n",
    ]

    static let refused = [
        "", "null", "[]", "{", #"{"version":1,"profiles":{}} x"#,
        // Missing or null where the conformance requires a value.
        #"{"profiles":{}}"#, #"{"version":1}"#, #"{"version":null,"profiles":{}}"#, #"{"version":1,"profiles":null}"#,
        #"{"version":1,"profiles":{"w":null}}"#,
        // Wrong types.
        #"{"version":"1","profiles":{}}"#, #"{"version":1,"profiles":[]}"#, #"{"version":1.5,"profiles":{}}"#,
        #"{"version":1e300,"profiles":{}}"#, #"{"version":true,"profiles":{}}"#,
        #"{"version":1,"profiles":{"w":{"region":5}}}"#, #"{"version":1,"profiles":{"w":{"helperHosts":["a",1]}}}"#,
        #"{"version":1,"profiles":{"w":{"helperHosts":"a"}}}"#, #"{"version":1,"profiles":{"w":{"scopes":[null]}}}"#,
        #"{"version":1,"profiles":{"w":{"rotateRefreshTokens":"yes"}}}"#,
        #"{"version":1,"profiles":{"w":{"rotateRefreshTokens":1}}}"#,
        #"{"version":1,"profiles":{"w":{"vault":"bogus"}}}"#, #"{"version":1,"profiles":{"w":{"grant":5}}}"#,
        #"{"version":1,"profiles":{"w":{"refreshTokenValidity":3600.5}}}"#,
        #"{"version":1,"profiles":{"w":{"oauthEndpoints":[]}}}"#,
        #"{"version":1,"profiles":{"w":{"oauthEndpoints":{"logoutStyle":"other"}}}}"#,
        #"{"version":1,"profiles":{},"currentProfile":7}"#,
        // JSONDecoder takes duplicate keys; the bounded parser does not, so JSONDecoder reads this one.
        #"{"version":1,"profiles":{},"version":1}"#,
    ]

    func decoded(_ text: String) -> ConfigFile? {
        try? JSONDecoder().decode(ConfigFile.self, from: Data(text.utf8))
    }

    @Test(arguments: readAlike) func readsWhatTheConformanceReads(_ text: String) {
        let read = ConfigStore.read(Array(text.utf8))
        #expect(read != nil)
        #expect(read == decoded(text))
    }

    /// A refusal is never a different answer: JSONDecoder reads the file instead, as it always did.
    @Test(arguments: refused) func refusesTheRest(_ text: String) {
        #expect(ConfigStore.read(Array(text.utf8)) == nil)
    }

    /// Every setting is read: a profile with all of them set reads back as the conformance wrote it. A setting added
    /// to `ProfileSettings` fails here until both this profile and `ProfileSettings(fields:)` name it.
    @Test func everySettingIsRead() throws {
        var settings = ProfileSettings()
        settings.region = "eu-west-1"
        settings.userPoolId = "eu-west-1_Pool1"
        settings.clientId = "client"
        settings.endpoint = "https://cognito.example/"
        settings.issuer = "https://issuer.example/"
        settings.jwksURL = "https://issuer.example/jwks"
        settings.hostedUI = "https://login.example"
        settings.redirectURIs = ["http://127.0.0.1:8400/callback"]
        settings.scopes = ["openid"]
        settings.identityProvider = "Google"
        var endpoints = OAuthEndpointSettings()
        endpoints.authorization = "https://login.example/authorize"
        endpoints.token = "https://login.example/token"
        endpoints.userInfo = "https://login.example/userinfo"
        endpoints.revocation = "https://login.example/revoke"
        endpoints.logout = "https://login.example/logout"
        endpoints.deviceAuthorization = "https://login.example/device"
        endpoints.logoutStyle = .oidc
        settings.oauthEndpoints = endpoints
        settings.signOutURI = "http://127.0.0.1:8400/signed-out"
        settings.vault = .file
        settings.authFlow = .password
        settings.rotateRefreshTokens = true
        settings.caBundle = "/etc/ssl/private-ca.pem"
        settings.helperHosts = ["git.example.com"]
        settings.identityPoolId = "eu-west-1:00000000-0000-4000-8000-000000000000"
        settings.identityEndpoint = "https://identity.example/"
        settings.awsRoleARN = "arn:aws:iam::123456789012:role/Reader"
        settings.grant = .clientCredentials
        settings.refreshTokenValidity = 86_400
        settings.helperSignIn = true
        for value in [settings as Any, endpoints] {
            let unset = Mirror(reflecting: value).children.filter { "\($0.value)" == "nil" }.compactMap(\.label)
            #expect(unset.isEmpty, "set these here too: \(unset)")
        }
        var file = ConfigFile(profiles: ["work": settings])
        file.currentProfile = "work"
        let written = try JSONEncoder().encode(file)
        #expect(ConfigStore.read(Array(written)) == file)
    }
}
