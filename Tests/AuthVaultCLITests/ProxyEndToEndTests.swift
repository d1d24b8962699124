import Foundation
import TestSupport
import Testing

/// The binary behind a proxy (Debian's tinyproxy) as a user sets one: curl's variables in the environment. A remote
/// endpoint goes through it; a loopback one (an emulator, a local provider) never does, whatever the variables say,
/// and a proxy that is down is reported as network trouble that keeps the session.
@Suite struct ProxyEndToEndTests {
    /// Every proxy variable a user may have set, pointing at one proxy.
    private static func everyProxyVariable(_ url: String) -> [String: String] {
        ["http_proxy": url, "https_proxy": url, "all_proxy": url, "HTTPS_PROXY": url, "ALL_PROXY": url]
    }

    /// The password, the tokens and the refresh of a sign-in to the local emulator never reach the proxy: it sees
    /// not one connection.
    @Test func aLoopbackSignInNeverReachesTheProxy() async throws {
        let pool = try await CognitoPool.make()
        try await pool.createUser("alice", password: "Correct-Horse-9!")
        let proxy = try TinyProxy()
        let cli = try HeadlessCLI()
        try await cli.configure(pool)
        let variables = Self.everyProxyVariable(proxy.url)
        let login = try await cli.run(
            ["login", "--password", "--username", "alice", "--password-stdin"],
            stdin: "Correct-Horse-9!\n", extraEnvironment: variables)
        cli.remember("Correct-Horse-9!", as: "the password")
        #expect(login.status == 0, "\(login.stderrText)")
        _ = try await cli.storedRecord()
        for command in [["refresh"], ["token"], ["whoami"]] {
            let output = try await cli.run(command, extraEnvironment: variables)
            #expect(output.status == 0, "\(command): \(output.stderrText)")
        }
        #expect(proxy.connections().isEmpty, "\(proxy.connections())")
        cli.expectNoSecretLeaks()
    }

    /// A remote endpoint goes through the proxy of the environment (a CONNECT tunnel: the proxy sees the host, never
    /// the request), and a proxy that cannot reach it is network trouble that keeps the session.
    @Test func aRemoteEndpointGoesThroughTheProxyAndItsFailureKeepsTheSession() async throws {
        let profile = try await SignedInProfile.make()
        let proxy = try TinyProxy()
        let remote = "https://cognito-idp.proxied.test:9/"
        let configure = try await profile.cli.run(["configure", "--endpoint", remote])
        #expect(configure.status == 0, "\(configure.stderrText)")
        let refresh = try await profile.cli.run(["refresh"], extraEnvironment: ["https_proxy": proxy.url])
        #expect(refresh.status == 5, "\(refresh.stderrText)")
        #expect(refresh.stderrText.contains("the proxy failed"), "\(refresh.stderrText)")
        // One tunnel a try (network trouble is retried).
        let requests = try proxy.requests()
        #expect(
            !requests.isEmpty && requests.allSatisfy { $0 == "CONNECT cognito-idp.proxied.test:9 HTTP/1.1" },
            "\(requests)")
        #expect(try await profile.cli.run(["token"]).status == 0, "the session is kept")
        profile.cli.expectNoSecretLeaks()
    }

    @Test func aProxyThatIsDownIsNetworkTroubleAndKeepsTheSession() async throws {
        let profile = try await SignedInProfile.make()
        let configure = try await profile.cli.run(["configure", "--endpoint", "https://cognito-idp.proxied.test:9/"])
        #expect(configure.status == 0, "\(configure.stderrText)")
        let closed = FreeLoopbackPorts.run(of: 1)[0]
        let refresh = try await profile.cli.run(
            ["refresh"], extraEnvironment: ["https_proxy": "http://127.0.0.1:\(closed)"])
        #expect(refresh.status == 5, "\(refresh.stderrText)")
        #expect(refresh.stderrText.contains("the proxy failed"), "\(refresh.stderrText)")
        #expect(refresh.stderrText.contains("127.0.0.1 port \(closed)"), "\(refresh.stderrText)")
        #expect(try await profile.cli.run(["token"]).status == 0, "the session is kept")
        profile.cli.expectNoSecretLeaks()
    }
}
