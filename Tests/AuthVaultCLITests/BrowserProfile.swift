import Foundation
import TestSupport

/// A profile whose browser sign-in goes to django-oauth-toolkit (the Hosted UI stand-in, or DOT in its default
/// configuration as any OpenID provider, with no user pool), configured from its discovery document, with the file
/// vault; and the browser commands the tests hand to `authvault login`.
struct BrowserProfile {
    let server: OAuthServer
    let cli: HeadlessCLI
    let client: OAuthServer.Client
    /// Where the test's browser commands write what they saw.
    let scratch: TemporaryDirectory
    var browserLog: String { scratch.appending("browser.json") }

    static func make(
        client: OAuthServer.Client = OAuthServer.publicClient,
        redirectURIs: [String] = [OAuthServer.redirectURI, OAuthServer.secondRedirectURI],
        server configuration: OAuthServer.Configuration = .cognitoShaped
    ) async throws -> BrowserProfile {
        let server =
            configuration == .cognitoShaped ? try await OAuthServer.shared() : try await OAuthServer.sharedDefault()
        return try await make(on: server, client: client, redirectURIs: redirectURIs)
    }

    /// A profile of a server the test started itself (`OAuthServer.start`).
    static func make(
        on server: OAuthServer, client: OAuthServer.Client = OAuthServer.publicClient,
        redirectURIs: [String] = [OAuthServer.redirectURI, OAuthServer.secondRedirectURI]
    ) async throws -> BrowserProfile {
        let configuration = server.configuration
        let cli = try HeadlessCLI()
        let userPool = configuration == .cognitoShaped ? ["--user-pool-id", "us-east-1_Browser"] : []
        var arguments =
            ["configure"] + userPool + [
                "--client-id", client.clientId,
                "--oidc-discovery", server.discoveryURL, "--sign-out-uri", OAuthServer.signOutURI, "--vault", "file",
            ]
        arguments += redirectURIs.flatMap { ["--redirect-uri", $0] }
        if let secret = client.clientSecret {
            cli.remember(secret, as: "the app client secret")
            arguments.append("--client-secret-stdin")
        }
        let output = try await cli.run(arguments, stdin: client.clientSecret.map { $0 + "\n" })
        guard output.status == 0 else {
            throw TestFixtureError("configure exited \(output.status): \(output.stderrText)")
        }
        return BrowserProfile(
            server: server, cli: cli, client: client, scratch: try TemporaryDirectory(prefix: "authvault-browser-test"))
    }

    /// `authvault login --browser-command SCRIPT EXTRA`, the script reading `environment` (user, mode, log file).
    func login(
        script: String, as user: OAuthServer.User = OAuthServer.federatedUser, mode: String? = nil,
        _ extra: [String] = [], environment: [String: String] = [:]
    ) async throws -> ProcessOutput {
        var variables = [
            "TEST_BROWSER_LOG": browserLog, "TEST_BROWSER_USER": user.username, "TEST_BROWSER_PASSWORD": user.password,
        ]
        variables["TEST_BROWSER_MODE"] = mode
        try? FileManager.default.removeItem(atPath: browserLog)
        let command = "\(PeerPython.path) \(ScriptServer.scriptPath("oauth_server/\(script)"))"
        let output = try await cli.run(
            ["login", "--browser-command", command] + extra,
            extraEnvironment: variables.merging(environment) { $1 })
        if output.status == 0 { _ = try await cli.storedRecord() }
        return output
    }

    /// What the browser command wrote, once it has (it may still be running when `login` returns).
    func browserOutcome(timeout: TimeInterval = 30) throws -> [String: Any] {
        let data = try eventualContents(of: browserLog, timeout: timeout)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw TestFixtureError("the browser command wrote something other than a JSON object")
        }
        return object
    }
}

/// A file's contents once a process of the test has written them (the scripts write a temporary file and rename it,
/// or write once): a browser command goes on after the CLI that started it has exited.
func eventualContents(of path: String, timeout: TimeInterval = 20) throws -> Data {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if let data = FileManager.default.contents(atPath: path), !data.isEmpty { return data }
        Thread.sleep(forTimeInterval: 0.05)
    }
    throw TestFixtureError("nothing was written to \(path) in \(Int(timeout)) s")
}
