import Foundation
import TestSupport
import Testing

/// Any OpenID provider through the binary, configured from its discovery document with no user pool:
/// django-oauth-toolkit in its default configuration (opaque access tokens, its own claims, no Cognito shapes), and
/// oidc-provider-mock, an independent server (Authlib), with a client secret and ES256 ID tokens whose header has no
/// `kid`.
@Suite(.serialized) struct OpenIDProviderTests {
    @Test func defaultDjangoOAuthToolkitSignsInRefreshesWithRotationAnswersWhoamiAndSignsOut() async throws {
        let profile = try await BrowserProfile.make(server: .defaultConfiguration)
        let cli = profile.cli
        let server = profile.server
        let configuration = try String(contentsOfFile: cli.configPath, encoding: .utf8)
        #expect(!configuration.contains("userPoolId"), "a complete profile without a user pool: \(configuration)")
        #expect(configuration.contains(server.issuer))

        // A real browser (Chromium through Playwright) signs in at DOT's login form.
        let login = try await profile.login(
            script: "playwright_browser.py", as: OAuthServer.poolUser, ["--timeout", "70"])
        let browser = try profile.browserOutcome()
        #expect(login.status == 0, "\(login.stderrText) \(browser)")
        #expect(browser["error"] == nil, "\(browser)")
        #expect(login.stderrText.contains(server.issuer + "/authorize/?"), "the URL is printed")
        #expect(!login.stderrText.contains("identity_provider"), "Cognito's parameter goes to Cognito only")
        let record = try #require(try await cli.storedRecord())
        let signedInIDToken = try #require(record["idToken"] as? String)
        let subject = try #require(TestJWT.claims(of: signedInIDToken)?["sub"] as? String)

        let status = try await cli.run(["status", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: status.stdout) as? [String: Any])
        #expect(report["origin"] as? String == "browser")
        #expect(report["userPoolId"] == nil)
        #expect(report["issuer"] as? String == server.issuer)

        // DOT's access tokens are opaque: served as they are, never parsed.
        let token = try await cli.run(["token"])
        let accessToken = token.stdoutText.trimmingCharacters(in: .newlines)
        #expect(token.status == 0, "\(token.stderrText)")
        #expect(!accessToken.isEmpty && !accessToken.contains("."), "an opaque access token")
        expectSecret(record["accessToken"] as? String, equals: accessToken)

        // A refresh at the token endpoint, which rotates the refresh token; the new one is stored.
        _ = try await cli.ageTokens(expiringIn: -60)
        let refreshed = try await cli.run(["token"])
        #expect(refreshed.status == 0, "\(refreshed.stderrText)")
        let after = try #require(try await cli.storedRecord())
        expectSecret(
            after["refreshToken"] as? String, differsFrom: record["refreshToken"] as? String,
            "the refresh token rotated")
        expectSecret(after["accessToken"] as? String, equals: refreshed.stdoutText.trimmingCharacters(in: .newlines))
        // Outside #expect, which would print the token it looked at.
        let refreshedIsOpaque = !refreshed.stdoutText.contains(".")
        #expect(refreshedIsOpaque)
        let again = try await cli.run(["token"])
        expectSecret(refreshed.stdoutText, equals: again.stdoutText, "a fresh opaque token is served from the vault")

        // whoami asks the userinfo endpoint, with DOT's own claims (sub is the user's primary key).
        let whoami = try await cli.run(["whoami", "--json"])
        #expect(whoami.status == 0, "\(whoami.stderrText)")
        let user = try #require(try JSONSerialization.jsonObject(with: whoami.stdout) as? [String: Any])
        #expect(user["source"] as? String == "browser")
        #expect((user["attributes"] as? [String: String])?["sub"] == subject)

        // The user-pool operations say they need a user pool, and which command to use instead: the browser
        // sign-in as it goes here, with no browser to open (pasted back).
        cli.remember(OAuthServer.poolUser.password, as: "the password")
        let password = try await cli.run(
            ["login", "--password", "--username", "kim", "--password-stdin"],
            stdin: OAuthServer.poolUser.password + "\n")
        #expect(password.status != 0)
        #expect(password.stderrText.contains("not a Cognito user pool"), "\(password.stderrText)")
        #expect(password.stderrText.contains("'authvault login --profile default --paste'"), "\(password.stderrText)")
        let mfa = try await cli.run(["mfa", "status"])
        #expect(mfa.status != 0)
        #expect(
            mfa.stderrText.contains("not a Cognito user pool")
                && mfa.stderrText.contains("'authvault login --profile default --paste'"), "\(mfa.stderrText)")
        let global = try await cli.run(["logout", "--global"])
        #expect(global.status == 2)
        #expect(global.stderrText.contains("'authvault logout --profile default --browser'"), "\(global.stderrText)")
        #expect(try await cli.run(["token"]).status == 0, "a refused --global changed nothing")

