import AuthVaultApp
import Foundation
import TestSupport
import Testing

/// The setup record keeps no readable copy of a tool's file, which may hold secrets (docker's `auths`, a
/// kubeconfig's keys, AWS keys): the bytes setup wrote only as a digest, the file before setup sealed so that only
/// those very bytes open it. A file left as setup wrote it still gets its every byte back; a secret rotated since is
/// never brought back; a version 1 record (readable copies) is migrated when read and still undoes.
@Suite struct SetupRecordSecretTests {
    static let secret = "c3RhbGUtdXNlcjpzdGFsZS1wYXNzd29yZA=="  // "stale-user:stale-password"
    static let config = """
        {
          "auths": { "registry.example.com": { "auth": "\(secret)" } },
          "credHelpers": { "other.example.com": "pass" }
        }

        """
    static let recordPath = ".local/share/authvault/setup-changes.json"

    /// Every form of the record's text a reader could find the secret in: the text, and each string decoded as
    /// base64 (how JSON keeps bytes).
    static func readableForms(_ record: String) throws -> [String] {
        var strings: [String] = []
        func collect(_ value: Any) {
            if let text = value as? String { strings.append(text) }
            if let array = value as? [Any] { array.forEach(collect) }
            if let object = value as? [String: Any] { object.values.forEach(collect) }
        }
        collect(try JSONSerialization.jsonObject(with: Data(record.utf8)))
        let decoded = strings.compactMap { Data(base64Encoded: $0).map { String(decoding: $0, as: UTF8.self) } }
        return [record] + decoded
    }

    @Test func theRecordHoldsNoCopyOfTheFileAndTheUndoIsStillByteIdentical() throws {
        let fixture = try ToolSetupFixture()
        try fixture.write(Self.config, to: ".docker/config.json", mode: 0o600)
        try fixture.apply(.docker(registry: "registry.example.com"))
        let record = try #require(fixture.text(Self.recordPath))
        for form in try Self.readableForms(record) {
            #expect(!form.contains(Self.secret) && !form.contains("stale-password"), "no copy of the secret at rest")
            #expect(!form.contains("credHelpers"), "no copy of the file as it was or as setup wrote it")
        }
        try fixture.apply(.docker(registry: "registry.example.com"), undo: true)
        #expect(fixture.text(".docker/config.json") == Self.config, "the same bytes as before setup")
    }

    @Test func aSecretRotatedSinceIsNeverBroughtBack() throws {
        let fixture = try ToolSetupFixture()
        try fixture.write(Self.config, to: ".docker/config.json", mode: 0o600)
        try fixture.apply(.docker(registry: "registry.example.com"))
        let rotated = try #require(fixture.text(".docker/config.json")).replacing(Self.secret, with: "cm90YXRlZA==")
        try fixture.write(rotated, to: ".docker/config.json", mode: 0o600)
        try fixture.apply(.docker(registry: "registry.example.com"), undo: true)
        let undone = try #require(fixture.text(".docker/config.json"))
        #expect(!undone.contains(Self.secret), "the rotated secret stays rotated")
        #expect(undone.contains("cm90YXRlZA=="))
        #expect(!undone.contains("authvault"), "setup's own entry is gone")
    }

    /// A record written by version 1 (the file's bytes readable) is sealed when read, and its undo still puts back
    /// every byte.
    @Test func aVersion1RecordIsMigratedWhenReadAndStillUndoes() throws {
        let fixture = try ToolSetupFixture()
        try fixture.write(Self.config, to: ".docker/config.json", mode: 0o600)
        try fixture.apply(.docker(registry: "registry.example.com"))
        let written = try #require(FileManager.default.contents(atPath: fixture.home.appending(".docker/config.json")))
        let path = fixture.home.appending(Self.recordPath)
        var record = try #require(
            try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        var files = try #require(record["files"] as? [[String: Any]])
        files[0]["original"] = Data(Self.config.utf8).base64EncodedString()
        files[0]["written"] = written.base64EncodedString()
        record["files"] = files
        record["version"] = 1
        try JSONSerialization.data(withJSONObject: record).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)

        let plan = try fixture.setup.plan(.docker(registry: "registry.example.com"), undo: true)
        let migrated = try #require(fixture.text(Self.recordPath))
        #expect(migrated.contains("\"version\" : 2"))
        for form in try Self.readableForms(migrated) {
            #expect(!form.contains(Self.secret), "the plain copy is gone as soon as the record is read")
        }
        try fixture.setup.apply(plan)
        #expect(fixture.text(".docker/config.json") == Self.config, "the same bytes as before setup")
        #expect(fixture.text(Self.recordPath) == nil)
    }
}
