import Foundation
import TestSupport
import Testing

/// Real git (Debian's /usr/bin/git, 2.39) clones over smart HTTPS (a CA the test makes, in GIT_SSL_CAINFO) from a
/// server that lets in only a valid Cognito access token as the Basic password (checked by the server itself
/// against moto's JWKS), with AuthVault set up as a user would: Examples/git/gitconfig in the global git
/// configuration, `git-credential-authvault` on PATH as `make install` links it, `authvault configure
/// --helper-host`. Prompts are off (GIT_TERMINAL_PROMPT=0).
@Suite struct GitCloneTests {
    @Test func cloneWorksAndAfterTheTokenExpiredRefreshesOnce() async throws {
        let git = try await GitSetup.make()
        let cli = git.profile.cli
        let signedIn = try #require(try await cli.storedRecord()?["accessToken"] as? String)
        let firstJTI = try #require(TestJWT.claims(of: signedIn)?["jti"] as? String)

        let first = try await git.clone(into: "first")
        #expect(first.output.status == 0, "\(first.output.stderrText)")
        #expect(git.readme(of: "first") == GitSetup.readme)
        let firstAttempts = try git.server.attempts()
        // git asks its helpers only after the server's challenge, then sends the token on every request.
        #expect(firstAttempts.filter { !$0.accepted }.map(\.reason) == ["no credentials"])
        #expect(firstAttempts.filter(\.accepted).count >= 2, "the ref advertisement and the pack")
        #expect(firstAttempts.filter(\.accepted).allSatisfy { $0.jti == firstJTI }, "the signed-in access token")

        let baseline = try await git.profile.proxy.records().count
        try await cli.ageTokens(expiringIn: -120)
        let second = try await git.clone(into: "second")
        #expect(second.output.status == 0, "\(second.output.stderrText)")
        #expect(git.readme(of: "second") == GitSetup.readme)
        #expect(try await git.profile.operations(after: baseline) == ["InitiateAuth"], "one refresh upstream")
        let refreshed = try #require(try await cli.storedRecord()?["accessToken"] as? String)
        let refreshedJTI = try #require(TestJWT.claims(of: refreshed)?["jti"] as? String)
        #expect(refreshedJTI != firstJTI)
        let secondAttempts = Array(try git.server.attempts().dropFirst(firstAttempts.count))
        // The aged (unsigned) token never reached the server: it would show as "alg is not RS256".
        #expect(secondAttempts.filter { !$0.accepted }.map(\.reason) == ["no credentials"])
        #expect(!secondAttempts.filter(\.accepted).isEmpty)
        #expect(secondAttempts.filter(\.accepted).allSatisfy { $0.jti == refreshedJTI }, "the refreshed access token")
        let now = Int(Date().timeIntervalSince1970)
        #expect(secondAttempts.filter(\.accepted).allSatisfy { ($0.exp ?? 0) > now })

        // The snippet's empty helper line kept the global 'store' helper from writing the token down.
        #expect(!FileManager.default.fileExists(atPath: git.home + "/.git-credentials"))
        #expect(
            SecretScan.names(of: cli.knownSecrets, in: [first.output, second.output]).isEmpty,
            "git printed no secret")
        cli.expectNoSecretLeaks()
    }

    @Test func withoutASessionGitFailsAtOnceNamingTheLogin() async throws {
        let git = try await GitSetup.make()
        let cli = git.profile.cli
        // moto has no RevokeToken, so logout reports that remote step; the local sign-out stands.
        _ = try await cli.run(["logout"])
        #expect(try await cli.storedRecord()?["refreshToken"] == nil, "signed out on this machine")

        let clone = try await git.clone(into: "refused")
        #expect(clone.output.status != 0)
        #expect(clone.seconds < 15, "git gave up in \(Int(clone.seconds)) s")
        #expect(clone.output.stderrText.contains("authvault login --profile default"), "\(clone.output.stderrText)")
        // git's own words for a prompt it did not show.
        #expect(clone.output.stderrText.contains("terminal prompts disabled"), "\(clone.output.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: git.clonePath("refused")))
        let attempts = try git.server.attempts()
        #expect(!attempts.isEmpty)
        #expect(attempts.allSatisfy { $0.reason == "no credentials" }, "no token was sent: \(attempts.map(\.reason))")
        #expect(SecretScan.names(of: cli.knownSecrets, in: [clone.output]).isEmpty, "git printed no secret")
        cli.expectNoSecretLeaks()
    }

    /// Issue 10 item 2 with the profile named in $AUTHVAULT_PROFILE and authvault as git's helper for every host:
    /// the listed https host and port gets the token; the same server under a name the profile does not list, and
    /// a plain-http server whose address and port the profile does list, get none.
    @Test func aNamedProfileGivesGitNoTokenForAnotherHostOrPlainHTTP() async throws {
        let git = try await GitSetup.make()
        let cli = git.profile.cli
        let plain = try await BearerTokenServer.git(
            projectRoot: git.repositories.path, tls: nil, expecting: git.expectation)
        let hosts = try await cli.run([
            "configure", "--helper-host", "127.0.0.1:\(git.server.port)", "--helper-host", "127.0.0.1:\(plain.port)",
        ])
        #expect(hosts.status == 0)
        let everyHost = git.home + "/every-host.gitconfig"
        try "[credential]\n\thelper =\n\thelper = authvault\n".write(
            toFile: everyHost, atomically: true, encoding: .utf8)
        let environment = ["GIT_CONFIG_GLOBAL": everyHost, "AUTHVAULT_PROFILE": HeadlessCLI.profile]

        let listed = try await git.clone(git.url, into: "listed", environment: environment)
        #expect(listed.output.status == 0, "\(listed.output.stderrText)")
        #expect(try git.server.attempts().contains(where: \.accepted))

        let before = try git.server.attempts().count
        let otherName = try await git.clone(
            git.url.replacingOccurrences(of: "127.0.0.1", with: "localhost"), into: "other-name",
            environment: environment)
        #expect(otherName.output.status != 0)
        let byName = Array(try git.server.attempts().dropFirst(before))
        #expect(!byName.isEmpty && byName.allSatisfy { $0.reason == "no credentials" }, "\(byName.map(\.reason))")

        let overHTTP = try await git.clone(
            "http://127.0.0.1:\(plain.port)/project.git", into: "plain", environment: environment)
        #expect(overHTTP.output.status != 0)
        let inClear = try plain.attempts()
        #expect(!inClear.isEmpty && inClear.allSatisfy { $0.reason == "no credentials" }, "\(inClear.map(\.reason))")
        #expect(SecretScan.names(of: cli.knownSecrets, in: [listed.output, otherName.output, overHTTP.output]).isEmpty)
        cli.expectNoSecretLeaks()
    }
}

