import AuthAgent
import TestSupport
import Testing

@testable import AuthVaultApp

/// The hosted agent's choice for a client without a configuration (`Application.agentProfile`): the profile's
/// helper hosts from the agent's own configuration, by `helperProfile(for:current:isExplicit:)`'s rules, among the
/// profiles the socket serves only.
@Suite struct ServedHelperProfileTests {
    /// "work" (current) lists git.example.com; "personal" lists git.example.com and other.example.com; "ci" lists
    /// registry.example.com:5000.
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
            ]))
        return (application, home)
    }

    private func target(_ host: String, port: Int? = nil, scheme: String = "https") throws -> AgentTarget {
        try #require(AgentTarget(scheme: scheme, host: host, port: port))
    }

    @Test func aTargetIsAnsweredByTheHelperHostsAmongTheServedProfiles() throws {
        let (application, home) = try application()
        func choose(_ named: String?, _ target: AgentTarget, _ served: Set<String>?) throws -> String? {
            try application.agentProfile(named: named, for: target, among: served)
        }
        let git = try target("git.example.com")
        #expect(try choose(nil, git, nil) == "work", "the agent's current profile lists it")
        #expect(try choose(nil, git, ["personal", "ci"]) == "personal", "the one served profile that lists it")
        #expect(try choose(nil, git, ["ci"]) == nil)
        #expect(try choose(nil, try target("other.example.com"), ["work"]) == nil, "listed by a profile not served")
        #expect(try choose(nil, try target("registry.example.com", port: 5000), ["ci"]) == "ci")
        #expect(try choose(nil, try target("registry.example.com", port: 5001), ["ci"]) == nil)
        #expect(try choose(nil, try target("git.example.com", scheme: "http"), nil) == nil)
        #expect(try choose("personal", git, ["personal"]) == "personal")
        #expect(try choose("ci", git, ["ci"]) == nil, "a named profile never widens its hosts")
        #expect(try choose("ghost", git, nil) == nil)
        #expect(try choose(nil, try target("[::1]:8443"), nil) == nil, "a host with a port of its own is no host")
        withExtendedLifetime(home) {}
    }

    @Test func withoutATargetTheCurrentProfileOrTheSocketsOnlyOneAnswers() throws {
        let (application, home) = try application()
        #expect(try application.agentProfile(named: nil, for: nil, among: nil) == "work")
        #expect(try application.agentProfile(named: nil, for: nil, among: ["work", "ci"]) == "work")
        #expect(try application.agentProfile(named: nil, for: nil, among: ["ci"]) == "ci")
        #expect(try application.agentProfile(named: nil, for: nil, among: ["ci", "personal"]) == nil)
        #expect(try application.agentProfile(named: "ci", for: nil, among: nil) == "ci")
        withExtendedLifetime(home) {}
    }
}
