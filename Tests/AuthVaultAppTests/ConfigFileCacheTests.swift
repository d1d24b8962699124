import AuthVaultApp
import Foundation
import TestSupport
import Testing

/// The configuration is read once per process while the file stays as it was, and read again as soon as it is not:
/// replaced, written in place, or made writable by others (which is then refused, as on a first read).
@Suite struct ConfigFileCacheTests {
    @Test func aChangedFileIsReadAgainAndAnExposedOneRefused() throws {
        let directory = try TemporaryDirectory(prefix: "config-cache")
        let path = directory.appending("config.json")
        let store = ConfigStore(path: path)
        try store.save(ConfigFile())
        #expect(try store.load().currentProfile == nil)
        #expect(store.currentProfile() == nil)

        var chosen = ConfigFile()
        chosen.currentProfile = "work"
        try store.save(chosen)  // an atomic replace: a new file
        #expect(try store.load().currentProfile == "work")

        // Written in place, same size: the change time moves.
        let bytes = try #require(FileManager.default.contents(atPath: path))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.write(
            contentsOf: Data(
                String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\"work\"", with: "\"home\"").utf8))
        try handle.close()
        #expect(store.currentProfile() == "home")

        chmod(path, 0o666)
        #expect(throws: ConfigError.self) { try store.load() }
        #expect(store.currentProfile() == nil, "a file others may change is not read from memory either")
    }
}