/// A signed-in profile (refreshes counted by its fault proxy), a bare repository served by a bearer-token git
/// server, and git configured the way Examples/git/gitconfig tells a user to: the snippet appended to a global
/// configuration that already has a `store` helper for every host.
private struct GitSetup {
    static let readme = "cloned through AuthVault\n"
    static let exampleURL = "https://git.example.com"

    let profile: SignedInProfile
    let tls: TLSFixture
    let server: BearerTokenServer
    let repositories: TemporaryDirectory
    let environment: [String: String]

    var home: String { profile.cli.environment["HOME"]! }
    var url: String { "https://127.0.0.1:\(server.port)/project.git" }
    var expectation: BearerTokenServer.Expectation {
        .init(
            jwksURL: profile.pool.jwksURL, issuer: profile.pool.issuer, clientId: profile.pool.clientId,
            tokenUse: .access)
    }

    static func make() async throws -> GitSetup {
        let profile = try await SignedInProfile.make()
        let repositories = try TemporaryDirectory(prefix: "authvault-git")
        try await makeBareRepository(in: repositories)
        let pool = profile.pool
        let tls = try TLSFixture()
        let server = try await BearerTokenServer.git(
            projectRoot: repositories.path, tls: tls,
            expecting: .init(jwksURL: pool.jwksURL, issuer: pool.issuer, clientId: pool.clientId, tokenUse: .access))
        let cli = profile.cli
        let hosts = try await cli.run(["configure", "--helper-host", "127.0.0.1:\(server.port)"])
        guard hosts.status == 0 else {
            throw TestFixtureError("configure --helper-host exited \(hosts.status): \(hosts.stderrText)")
        }

        let snippet = try PackageFiles.text("Examples/git/gitconfig")
        guard snippet.contains(exampleURL) else {
            throw TestFixtureError("Examples/git/gitconfig no longer names \(exampleURL)")
        }
        let home = cli.environment["HOME"]!
        let globalConfig = home + "/.gitconfig"
        try
            ("[credential]\n\thelper = store\n"
            + snippet.replacingOccurrences(of: exampleURL, with: "https://127.0.0.1:\(server.port)"))
            .write(toFile: globalConfig, atomically: true, encoding: .utf8)
        let links = try CommandLinks(["git-credential-authvault"], to: cli.authvault, in: cli.root)
        let environment = cli.environment.merging([
            "PATH": links.searchPath(before: cli.environment["PATH"]),
            "GIT_CONFIG_GLOBAL": globalConfig,
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_SSL_CAINFO": tls.caCertificatePath,
            "GIT_TERMINAL_PROMPT": "0",
            "LC_ALL": "C",
        ]) { $1 }
        return GitSetup(
            profile: profile, tls: tls, server: server, repositories: repositories, environment: environment)
    }

    /// `project.git`, with one commit holding README, made by git itself outside any user configuration.
    private static func makeBareRepository(in directory: TemporaryDirectory) async throws {
        let source = directory.appending("source")
        try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: true)
        try readme.write(toFile: source + "/README", atomically: true, encoding: .utf8)
        let environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": directory.path,
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "LC_ALL": "C",
        ]
        for arguments in [
            ["init", "-q", "-b", "main", source],
            ["-C", source, "add", "README"],
            [
                "-C", source, "-c", "user.name=AuthVault Test", "-c", "user.email=test@example.com", "commit", "-q",
                "-m", "README",
            ],
            ["clone", "-q", "--bare", source, directory.appending("project.git")],
        ] {
            let output = try await BoundedProcess.run("/usr/bin/git", arguments, environment: environment)
            guard output.status == 0 else {
                throw TestFixtureError("git \(arguments[0]) exited \(output.status): \(output.stderrText)")
            }
        }
    }

    func clonePath(_ name: String) -> String { profile.cli.root + "/clones/" + name }

    /// `git clone` of `url` (this server's repository by default), with `environment` over the set-up's.
    func clone(_ url: String? = nil, into name: String, environment extra: [String: String] = [:]) async throws
        -> (output: ProcessOutput, seconds: TimeInterval)
    {
        let started = Date()
        let output = try await BoundedProcess.run(
            "/usr/bin/git", ["clone", url ?? self.url, clonePath(name)],
            environment: environment.merging(extra) { $1 }, timeout: 60)
        return (output, Date().timeIntervalSince(started))
    }

    func readme(of clone: String) -> String? {
        try? String(contentsOfFile: clonePath(clone) + "/README", encoding: .utf8)
    }
}
