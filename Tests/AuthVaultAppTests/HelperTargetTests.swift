import AuthVaultApp
import TestSupport
import Testing

/// Where a helper's token may go, decided in one place: the target each protocol describes, matched against the
/// `--helper-host` entries by `HelperChoice`, the decision every helper's answer goes through.
@Suite struct HelperTargetTests {
    /// Whether the decision gives `target` a token from a profile whose one entry is `entry`.
    static func isListed(_ target: HelperTarget, by entry: String) -> Bool {
        HelperChoice.decide(for: target, listings: [("work", [entry])], current: "work", isExplicit: false)
            == .answer(profile: "work")
    }

    @Test func gitTargets() throws {
        let target = try #require(HelperTarget(gitProtocol: "HTTPS", host: "Git.Example.com:8443"))
        #expect(target.scheme == "https")
        #expect(target.endpoint.description == "git.example.com:8443")
        #expect(HelperTarget(gitProtocol: nil, host: "git.example.com") == nil)
        #expect(HelperTarget(gitProtocol: "https", host: nil) == nil)
        #expect(HelperTarget(gitProtocol: "https", host: "user@git.example.com") == nil)
        #expect(HelperTarget(gitProtocol: "http", host: "git.example.com")?.scheme == "http")
    }

    @Test func dockerAndURLTargets() throws {
        #expect(HelperTarget(dockerServer: "registry.example.com:5000")?.scheme == "https")
        #expect(HelperTarget(dockerServer: "registry.example.com:5000/v2/")?.endpoint.port == 5000)
        #expect(HelperTarget(dockerServer: "http://registry.example.com:5000")?.scheme == "http")
        #expect(HelperTarget(dockerServer: "https://index.docker.io/v1/")?.endpoint.description == "index.docker.io")
        #expect(HelperTarget(url: "registry.example.com:5000") == nil, "a URL needs its scheme")
        #expect(HelperTarget(url: "https://[::1]:6443")?.endpoint.description == "[::1]:6443")
        #expect(HelperTarget(url: "https://user@kube.example.com") == nil)
    }

    @Test(arguments: [
        // (target, entry, listed)
        ("git.example.com", "git.example.com", true),
        ("git.example.com:8443", "git.example.com", true),
        ("GIT.example.com.", "git.example.com", true),
        ("git.example.com", "Git.Example.Com.", true),
        ("git.example.com:8443", "git.example.com:8443", true),
        ("git.example.com:8444", "git.example.com:8443", false),
        ("git.example.com", "git.example.com:8443", false),
        ("git.example.com", "git.example.com:443", true),
        ("git.example.com.evil.example", "git.example.com", false),
        ("evil-git.example.com", "git.example.com", false),
        ("example.com", "git.example.com", false),
        ("[::1]:8443", "::1", true),
        ("[0:0::1]:8443", "[::1]:8443", true),
        ("[::1]:8443", "[::1]:9443", false),
        ("127.0.0.1:8443", "127.0.0.1", true),
        ("127.0.0.1:8443", "localhost", false),
        ("2130706433", "127.0.0.1", false),
        // A path prefix names only a target with a path under it.
        ("git.example.com", "git.example.com/team", false),
        ("git.example.com:8443", "git.example.com:8443/team", false),
    ])
    func entries(target: String, entry: String, listed: Bool) throws {
        let helperTarget = try #require(HelperTarget(gitProtocol: "https", host: target))
        #expect(Self.isListed(helperTarget, by: entry) == listed)
    }

    /// Issue 34: a prefix matches whole segments of git's `path=` (decoded, as git sends it), on its host only.
    @Test(arguments: [
        // (host, path, entry, listed)
        ("git.example.com", "acme/x.git", "git.example.com/acme", true),
        ("git.example.com", "acme", "git.example.com/acme", true),
        ("git.example.com", "acme/sub/x.git", "git.example.com/acme/sub", true),
        ("git.example.com", "acme/x.git", "git.example.com/acme/", true),
        ("git.example.com", "acme2/x.git", "git.example.com/acme", false),
        ("git.example.com", "acm", "git.example.com/acme", false),
        ("git.example.com", "beta/acme/x.git", "git.example.com/acme", false),
        ("git.example.com", "Acme/x.git", "git.example.com/acme", false),
        ("git.example.com", "acme/sub/x.git", "git.example.com/acme/other", false),
        ("git.example.com", "acme/../beta/x.git", "git.example.com/acme", false),
        ("git.example.com", "acme/./x.git", "git.example.com/acme", false),
        ("git.example.com", "a b/x.git", "git.example.com/a%20b", true),
        ("git.example.com", "a+b/x.git", "git.example.com/a+b", true),
        ("other.example.com", "acme/x.git", "git.example.com/acme", false),
        ("git.example.com.evil.example", "acme/x.git", "git.example.com/acme", false),
        ("git.example.com:8443", "acme/x.git", "git.example.com:8443/acme", true),
        ("git.example.com:8444", "acme/x.git", "git.example.com:8443/acme", false),
        ("git.example.com", "acme/x.git", "git.example.com", true),
        ("git.example.com", "acme/x.git", "git.example.com/acme%2Fx.git", false),
        ("git.example.com", "acme/x.git", "git.example.com//acme", true),
    ])
    func pathPrefixes(host: String, path: String, entry: String, listed: Bool) throws {
        let target = try #require(HelperTarget(gitProtocol: "https", host: host, path: path))
        #expect(Self.isListed(target, by: entry) == listed)
    }

    /// Issue 31: every URL tool decides on a server. kubectl without cluster info gets nothing; Vault without
    /// VAULT_ADDR is checked at its default address like any other.
    @Test func aToolThatNamesNoServerIsDecidedAllTheSame() async throws {
        let home = try TemporaryDirectory()
        let application = Application(
            environment: EnvironmentVariables(["HOME": home.path, "XDG_CONFIG_HOME": home.appending("config")]))
        var work = ProfileSettings()
        work.userPoolId = "us-east-1_Work1"
        work.clientId = "client"
        work.helperHosts = ["kube.example.com:6443"]
        try application.configStore.save(ConfigFile(profiles: ["work": work]))
        func decide(_ tool: URLTool, _ url: String?) async throws -> URLToolDecision {
            try await application.helperDecision(for: tool, url: url, current: "work", isExplicit: false)
        }
        #expect(try await decide(.kubectl, nil) == .noServerNamed)
        #expect(try await decide(.kubectl, "") == .noServerNamed)
        #expect(try await decide(.kubectl, "https://kube.example.com:6443") == .answer(profile: "work"))
        #expect(try await decide(.kubectl, "kube.example.com:6443") == .notAURL("kube.example.com:6443"))
        let vaultDefault = try #require(HelperTarget(url: "https://127.0.0.1:8200"))
        #expect(try await decide(.vault, nil) == .notListed(vaultDefault), "the default address is not listed")
        #expect(try await decide(.vault, "") == .notListed(vaultDefault), "empty is unset, as for the vault CLI")
        work.helperHosts = ["127.0.0.1:8200"]
        try application.configStore.save(ConfigFile(profiles: ["work": work]))
        #expect(try await decide(.vault, nil) == .answer(profile: "work"))
        #expect(
            try await decide(.vault, "https://vault.example.com:8200")
                == .notListed(try #require(HelperTarget(url: "https://vault.example.com:8200"))))
    }
}
