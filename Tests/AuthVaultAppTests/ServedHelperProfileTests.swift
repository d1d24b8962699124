import AuthAgent
import SystemPlumbing
import TestSupport
import Testing

@testable import AuthVaultApp

/// The hosted agent's choice for a client without a configuration (`Application.agentProfile`): the profile's
/// helper hosts from the agent's own configuration, by `helperProfile(for:current:isExplicit:)`'s rules, among the
/// profiles the socket serves only.
@Suite struct ServedHelperProfileTests {
    /// "work" (current) lists git.example.com; "personal" lists git.example.com and other.example.com; "ci" lists
    /// registry.example.com:5000; "acme" and "tools" list forge.example.com/acme and forge.example.com/tools.
    private func application() throws -> (Application, TemporaryDirectory) {
        let home = try TemporaryDirectory()
        let application = Application(
            environment: EnvironmentVariables([
                "HOME": home.path, "XDG_CONFIG_HOME": home.appending("config"), "AUTHVAULT_PROFILE": "work",
            ]))
        func profile(_ hosts: [String]) -> ProfileSettings {
            var settings = ProfileSettings()
            settings.userPoolId = "us-east-1_Work1"
            settings.clientId = "client"
            settings.helperHosts = hosts
            return settings
        }
        try application.configStore.save(
            ConfigFile(profiles: [
                "work": profile(["git.example.com"]),
                "personal": profile(["git.example.com", "other.example.com"]),
                "ci": profile(["registry.example.com:5000"]),
                "acme": profile(["forge.example.com/acme"]),
                "tools": profile(["forge.example.com/tools"]),
            ]))
        return (application, home)
    }

    /// An agent that has no store to show: no profile's signed-in user is known.
    static let noStores: ServedStores = { _ in nil }

    private func target(_ host: String, port: Int? = nil, scheme: String = "https", path: String? = nil) throws
        -> AgentTarget
    {
        try #require(AgentTarget(scheme: scheme, host: host, port: port, path: path))
    }

    @Test func aTargetIsAnsweredByTheHelperHostsAmongTheServedProfiles() async throws {
        let (application, home) = try application()
        func choose(_ named: String?, _ target: AgentTarget, _ served: Set<String>?) async throws -> String? {
            try await application.agentProfile(named: named, for: target, among: served, stores: Self.noStores)
        }
        let git = try target("git.example.com")
        #expect(try await choose(nil, git, nil) == "work", "the agent's current profile lists it")
        #expect(try await choose(nil, git, ["personal", "ci"]) == "personal", "the one served profile that lists it")
        #expect(try await choose(nil, git, ["personal", "acme"]) == "personal")
        #expect(try await choose(nil, git, ["ci"]) == nil)
        #expect(
            try await choose(nil, try target("other.example.com"), ["work"]) == nil, "listed by a profile not served")
        #expect(try await choose(nil, try target("registry.example.com", port: 5000), ["ci"]) == "ci")
        #expect(try await choose(nil, try target("registry.example.com", port: 5001), ["ci"]) == nil)
        #expect(try await choose(nil, try target("git.example.com", scheme: "http"), nil) == nil)
        #expect(try await choose("personal", git, ["personal"]) == "personal")
        #expect(try await choose("ci", git, ["ci"]) == nil, "a named profile never widens its hosts")
        #expect(try await choose("ghost", git, nil) == nil)
        #expect(try await choose(nil, try target("[::1]:8443"), nil) == nil, "a host with a port of its own is no host")
        withExtendedLifetime(home) {}
    }

    /// Two listing profiles served and neither is current: git's path chooses, by the longest listed prefix, as
    /// it does for a helper with the configuration at hand (`HelperChoice`); without a path nothing does.
    @Test func gitsPathChoosesAmongServedProfilesByTheirPrefixes() async throws {
        let (application, home) = try application()
        func choose(_ path: String?, _ served: Set<String>? = ["acme", "tools"]) async throws -> String? {
            try await application.agentProfile(
                named: nil, for: try target("forge.example.com", path: path), among: served, stores: Self.noStores)
        }
        #expect(try await choose("acme/widgets.git") == "acme")
        #expect(try await choose("tools/build.git") == "tools")
        #expect(try await choose("tools/build.git", ["acme"]) == nil, "the prefix that matches is not served")
        #expect(try await choose("other/repo.git") == nil, "no listed prefix matches")
        #expect(try await choose(nil) == nil, "without git's path neither prefix names the target")
        withExtendedLifetime(home) {}
    }

    /// Two served profiles list the target and git named a user: their signed-in users are asked of the agent's
    /// own stores, on the vaults it holds (and locks), and of nothing else; with one listing profile, of none.
    @Test func theSignedInUsersAreAskedOfTheAgentsStoresOnly() async throws {
        let (application, home) = try application()
        let asked = Locked<[String]>([])
        let stores: ServedStores = { profile in
            asked.withLock { $0.append(profile) }
            return nil
        }
        let alice = try #require(AgentTarget(scheme: "https", host: "git.example.com", username: "alice"))
        let chosen = try await application.agentProfile(
            named: nil, for: alice, among: ["personal", "work"], stores: stores)
        #expect(chosen == "work", "no store knows alice: the current profile answers")
        #expect(asked.withLock { $0.sorted() } == ["personal", "work"])
        #expect(
            try await application.agentProfile(named: nil, for: alice, among: ["personal"], stores: stores)
                == "personal")
        #expect(asked.withLock { $0.count } == 2, "one listing profile answers without a store")
        withExtendedLifetime(home) {}
    }

    /// git's path and user cross the agent's wire both ways, so the agent's rules see what the tool named.
    @Test func gitsPathAndUserCrossTheWire() throws {
        let git = try #require(
            HelperTarget(gitProtocol: "https", host: "forge.example.com:8443", path: "acme/x.git", username: "alice"))
        let sent = try #require(git.agentTarget)
        #expect(sent.path == "acme/x.git" && sent.username == "alice" && sent.port == 8443)
        #expect(HelperTarget(sent) == git)
    }

    @Test func withoutATargetTheCurrentProfileOrTheSocketsOnlyOneAnswers() async throws {
        let (application, home) = try application()
        func choose(_ named: String?, _ served: Set<String>?) async throws -> String? {
            try await application.agentProfile(named: named, for: nil, among: served, stores: Self.noStores)
        }
        #expect(try await choose(nil, nil) == "work")
        #expect(try await choose(nil, ["work", "ci"]) == "work")
        #expect(try await choose(nil, ["ci"]) == "ci")
        #expect(try await choose(nil, ["ci", "personal"]) == nil)
        #expect(try await choose("ci", nil) == "ci")
        withExtendedLifetime(home) {}
    }
}
