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
        #expect(throws: ConfigError.self) {
            try settings.editHelperHosts(adding: ["user@git.example.com"], removing: [])
        }
    }

    /// Issue 31 item 3 and issue 34: `host[:port]/path-prefix` is kept, its host lower-case, its path as given
    /// without the slashes around it; nothing that can end a line, a key or a section, no dot segment, no empty
    /// segment, no escaped slash (git decodes the path it sends, so `a%2Fb` would match `a/b`).
    @Test func aPathPrefixIsKeptAndHostileOnesAreRefused() throws {
        var settings = ProfileSettings()
        try settings.editHelperHosts(
            adding: [
                "Git.Example.com:8443/Team/Sub-1", "git.example.com/a%20b", "git.example.com//acme/",
                "solo.example.com/",
            ], removing: [])
        #expect(
            settings.helperHosts == [
                "git.example.com:8443/Team/Sub-1", "git.example.com/a%20b", "git.example.com/acme", "solo.example.com",
            ])
        try settings.editHelperHosts(adding: [], removing: ["git.example.com/acme/"])
        #expect(!(settings.helperHosts ?? []).contains("git.example.com/acme"))
        for hostile in [
            "git.example.com/team//sub", "git.example.com/team/..", "git.example.com/./team", "git.example.com/%2e%2E",
            "git.example.com/a%2Fb", "git.example.com/a%2fb", "git.example.com/a%00b", "git.example.com/te am",
            "git.example.com/team\nx", "git.example.com/te\"am", "git.example.com/te'am", "git.example.com/te\\am",
            "git.example.com/%zz", "git.example.com/%2", "git.example.com/%ff", "git.example.com\n[x]",
            "git.example.com/a]b",
        ] {
            #expect(throws: ConfigError.self, "\(hostile)") {
                try settings.editHelperHosts(adding: [hostile], removing: [])
            }
        }
    }

    /// Each refusal says what is wrong with the prefix.
    @Test func aRefusedPrefixSaysWhy() {
        for (hostile, reason) in [
            ("git.example.com/a//b", "empty segments"), ("git.example.com/a/../b", "'..'"),
            ("git.example.com/a%2Fb", "%2F"),
        ] {
            #expect(
                performing: { try ProfileValidation.helperHost(hostile) },
                throws: { error in
                    "\(error)".contains(reason)
                })
        }
    }
}
