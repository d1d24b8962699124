import Foundation
import TestSupport
import Testing

/// `authvault login` through the browser against django-oauth-toolkit (the Hosted UI stand-in), with headless
/// Chromium driven by Playwright as the browser, and scripted browsers for what a real one would not do.
@Suite(.serialized) struct BrowserLoginTests {
    @Test func signInRefreshWithRotationWhoamiAndSignOut() async throws {
        let profile = try await BrowserProfile.make()
        let cli = profile.cli
        let login = try await profile.login(script: "playwright_browser.py", ["--timeout", "70"])
        let browser = try profile.browserOutcome()
        #expect(login.status == 0, "\(login.stderrText) \(browser)")
        #expect(login.stderrText.contains("Signed in as fed@example.com via Google"))
        #expect(login.stderrText.contains("/oauth2/authorize?"), "the URL is printed too")
        #expect(browser["error"] == nil, "\(browser)")
        #expect(browser["landed"] as? String == OAuthServer.redirectURI)
        #expect(browser["title"] as? String == "Signed in")
        #expect((browser["text"] as? String ?? "").contains("Signed in as fed@example.com"))

        let status = try await cli.run(["status", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: status.stdout) as? [String: Any])
        #expect(report["origin"] as? String == "browser")
        #expect(report["identities"] as? [String] == ["Google:1122334455"])
        let whoami = try await cli.run(["whoami"])
        #expect(whoami.status == 0, "\(whoami.stderrText)")
        #expect(whoami.stdoutText.contains("Federated:  Google:1122334455"))
        #expect(whoami.stdoutText.contains("fed@example.com"))

        // A refresh at the token endpoint, which rotates the refresh token; the new one is stored.
        let before = try #require(try await cli.storedRecord())
        _ = try await cli.ageTokens(expiringIn: -60)
        let token = try await cli.run(["token"])
        #expect(token.status == 0, "\(token.stderrText)")
        let after = try #require(try await cli.storedRecord())
        let rotated = !sameSecret(after["refreshToken"] as? String, before["refreshToken"] as? String)
        let served = sameSecret(after["accessToken"] as? String, token.stdoutText.trimmingCharacters(in: .newlines))
        #expect(rotated, "the rotated refresh token is what the vault holds")
        #expect(served, "the printed token is the refreshed one in the vault")
        #expect(after["origin"] as? String == "browser")
        let second = try await cli.run(["token"])
        expectSecret(token.stdoutText, equals: second.stdoutText, "a fresh token is served from the vault")

        // Sign-out revokes at the revocation endpoint and opens the logout page.
        let logoutLog = profile.scratch.appending("logout-url")
        let logout = try await cli.run([
            "logout", "--browser-command", "sh -c 'printf %s \"$1\" > \(logoutLog)' logout",
        ])
        #expect(logout.status == 0, "\(logout.stderrText)")
        #expect(logout.stderrText.contains("Revoked the refresh token."))
        #expect(logout.stderrText.contains("Opened the Hosted UI's logout page"), "\(logout.stderrText)")
        let logoutURL = String(decoding: try eventualContents(of: logoutLog), as: UTF8.self)
        #expect(logoutURL.hasPrefix(profile.server.baseURL + "/logout?client_id=authvault-public"))
        #expect(logoutURL.contains("post_logout_redirect_uri=" + OAuthServerURLs.encoded(OAuthServer.signOutURI)))
        let afterLogout = try await cli.run(["token"])
        #expect(afterLogout.status == 3)
        cli.expectNoSecretLeaks()
    }

    @Test func aClientWithASecretSignsInWithHTTPBasic() async throws {
        let profile = try await BrowserProfile.make(client: OAuthServer.confidentialClient)
        let login = try await profile.login(
            script: "scripted_browser.py", as: OAuthServer.poolUser, mode: "record",
            environment: ["TEST_BROWSER_SAVED": profile.scratch.appending("saved")])
        #expect(login.status == 0, "\(login.stderrText)")
        #expect(login.stderrText.contains("Signed in as kim@example.com"))
        profile.cli.expectNoSecretLeaks()
    }

    @Test func strayRequestsAWrongStateAndASlowConnectionDoNotStopTheRealCallback() async throws {
        let profile = try await BrowserProfile.make()
        let login = try await profile.login(script: "scripted_browser.py", mode: "unruly")
        #expect(login.status == 0, "\(login.stderrText)")
        let browser = try profile.browserOutcome(timeout: 60)
        #expect(browser["error"] == nil, "\(browser)")
        #expect(browser["favicon"] as? Int == 404)
        #expect(browser["wrongState"] as? Int == 400)
        #expect(browser["callback"] as? Int == 200)
        #expect((browser["page"] as? String ?? "").contains("Signed in as fed@example.com"))
    }

