import AuthVaultApp
import Testing

/// `configure --helper-host` adds, `--remove-helper-host` removes, `--helper-host ''` clears (issue 26 item 3).
@Suite struct HelperHostEditTests {
    @Test func addingKeepsTheListedHostsAndAddsEachOnce() throws {
        var settings = ProfileSettings()
        try settings.editHelperHosts(adding: ["git.example.com"], removing: [])
        try settings.editHelperHosts(adding: ["Registry.Example.com:5000", "git.example.com"], removing: [])
        #expect(settings.helperHosts == ["git.example.com", "registry.example.com:5000"])
    }

    @Test func removingTakesOneAndRefusesAnUnlistedHost() throws {
        var settings = ProfileSettings()
        settings.helperHosts = ["git.example.com", "registry.example.com:5000"]
        try settings.editHelperHosts(adding: [], removing: ["GIT.example.com"])
        #expect(settings.helperHosts == ["registry.example.com:5000"])
        #expect(throws: ConfigError.self) { try settings.editHelperHosts(adding: [], removing: ["git.example.com"]) }
        try settings.editHelperHosts(adding: [], removing: ["registry.example.com:5000"])
        #expect(settings.helperHosts == nil)
    }

    @Test func anEmptyHostClearsTheListFirst() throws {
        var settings = ProfileSettings()
        settings.helperHosts = ["git.example.com"]
        try settings.editHelperHosts(adding: [""], removing: [])
        #expect(settings.helperHosts == nil)
        try settings.editHelperHosts(adding: ["", "kube.example.com:6443"], removing: [])
        #expect(settings.helperHosts == ["kube.example.com:6443"])
        #expect(throws: ConfigError.self) { try settings.editHelperHosts(adding: ["user@git.example.com"], removing: []) }
    }
}
