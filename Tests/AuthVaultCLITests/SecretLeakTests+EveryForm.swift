import Foundation
import TestSupport
import Testing

/// A token endpoint that shows the request back in every encoding a leak may take (http_test_server.py's
/// /echo-every-form: the form body raw, decoded and encoded again with upper- and lower-case hex and `+`, in base64
/// and base64url, the Basic credential and its pair re-encoded with the secret raw): `login --device`, the client
/// credentials grant and a refresh, with `--debug`, show none of the device code, the client secret or the refresh
/// token in any form, and the sweep itself looks for every form.
extension SecretLeakTests {
    static let deviceCode = "DEV/CODE+SECRET== ü"
    static let clientSecret = "s3cret+x/y=z %zz"

    /// An OpenID profile whose device endpoint (http_test_server.py's /device-answer) hands out `deviceCode` and whose
    /// token endpoint echoes every form; the client authenticates with `clientSecret` in HTTP Basic.
    static func echoingDeviceProfile() async throws -> (ScriptServer, HeadlessCLI) {
        let server = try await ScriptServer.start(script: "http_test_server.py")
        let cli = try HeadlessCLI()
        cli.remember(deviceCode, as: "the device code")
        cli.remember(clientSecret, as: "the app client secret")
        let answer = try JSONSerialization.data(withJSONObject: [
            "device_code": deviceCode, "user_code": "WDJB-MJHT", "verification_uri": server.baseURL + "/device",
            "expires_in": 30, "interval": 1,
        ])
        let encoded = answer.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(
            of: "/", with: "_"
        )
        .replacingOccurrences(of: "=", with: "")
        let configure = try await cli.run(
            [
                "configure", "--client-id", "device-client", "--issuer", server.baseURL, "--authorize-url",
                server.baseURL + "/authorize",
                "--token-url", server.baseURL + "/echo-every-form/token", "--jwks-url", server.baseURL + "/jwks",
                "--device-authorization-url", server.baseURL + "/device-answer/" + encoded, "--vault", "file",
                "--client-secret-stdin",
            ], stdin: clientSecret + "\n")
        try #require(configure.status == 0, "\(configure.stderrText)")
        return (server, cli)
    }

    @Test func aDeviceSignInWhoseTokenEndpointEchoesEveryFormShowsNone() async throws {
        let (server, cli) = try await Self.echoingDeviceProfile()
        let login = try await cli.run(["login", "--device", "--debug"])
        #expect(login.status != 0, "\(login.stderrText)")
        #expect(login.stderrText.contains("and enter the code:  WDJB-MJHT"), "\(login.stderrText)")
        #expect(
            login.stderrText.contains("invalid_grant") && login.stderrText.contains("<redacted>"), "\(login.stderrText)"
        )
        #expect(
            login.stderrText.contains("HTTP POST \(server.baseURL)/echo-every-form/token → 400"), "\(login.stderrText)")
        cli.expectNoSecretLeaks()
    }

    /// The sweep is no rubber stamp: each encoding the endpoint uses is one it finds.
    @Test func theSweepFindsEveryFormTheEndpointEchoes() throws {
        let secret = Self.deviceCode
        let upper = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let lower = upper.replacing(/%[0-9A-F]{2}/) { $0.output.lowercased() }
        let base64 = Data(secret.utf8).base64EncodedString()
        for form in [
            secret, upper, lower, upper.replacingOccurrences(of: "%20", with: "+"), "DEV/CODE%2bSECRET== %C3%BC",
            base64,
            base64.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "+", with: "-"),
            Data(("x=" + secret + "&").utf8).base64EncodedString(), Data(("xy=" + secret).utf8).base64EncodedString(),
        ] {
            #expect(SecretScan.holds("error: \(form) refused", secret), "\(form)")
        }
        #expect(!SecretScan.holds("error: DEV/CODE+SECRET refused", secret))
    }

    /// The client credentials grant: the Basic credential, echoed whole, decoded and re-encoded, leaves nothing.
    @Test func theClientCredentialsGrantAgainstAnEchoingEndpointShowsNoFormOfTheSecret() async throws {
        let server = try await ScriptServer.start(script: "http_test_server.py")
        let cli = try HeadlessCLI()
        cli.remember(Self.clientSecret, as: "the app client secret")
        let configure = try await cli.run(
            [
                "configure", "--user-pool-id", "us-east-1_Machine", "--client-id", "machine-client",
                "--grant", "client-credentials", "--scopes", "api/read",
                "--hosted-ui", server.baseURL + "/echo-every-form", "--vault", "file", "--client-secret-stdin",
            ],
            stdin: Self.clientSecret + "\n")
        try #require(configure.status == 0, "\(configure.stderrText)")
        let token = try await cli.run(["token", "--debug"])
        #expect(token.status != 0 && token.stderrText.contains("invalid_grant"), "\(token.stderrText)")
        #expect(token.stderrText.contains("<redacted>"), "\(token.stderrText)")
        cli.expectNoSecretLeaks()
    }

    /// Cognito's refresh refused with a message that carries the refresh token in every form.
    @Test func aRefreshErrorThatEchoesTheRefreshTokenInEveryFormIsRedacted() async throws {
        let profile = try await SignedInProfile.make()
        let aged = try await profile.cli.ageTokens(expiringIn: -120)
        let refreshToken = try #require(aged["refreshToken"] as? String)
        let upper = refreshToken.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let lower = upper.replacing(/%[0-9A-F]{2}/) { $0.output.lowercased() }
        let forms = [
            refreshToken, upper, lower, Data(refreshToken.utf8).base64EncodedString(),
            Data(("token=" + refreshToken).utf8).base64EncodedString(),
        ]
        try await profile.proxy.inject(
            Array(
                repeating: .cognitoError(
                    "InternalErrorException", status: 500,
                    message: "could not refresh " + forms.joined(separator: " ")), count: 4))
        let output = try await profile.cli.run(["token", "--debug"])
        #expect(output.status == 5)
        #expect(output.stderrText.contains("could not refresh <redacted>"), "Cognito's message is passed on")
        profile.cli.expectNoSecretLeaks()
    }
}