    @Test func theNextRegisteredPortIsUsedWhenTheFirstIsBusyAndEveryPortBusyIsAClearError() async throws {
        let profile = try await BrowserProfile.make()
        let first = try LoopbackPort(OAuthServer.redirectPort)
        let login = try await profile.login(
            script: "scripted_browser.py", mode: "record",
            environment: ["TEST_BROWSER_SAVED": profile.scratch.appending("saved")])
        #expect(login.status == 0, "\(login.stderrText)")
        #expect(try profile.browserOutcome()["redirectURI"] as? String == OAuthServer.secondRedirectURI)

        let second = try LoopbackPort(OAuthServer.secondRedirectPort)
        let busy = try await profile.login(script: "scripted_browser.py", mode: "silent", ["--force"])
        #expect(busy.status == 2)
        #expect(
            busy.stderrText.contains(
                "Every registered redirect port is in use by another program (\(OAuthServer.redirectPort), \(OAuthServer.secondRedirectPort))"
            ))
        _ = (first, second)
    }

    @Test func accessDeniedEndsTheWaitWithWordsAndStoresNothing() async throws {
        let profile = try await BrowserProfile.make()
        let login = try await profile.login(script: "scripted_browser.py", mode: "deny")
        #expect(login.status == 3)
        #expect(login.stderrText.contains("the sign-in was refused"))
        #expect(login.stderrText.contains("User cancelled"))
        #expect(try await profile.cli.storedRecord() == nil)
    }

    @Test func noCallbackInTimeEndsWithATimeOutAndFreesThePort() async throws {
        let profile = try await BrowserProfile.make()
        let login = try await profile.login(script: "scripted_browser.py", mode: "silent", ["--timeout", "2"])
        #expect(login.status == 1)
        #expect(login.stderrText.contains("No sign-in response arrived from the browser in time"))
        _ = try LoopbackPort(OAuthServer.redirectPort)
    }

    @Test func anIDTokenWithAnotherNonceIsRejectedAndNothingIsStored() async throws {
        let profile = try await BrowserProfile.make()
        let login = try await profile.login(script: "scripted_browser.py", mode: "nonce")
        #expect(login.status == 1)
        #expect(login.stderrText.contains("failed verification"))
        #expect(login.stderrText.contains("nothing was stored"))
        #expect(try await profile.cli.storedRecord() == nil)
        #expect((try profile.browserOutcome()["page"] as? String ?? "").contains("Sign-in failed"))
    }

    @Test func aReplayedCodeIsRefusedAndTheSessionStaysAsItWas() async throws {
        let profile = try await BrowserProfile.make()
        let saved = profile.scratch.appending("saved")
        let first = try await profile.login(
            script: "scripted_browser.py", mode: "record", environment: ["TEST_BROWSER_SAVED": saved])
        #expect(first.status == 0, "\(first.stderrText)")
        let kept = profile.cli.recordBytes
        let replay = try await profile.login(
            script: "scripted_browser.py", mode: "replay", ["--force"], environment: ["TEST_BROWSER_SAVED": saved])
        #expect(replay.status == 3)
        #expect(replay.stderrText.contains("refused the code"))
        #expect(profile.cli.recordBytes == kept, "the vault was not written")
    }

    @Test func pasteReadsTheRedirectURLWithoutEchoOnATerminal() async throws {
        let profile = try await BrowserProfile.make()
        let cli = profile.cli
        let cookies = profile.scratch.appending("cookies.txt")
        let user = OAuthServer.federatedUser
        let output = try await OffPool.run {
            try ProcessRunner.run(
                PeerPython.path,
                [
                    ScriptServer.scriptPath("oauth_server/pty_paste.py"), cookies, user.username,
                    user.password, "--", cli.authvault, "login", "--paste",
                ],
                environment: cli.environment.merging(["TERM": "dumb"]) { $1 }, timeout: 120)
        }
        let result = try #require(
            try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any], "\(output.stderrText)")
        let screen = result["screen"] as? String ?? ""
        #expect(result["pasted"] as? Bool == true, "\(screen)")
        #expect(result["status"] as? Int == 0, "\(screen)")
        #expect(screen.contains("Signed in as fed@example.com via Google"))
        #expect(!screen.contains("?code=") && !screen.contains("&code="), "the pasted redirect is not echoed")
        #expect(try await cli.storedRecord()?["origin"] as? String == "browser")
    }

    /// A Ctrl-C the moment the port listens is a clean cancel: 130, never death by SIGINT (which Process reports as
    /// status 2, as a whole-suite run under ThreadSanitizer once saw while the handler came after the port).
    @Test func ctrlCCancelsTheWaitAndFreesThePort() async throws {
        let profile = try await BrowserProfile.make()
        for round in 0..<8 {
            let process = try InteractiveProcess(
                profile.cli.authvault, ["login", "--no-browser"], environment: profile.cli.environment)
            let listening = try await OffPool.run {
                LoopbackPort.waitUntilListening(OAuthServer.redirectPort, timeout: 20)
            }
            #expect(listening, "round \(round)")
            process.kill(signal: SIGINT)
            #expect(process.finish() == 130 && process.terminationSignal == nil, "round \(round)")
            _ = try LoopbackPort(OAuthServer.redirectPort)
        }
    }

    @Test func withoutATerminalLoginSaysWhichFlagToUse() async throws {
        let profile = try await BrowserProfile.make()
        let plain = try await profile.cli.run(["login"])
        #expect(plain.status == 2)
        #expect(plain.stderrText.contains("--no-browser or --paste"))
        let forbidden = try await profile.cli.run(["--non-interactive", "login", "--browser"])
        #expect(forbidden.status == 2)
        #expect(forbidden.stderrText.contains("never opens a browser"))
        let mixed = try await profile.cli.run(["login", "--paste", "--password-stdin"])
        #expect(mixed.status == 2)
    }
}

enum OAuthServerURLs {
    /// Form-encoded as the CLI sends it (RFC 3986 unreserved characters kept).
    static func encoded(_ value: String) -> String {
        value.addingPercentEncoding(
            withAllowedCharacters: CharacterSet(
                charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")) ?? value
    }
}
