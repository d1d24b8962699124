import AuthVaultApp
import Foundation
import TestSupport
import Testing

/// `ConfigStore.helperHosts` reads only the helper hosts, with the agent's JSON parser, and agrees with `load`:
/// the same lists for a good file, and `load`'s own error for a file that is not a configuration.
@Suite struct ConfigHelperHostsTests {
    func store(_ text: String, in directory: TemporaryDirectory) throws -> ConfigStore {
        let path = directory.appending("config.json")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return ConfigStore(path: path)
    }

    @Test func theListsLoadWouldGive() throws {
        let directory = try TemporaryDirectory(prefix: "config-hosts")
        let store = try store("", in: directory)
        var work = ProfileSettings()
        work.userPoolId = "us-east-1_Work1"
        work.helperHosts = ["git.example.com", "registry.example.com:5000"]
        var other = ProfileSettings()
        other.clientId = "abc"
        try store.save(ConfigFile(profiles: ["work": work, "other": other]))
        let hosts = try store.helperHosts()
        #expect(hosts.map(\.profile) == ["other", "work"])
        #expect(hosts.map(\.hosts) == [[], ["git.example.com", "registry.example.com:5000"]])
        let loaded = try store.load().profiles
        #expect(hosts.map(\.hosts) == hosts.map { loaded[$0.profile]?.helperHosts ?? [] })
        withExtendedLifetime(directory) {}
    }

    @Test(arguments: [
        #"{"version":1,"profiles":{"work":{"helperHosts":"git.example.com"}}}"#,
        #"{"version":1,"profiles":{"work":"not a profile"}}"#,
        #"{"version":99,"profiles":{}}"#,
        #"{"version":1,"profiles":{"work":{"helperHosts":[1]}}}"#,
        "not json",
    ])
    func aBrokenFileGetsLoadsError(text: String) throws {
        let directory = try TemporaryDirectory(prefix: "config-hosts")
        let store = try store(text, in: directory)
        var fromLoad: ConfigError?
        var fromHosts: ConfigError?
        do { _ = try store.load() } catch { fromLoad = error }
        do { _ = try store.helperHosts() } catch { fromHosts = error }
        #expect(fromLoad != nil)
        #expect(fromHosts == fromLoad)
        withExtendedLifetime(directory) {}
    }

    @Test func noFileMeansNoHosts() throws {
        let directory = try TemporaryDirectory(prefix: "config-hosts")
        #expect(try ConfigStore(path: directory.appending("missing.json")).helperHosts().isEmpty)
    }
}