        // Sign-out: the browser gets the end_session_endpoint with the client's id, never the ID token.
        let idToken = try #require(try await cli.storedRecord()?["idToken"] as? String)
        let argumentsLog = profile.scratch.appending("logout-arguments")
        let logout = try await cli.run([
            "logout", "--browser-command", "sh -c 'printf \"%s\\n\" \"$0\" \"$@\" > \(argumentsLog)' browser",
        ])
        #expect(logout.status == 0, "\(logout.stderrText)")
        #expect(logout.stderrText.contains("names no revocation endpoint"), "\(logout.stderrText)")
        #expect(logout.stderrText.contains("Opened the provider's logout page"), "\(logout.stderrText)")
        let arguments = String(decoding: try eventualContents(of: argumentsLog), as: UTF8.self)
        let tokenInArguments = arguments.contains(idToken)
        #expect(!tokenInArguments, "the ID token is on the browser's command line")
        let logoutURL = try #require(arguments.split(separator: "\n").last.map(String.init))
        #expect(
            logoutURL == server.issuer + "/logout/?client_id=authvault-public&post_logout_redirect_uri="
                + OAuthServerURLs.encoded(OAuthServer.signOutURI),
            "\(tokenInArguments ? "(holds the ID token)" : logoutURL)")
        // DOT takes that URL: it asks the person to confirm, then sends the browser to the sign-out URI.
        let signedOut = try await server.browse(
            logoutURL, as: nil, session: try BrowserSession(), stopAt: OAuthServer.signOutURI)
        #expect(signedOut.redirect == OAuthServer.signOutURI)
        #expect(try await cli.run(["token"]).status == 3)
        cli.expectNoSecretLeaks()
    }

    @Test func anIndependentProviderSignsInWithAClientSecretRefreshesAnswersWhoamiAndSignsOut() async throws {
        let provider = try await OIDCProviderMock.start()
        let cli = try HeadlessCLI()
        let scratch = try TemporaryDirectory(prefix: "authvault-oidc-mock")
        let secret = "mock-client-secret/+="
        cli.remember(secret, as: "the app client secret")
        let configure = try await cli.run(
            [
                "configure", "--oidc-discovery", provider.discoveryURL, "--client-id", "authvault-mock",
                "--redirect-uri", OAuthServer.redirectURI, "--sign-out-uri", OAuthServer.signOutURI,
                "--vault", "file", "--client-secret-stdin",
            ], stdin: secret + "\n")
        #expect(configure.status == 0, "\(configure.stderrText)")

        let browserLog = scratch.appending("browser.json")
        let login = try await cli.run(
            ["login", "--browser-command", "\(PeerPython.path) \(ScriptServer.scriptPath("oidc_mock/browser.py"))"],
            extraEnvironment: ["TEST_BROWSER_LOG": browserLog, "TEST_BROWSER_USER": "jane"])
        let browser =
            try JSONSerialization.jsonObject(with: try eventualContents(of: browserLog)) as? [String: Any] ?? [:]
        #expect(login.status == 0, "\(login.stderrText) \(browser)")
        #expect(browser["callback"] as? Int == 200, "\(browser)")
        #expect(login.stderrText.contains("Signed in as jane"), "\(login.stderrText)")
        let record = try #require(try await cli.storedRecord())
        let idToken = try #require(record["idToken"] as? String)
        #expect(
            TestJWT.header(of: idToken)?["alg"] as? String == "ES256",
            "verified with the P-256 key of the provider's JWKS")
        #expect(TestJWT.header(of: idToken)?["kid"] == nil)

        let token = try await cli.run(["token"])
        #expect(token.status == 0, "\(token.stderrText)")
        let opaque = !token.stdoutText.contains(".")
        #expect(opaque, "an opaque access token")

        // This server refreshes without a new refresh token or ID token: both are kept.
        _ = try await cli.ageTokens(expiringIn: -60)
        let refreshed = try await cli.run(["token"])
        #expect(refreshed.status == 0, "\(refreshed.stderrText)")
        expectSecret(token.stdoutText, differsFrom: refreshed.stdoutText, "a new access token")
        let after = try #require(try await cli.storedRecord())
        expectSecret(after["refreshToken"] as? String, equals: record["refreshToken"] as? String)

        let whoami = try await cli.run(["whoami", "--json"])
        #expect(whoami.status == 0, "\(whoami.stderrText)")
        let user = try #require(try JSONSerialization.jsonObject(with: whoami.stdout) as? [String: Any])
        #expect((user["attributes"] as? [String: String])?["sub"] == "jane")

        let urlLog = scratch.appending("logout-url")
        let logout = try await cli.run(["logout", "--browser-command", "sh -c 'printf %s \"$1\" > \(urlLog)' browser"])
        #expect(logout.status == 0, "\(logout.stderrText)")
        let logoutURL = String(decoding: try eventualContents(of: urlLog), as: UTF8.self)
        #expect(
            logoutURL == provider.issuer + "/oauth2/end_session?client_id=authvault-mock&post_logout_redirect_uri="
                + OAuthServerURLs.encoded(OAuthServer.signOutURI))
        #expect(try await cli.run(["token"]).status == 3)
        cli.expectNoSecretLeaks()
    }
}
