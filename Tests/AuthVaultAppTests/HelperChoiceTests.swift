import AuthVaultApp
import Foundation
import TestSupport
import Testing

/// Issue 34 item 1: which profile answers when several list one host, as a table over the pure decision (no file,
/// no vault), then once through `Application.helperProfile` with the configuration on disk.
@Suite struct HelperChoiceTests {
    static let listings: [(profile: String, hosts: [String])] = [
        ("acme", ["git.example.com/acme"]),
        ("acme-ci", ["git.example.com/acme/ci"]),
        ("beta", ["git.example.com/beta", "registry.example.com"]),
        ("personal", ["git.example.com"]),
        ("work", ["git.example.com", "kube.example.com"]),
        ("solo", ["solo.example.com"]),
    ]
    static let users = [
        "personal": ["bob", "bob@example.com"], "work": ["alice", "Alice@Example.com"], "acme": ["alice"],
        "beta": ["carol"],
    ]

    struct Row: Sendable, CustomStringConvertible {
        let host: String
        var path: String?
        var username: String?
        var current = "default"
        var explicit = false
        let expected: HelperChoice
        var description: String {
            "\(host) path=\(path ?? "-") user=\(username ?? "-") current=\(current)\(explicit ? " (explicit)" : "")"
        }
    }

    static let rows: [Row] = [
        // One listing profile answers at once: nothing else is read.
        Row(host: "solo.example.com", expected: .answer(profile: "solo")),
        Row(host: "solo.example.com", username: "bob", expected: .answer(profile: "solo")),
        Row(host: "nobody.example.com", expected: .notListed),
        // The longest matching prefix wins, before any user name.
        Row(host: "git.example.com", path: "acme/x.git", expected: .answer(profile: "acme")),
        Row(host: "git.example.com", path: "acme/ci/x.git", expected: .answer(profile: "acme-ci")),
        Row(host: "git.example.com", path: "beta/x.git", username: "alice", expected: .answer(profile: "beta")),
        // Not under a prefix: the bare-host profiles remain; the user in the URL chooses among them.
        Row(
            host: "git.example.com", path: "acme2/x.git", username: "bob",
            expected: .needsSignedInUsers(candidates: ["personal", "work"])),
        Row(
            host: "git.example.com", path: "acme2/x.git",
            expected: .ambiguous(candidates: ["personal", "work"])),
        Row(host: "git.example.com", expected: .ambiguous(candidates: ["personal", "work"])),
        // The current profile answers when it lists the host (and no prefix or user chose).
        Row(host: "git.example.com", current: "work", expected: .answer(profile: "work")),
        Row(host: "git.example.com", path: "acme/x.git", current: "work", expected: .answer(profile: "acme")),
        // Named explicitly: chooses among the listing profiles, never widens them.
        Row(host: "git.example.com", current: "personal", explicit: true, expected: .answer(profile: "personal")),
        Row(
            host: "git.example.com", path: "acme/x.git", current: "personal", explicit: true,
            expected: .answer(profile: "personal")),
        Row(host: "git.example.com", current: "solo", explicit: true, expected: .notListed),
        Row(host: "git.example.com", path: "beta/x", current: "acme", explicit: true, expected: .notListed),
        Row(host: "solo.example.com", current: "work", explicit: true, expected: .notListed),
    ]

    @Test(arguments: rows)
    func decision(row: Row) throws {
        let target = try #require(
            HelperTarget(gitProtocol: "https", host: row.host, path: row.path, username: row.username))
        #expect(
            HelperChoice.decide(
                for: target, listings: Self.listings, current: row.current, isExplicit: row.explicit) == row.expected)
    }

    /// With the signed-in users read: a user name or e-mail (case aside) chooses; nobody's leaves it open.
    @Test(arguments: [
        ("bob", "default", HelperChoice.answer(profile: "personal")),
        ("BOB@example.com", "default", .answer(profile: "personal")),
        ("alice@example.com", "personal", .answer(profile: "work")),
        ("alice", "default", .answer(profile: "work")),
        ("mallory", "default", .ambiguous(candidates: ["personal", "work"])),
        ("mallory", "work", .answer(profile: "work")),
    ])
    func signedInUsersChoose(username: String, current: String, expected: HelperChoice) throws {
        let target = try #require(
            HelperTarget(gitProtocol: "https", host: "git.example.com", path: "other/x.git", username: username))
        #expect(
            HelperChoice.decide(
                for: target, listings: Self.listings, current: current, isExplicit: false, users: Self.users)
                == expected)
    }

    @Test func onlyHttpsIsListed() throws {
        let target = try #require(HelperTarget(gitProtocol: "http", host: "solo.example.com"))
        #expect(
            HelperChoice.decide(for: target, listings: Self.listings, current: "solo", isExplicit: true) == .notListed)
    }

    /// Two prefixes on one host never let a token go to another host, or to a path beside the prefix.
    @Test func aPrefixNeverWidensToAnotherHostOrPath() throws {
        let listings: [(profile: String, hosts: [String])] = [
            ("acme", ["git.example.com/acme"]), ("beta", ["git.example.com/beta"]),
        ]
        for (host, path) in [
            ("evil.example.com", "acme/x.git"), ("git.example.com", "acme2/x.git"), ("git.example.com", nil),
            ("git.example.com.evil.example", "acme"), ("git.example.com", "x/acme/y.git"),
            ("git.example.com", "acme/../beta/x.git"),
        ] {
            let target = try #require(HelperTarget(gitProtocol: "https", host: host, path: path, username: "alice"))
            #expect(
                HelperChoice.decide(for: target, listings: listings, current: "acme", isExplicit: false) == .notListed,
                "\(host) \(path ?? "-")")
        }
    }

    /// Through the configuration file: the ambiguity is thrown naming the candidates; a prefix or the current
    /// profile answers.
    @Test func applicationDecidesFromTheConfiguration() async throws {
        let home = try TemporaryDirectory()
        let application = Application(
            environment: EnvironmentVariables(["HOME": home.path, "XDG_CONFIG_HOME": home.appending("config")]))
        var profiles: [String: ProfileSettings] = [:]
        for (name, hosts) in [
            ("acme", ["git.example.com/acme"]), ("beta", ["git.example.com"]), ("gamma", ["git.example.com"]),
        ] {
            var settings = ProfileSettings()
            settings.userPoolId = "us-east-1_Work1"
            settings.clientId = name
            settings.helperHosts = hosts
            profiles[name] = settings
        }
        try application.configStore.save(ConfigFile(profiles: profiles))
        let acme = try #require(HelperTarget(gitProtocol: "https", host: "git.example.com", path: "acme/x.git"))
        #expect(try await application.helperProfile(for: acme, current: "default", isExplicit: false) == "acme")
        let bare = try #require(HelperTarget(gitProtocol: "https", host: "git.example.com"))
        #expect(try await application.helperProfile(for: bare, current: "gamma", isExplicit: false) == "gamma")
        await #expect {
            try await application.helperProfile(for: bare, current: "default", isExplicit: false)
        } throws: { error in
            guard case ApplicationError.ambiguousHelperTarget(let host, let candidates) = error else { return false }
            return host == "git.example.com" && candidates == ["beta", "gamma"]
        }
        // Neither is signed in: a user name in the URL reads their (empty) vaults and leaves it open.
        let named = try #require(HelperTarget(gitProtocol: "https", host: "git.example.com", username: "bob"))
        await #expect(throws: ApplicationError.self) {
            try await application.helperProfile(for: named, current: "default", isExplicit: false)
        }
    }
}
