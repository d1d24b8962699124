import Foundation
import TestSupport
import Testing

/// The browser sign-in's options that need no authorization server: the authorize URL the CLI prints, how it
/// reaches a browser, and the endpoints `configure` keeps. In-process, but for the runs on a terminal.
@Suite(.serialized) struct BrowserOptionTests {
    /// The registered redirect port, free when the tests start.
    static let port = FreeLoopbackPorts.run(of: 1)[0]
    let cli: HeadlessCLI

    init() async throws {
        cli = try HeadlessCLI()
        let configure = await cli.runInProcess([
            "configure", "--user-pool-id", "eu-west-1_AbC123", "--client-id", "abc123",
            "--hosted-ui", "https://example.auth.eu-west-1.amazoncognito.com/",
            "--redirect-uri", "http://127.0.0.1:\(Self.port)/callback", "--sign-out-uri", "https://example.com/out",
            "--vault", "file",
        ])
        guard configure.status == 0 else { throw TestFixtureError("configure: \(configure.stderrText)") }
    }

    private func printedURL(_ extra: [String]) async throws -> String {
        let login = await cli.runInProcess(["login", "--no-browser", "--timeout", "1"] + extra)
        #expect(login.status == 1, "\(login.stderrText)")
        #expect(login.stderrText.contains("No sign-in response arrived from the browser in time"))
        #expect(login.stderrText.contains("ssh -L \(Self.port):127.0.0.1:\(Self.port)"))
        return login.stderrText.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix("https://") } ?? ""
    }

    @Test func theAuthorizeURLCarriesPKCEStateNonceAndNoProviderUnlessOneIsGiven() async throws {
        let url = try #require(URLComponents(string: try await printedURL([])))
        #expect(url.host == "example.auth.eu-west-1.amazoncognito.com" && url.path == "/oauth2/authorize")
        let query = Dictionary(uniqueKeysWithValues: (url.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(query["response_type"] == "code" && query["client_id"] == "abc123")
        #expect(query["redirect_uri"] == "http://127.0.0.1:\(Self.port)/callback")
        #expect(query["code_challenge_method"] == "S256" && query["code_challenge"]?.count == 43)
        #expect((query["state"]?.count ?? 0) >= 43 && (query["nonce"]?.count ?? 0) >= 43)
        #expect(query["scope"] == "openid email profile")
        #expect(
            query["identity_provider"] == nil,
            "a profile configured without --identity-provider shows the Hosted UI's page")

        let google = try await printedURL(["--identity-provider", "Google"])
        #expect(google.contains("identity_provider=Google"))
        let hostedPage = try await printedURL(["--identity-provider", ""])
        #expect(!hostedPage.contains("identity_provider="), "'' shows the Hosted UI's own page")
        let other = try await printedURL(["--identity-provider", "Okta"])
        #expect(other.contains("identity_provider=Okta"))
    }

    @Test func onATerminalTheWaitShowsACountdown() async throws {
        let run = try await cli.runOnTerminal(["login", "--no-browser", "--timeout", "3"], answers: [])
        #expect(run.status == 1)
        #expect(run.screen.contains("Waiting for sign-in in the browser... 0:0"))
        #expect(run.screen.contains("left, Ctrl-C to cancel"))
        #expect(run.screen.contains("No sign-in response arrived from the browser in time"))
    }

    @Test func onADesktopTerminalWithoutABrowserLoginSaysWhatToDo() async throws {
        let run = try await cli.runOnTerminal(["login"], answers: [])
        #expect(run.status == 2)
        #expect(run.screen.contains("No desktop session here"), "no DISPLAY in the test's environment")
    }

    @Test func browserFromTheEnvironmentGetsTheURLAndNoneOfAuthVaultsVariables() async throws {
        let scratch = try TemporaryDirectory(prefix: "authvault-browser-env")
        let script = scratch.appending("browser.sh")
        try
            "#!/bin/sh\nenv > \(scratch.appending("env"))\nprintf %s \"$1\" > \(scratch.appending("url.tmp"))\nmv \(scratch.appending("url.tmp")) \(scratch.appending("url"))\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o700)
        let logout = await cli.runInProcess(
            ["logout", "--browser"], extraEnvironment: ["BROWSER": "\(script) %s:firefox"])
        #expect(logout.status == 0, "\(logout.stderrText)")
        let url = String(decoding: try eventualContents(of: scratch.appending("url")), as: UTF8.self)
        #expect(
            url
                == "https://example.auth.eu-west-1.amazoncognito.com/logout?client_id=abc123&logout_uri=https%3A%2F%2Fexample.com%2Fout"
        )
        let environment = String(decoding: try eventualContents(of: scratch.appending("env")), as: UTF8.self)
        #expect(!environment.contains("AUTHVAULT_"), "the vault passphrase stays out of the browser's environment")
    }

    @Test func endpointsCanBeSetOneByOneAndABadDiscoveryURLChangesNothing() async throws {
        let set = await cli.runInProcess([
            "configure", "--token-url", "https://idp.example.com/token", "--logout-style", "oidc",
        ])
        #expect(set.status == 0, "\(set.stderrText)")
        let before = try String(contentsOfFile: cli.configPath, encoding: .utf8)
        #expect(before.contains("https://idp.example.com/token"))
        let insecure = await cli.runInProcess(["configure", "--authorize-url", "http://idp.example.com/authorize"])
        #expect(insecure.status == 2)
        let unreachable = await cli.runInProcess(["configure", "--oidc-discovery", "http://127.0.0.1:9/"])
        #expect(unreachable.status == 5, "\(unreachable.stderrText)")
        #expect(
            try String(contentsOfFile: cli.configPath, encoding: .utf8) == before, "the configuration file is untouched"
        )
    }

    /// Issue 26: plain http to another host is one usage error in one wording for every URL option of configure,
    /// the discovery URL too (which once fetched nothing and ended "localhost).. Set the browser sign-in ...").
    @Test(arguments: [
        "oidc-discovery", "endpoint", "issuer", "jwks-url", "hosted-ui", "authorize-url", "token-url", "userinfo-url",
        "revoke-url", "logout-url", "device-authorization-url", "sign-out-uri", "identity-endpoint",
    ])
    func plainHTTPToAnotherHostIsOneSentenceAndAUsageError(option: String) async throws {
        let before = try String(contentsOfFile: cli.configPath, encoding: .utf8)
        let insecure = await cli.runInProcess(["configure", "--\(option)", "http://idp.example.com/x"])
        #expect(insecure.status == 2, "\(insecure.stderrText)")
        #expect(
            insecure.stderrText
                == "Error: Invalid value 'http://idp.example.com/x' for --\(option): use https:// (plain http:// is "
                + "accepted only for 127.0.0.0/8, [::1] and localhost).\n", "\(insecure.stderrText)")
        #expect(
            try String(contentsOfFile: cli.configPath, encoding: .utf8) == before, "the configuration file is untouched"
        )
    }
}
