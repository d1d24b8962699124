import AuthCrypto
import Foundation
import TestSupport
import Testing

@testable import TokenVault

/// EncryptedFileVault in this process: round trips, every refusal (each leaving the files byte-identical), the
/// passphrase change, and the format read back by an independent implementation (Python's hashlib and
/// cryptography). Small scrypt parameters keep it fast; one test checks the defaults.
@Suite struct EncryptedFileVaultTests {
    static let fastKDF = ScryptParameters(logN: 10, r: 8, p: 1)

    let root: TemporaryDirectory
    var directory: String { root.appending("authvault") }

    init() throws {
        root = try TemporaryDirectory(prefix: "authvault-file-vault")
    }

    func vault(
        _ passphrase: String = "correct horse", cache: DataKeyCache = .disabled,
        kdf: ScryptParameters = fastKDF
    ) -> EncryptedFileVault {
        EncryptedFileVault(
            directory: directory, passphrase: .fixed(SecretBytes(utf8: passphrase)), kdfParameters: kdf,
            keyCache: cache)
    }

    func sample(_ profile: String = "work", tag: String = "one") -> CredentialRecord {
        var record = CredentialRecord(profile: profile)
        record.revision = 3
        record.accessToken = SecretBytes(utf8: "access-\(tag)")
        record.idToken = SecretBytes(utf8: "id-\(tag)")
        record.refreshToken = SecretBytes(utf8: "refresh-\(tag)")
        record.clientSecret = SecretBytes(utf8: "client-secret-\(tag)")
        record.accessTokenExpiresAt = 1_800_000_000
        record.identity = UserIdentity(username: "alice", subject: "sub-1", email: "alice@example.com")
        record.origin = .userPoolAPI
        return record
    }

    var keyPath: String { "\(directory)/vault.key" }
    func recordPath(_ profile: String = "work") -> String { "\(directory)/\(profile).record" }

    /// Every file's bytes and mode, and the directory's mode: what "left untouched" means.
    func snapshot() throws -> [String: String] {
        var state = ["<dir>": String(try mode(directory), radix: 8)]
        // Recursive: the change stamps (a bump is a change too).
        for name in try FileManager.default.subpathsOfDirectory(atPath: directory) {
            let path = "\(directory)/\(name)"
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            let contents =
                isDirectory.boolValue ? "<dir>" : try Data(contentsOf: URL(fileURLWithPath: path)).base64EncodedString()
            state[name] = "\(String(try mode(path), radix: 8)) \(contents)"
        }
        return state
    }

    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }
    func write(_ bytes: [UInt8], _ path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
    }

    /// Runs `body`, expects `expected`, and checks nothing on disk changed.
    func expectRefusal(
        _ expected: (VaultError) -> Bool, _ body: () async throws -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let before = try snapshot()
        do {
            try await body()
            Issue.record("expected an error", sourceLocation: sourceLocation)
        } catch let error as VaultError {
            #expect(expected(error), "unexpected \(error)", sourceLocation: sourceLocation)
        }
        #expect(try snapshot() == before, "the vault files changed", sourceLocation: sourceLocation)
    }

    // MARK: Round trips

    @Test func roundTripsRecordsPerProfile() async throws {
        let vault = vault()
        #expect(try await vault.load(profile: "work") == nil)
        #expect(try await vault.profiles() == [])
        try await vault.save(sample())
        try await vault.save(sample("other", tag: "two"))
        #expect(try await vault.load(profile: "work") == sample())
        #expect(try await self.vault().load(profile: "other") == sample("other", tag: "two"))
        #expect(try await vault.profiles() == ["other", "work"])
        try await vault.delete(profile: "work")
        try await vault.delete(profile: "work")
        #expect(try await vault.load(profile: "work") == nil)
        #expect(try await vault.profiles() == ["other"])
    }

    @Test func filesArePrivateAndHoldNoPlaintext() async throws {
        try await vault().save(sample())
        #expect(try mode(directory) == 0o700)
        #expect(try mode(keyPath) == 0o600)
        #expect(try mode(recordPath()) == 0o600)
        let everything = try bytes(keyPath) + bytes(recordPath())
        for secret in ["access-one", "refresh-one", "client-secret-one", "alice@example.com", "correct horse"] {
            #expect(!everything.contains(Array(secret.utf8)), "\(secret) is on disk in plaintext")
        }
    }

    @Test func anIndependentImplementationReadsTheFormat() async throws {
        try await vault().save(sample())
        let decrypted = try decryptWithPython(passphrase: "correct horse")
        #expect(decrypted["kdf"] as? String == "scrypt")
        #expect(decrypted["logN"] as? Int == 10)
        let record = try #require(decrypted["record"] as? [String: Any])
        #expect(record["accessToken"] as? String == "access-one")
        #expect(record["clientSecret"] as? String == "client-secret-one")
        #expect(record["profile"] as? String == "work")
    }

    @Test func defaultKDFParametersAreAtLeastInteractiveScrypt() async throws {
        let defaults = EncryptedFileVault.defaultKDFParameters
        #expect(defaults.logN >= 15 && defaults.r >= 8 && defaults.p >= 1)
        let vault = EncryptedFileVault(
            directory: directory, passphrase: .fixed(SecretBytes(utf8: "pw")), keyCache: .disabled)
        try await vault.save(sample())
        let header = try decryptWithPython(passphrase: "pw")
        #expect(header["logN"] as? Int == 15 && header["r"] as? Int == 8 && header["p"] as? Int == 1)
        let status = await vault.status()
        #expect(status.details["kdf"] == "scrypt" && status.details["logN"] == "15")
    }

    // MARK: Refusals, none of which touches the files

    @Test func wrongPassphraseIsItsOwnError() async throws {
        try await vault().save(sample())
        try await expectRefusal({ $0 == .wrongPassphrase }) { _ = try await vault("wrong").load(profile: "work") }
        try await expectRefusal({ $0 == .wrongPassphrase }) { try await vault("wrong").save(sample(tag: "x")) }
        try await expectRefusal({ $0 == .wrongPassphrase }) { try await vault("wrong").save(sample("new")) }
    }

    @Test func missingPassphraseIsItsOwnError() async throws {
        try await vault().save(sample())
        let noPassphrase = EncryptedFileVault(
            directory: directory, passphrase: .unavailable("set the variable"),
            kdfParameters: Self.fastKDF, keyCache: .disabled)
        try await expectRefusal({ if case .passphraseRequired = $0 { true } else { false } }) {
            _ = try await noPassphrase.load(profile: "work")
        }
    }

    @Test func truncatedFilesAreCorrupted() async throws {
        try await vault().save(sample())
        let record = try bytes(recordPath())
        let key = try bytes(keyPath)
        for length in [0, 5, 9, 21, 37, record.count - 1] {
            try write(Array(record.prefix(length)), recordPath())
            try await expectRefusal(isCorrupted) { _ = try await vault().load(profile: "work") }
        }
        try write(record, recordPath())
        for length in [0, 7, 12, 40, key.count - 33, key.count - 1] {
            try write(Array(key.prefix(length)), keyPath)
            try await expectRefusal(isCorrupted) { _ = try await vault().load(profile: "work") }
        }
    }

    @Test func flippedBitsAreCorruptedNotAWrongPassphrase() async throws {
        try await vault().save(sample())
        let record = try bytes(recordPath())
        let key = try bytes(keyPath)
        // Magic, nonce, ciphertext and tag of the record.
        for index in [0, 12, 30, record.count - 1] {
            var damaged = record
            damaged[index] ^= 0x04
            try write(damaged, recordPath())
            try await expectRefusal(isCorrupted) { _ = try await vault().load(profile: "work") }
        }
        try write(record, recordPath())
        // KDF parameters, salt, nonce, wrapped key, key check and checksum of the key file.
        for index in [20, 40, 65, 90, 140, key.count - 1] {
            var damaged = key
            damaged[index] ^= 0x01
            try write(damaged, keyPath)
            try await expectRefusal(isCorrupted) { _ = try await vault().load(profile: "work") }
        }
    }

    @Test func unknownVersionsAreReportedAsSuch() async throws {
        try await vault().save(sample())
        var record = try bytes(recordPath())
        record[9] = 2
        try write(record, recordPath())
        try await expectRefusal({ $0 == .unsupportedVersion(location: recordPath(), version: 2) }) {
            _ = try await vault().load(profile: "work")
        }
        try await vault().delete(profile: "work")
        try await vault().save(sample())
        var key = try bytes(keyPath)
        key[8] = 1
        try write(key, keyPath)
        try await expectRefusal({ $0 == .unsupportedVersion(location: keyPath, version: 257) }) {
            _ = try await vault().load(profile: "work")
        }
    }

    @Test func absurdKDFParametersAreRefusedBeforeDeriving() async throws {
        try await vault().save(sample())
        // logN 40 (2^40 blocks) with a correct checksum, recomputed here by Python's hashlib.
        var key = try bytes(keyPath)
        key[17] = 40
        let checked = key.count - 32
        key.replaceSubrange(checked..., with: try sha256WithPython(Array(key[..<checked])))
        try write(key, keyPath)
        let started = Date()
        try await expectRefusal({
            if case .corrupted(_, let reason) = $0 { reason.contains("parameters") } else { false }
        }) { _ = try await vault().load(profile: "work") }
        #expect(Date().timeIntervalSince(started) < 1)
    }

    @Test func aRecordCopiedOverAnotherProfileIsRefused() async throws {
        try await vault().save(sample("alice"))
        try await vault().save(sample("bob", tag: "bob"))
        try write(try bytes(recordPath("alice")), recordPath("bob"))
        try await expectRefusal(isCorrupted) { _ = try await vault().load(profile: "bob") }
    }

    @Test func unsafePermissionsAreRefusedWithTheFix() async throws {
        try await vault().save(sample())
        for (path, exposed, fix) in [
            (recordPath(), 0o644, "chmod 0600"), (keyPath, 0o640, "chmod 0600"),
            (directory, 0o755, "chmod 0700"), (directory, 0o701, "chmod 0700"),
        ] {
            let original = path == directory ? 0o700 : 0o600
            chmod(path, mode_t(exposed))
            try await expectRefusal({
                if case .unsafePermissions(let message) = $0 {
                    message.contains(fix) && message.contains(path)
                } else {
                    false
                }
            }) { _ = try await vault().load(profile: "work") }
            try await expectRefusal({ if case .unsafePermissions = $0 { true } else { false } }) {
                try await vault().save(sample(tag: "x"))
            }
            chmod(path, mode_t(original))
        }
        #expect(try await vault().load(profile: "work") == sample())
    }

    /// A record another user owns could have been swapped by them: refused with the chown that fixes it, not a
    /// chmod that would not.
    @Test(.enabled(if: getuid() == 0, "chown needs root"))
    func aRecordAnotherUserOwnsIsRefusedWithTheChown() async throws {
        try await vault().save(sample())
        chown(recordPath(), 12345, 12345)
        try await expectRefusal({
            if case .unsafePermissions(let message) = $0 {
                message.contains("chown root '\(recordPath())'")
            } else {
                false
            }
        }) { _ = try await vault().load(profile: "work") }
        chown(recordPath(), 0, 0)
        #expect(try await vault().load(profile: "work") == sample())
    }

    @Test func invalidProfileNamesNeverBecomePaths() async throws {
        for name in ["../escape", "a/b", ".hidden", ""] {
            await #expect(throws: VaultError.self) { try await vault().save(sample(name)) }
        }
        #expect(!FileManager.default.fileExists(atPath: root.appending("escape.record")))
    }

    // MARK: Passphrase change and the key cache

    @Test func changingThePassphraseRewrapsTheKeyOnly() async throws {
        try await vault("old").save(sample())
        let recordBefore = try bytes(recordPath())
        let keyBefore = try bytes(keyPath)
        try await vault("old").changePassphrase(new: SecretBytes(utf8: "new"))
        #expect(try bytes(recordPath()) == recordBefore)
        #expect(try bytes(keyPath) != keyBefore)
        #expect(try await vault("new").load(profile: "work") == sample())
        try await expectRefusal({ $0 == .wrongPassphrase }) { _ = try await vault("old").load(profile: "work") }
        // With the wrong current passphrase nothing changes.
        try await expectRefusal({ $0 == .wrongPassphrase }) {
            try await vault("old").changePassphrase(new: SecretBytes(utf8: "other"))
        }
        #expect(try decryptWithPython(passphrase: "new")["record"] != nil)
    }

    func isCorrupted(_ error: VaultError) -> Bool {
        if case .corrupted = error { return true }
        return false
    }

    func decryptWithPython(passphrase: String) throws -> [String: Any] {
        var environment = ProcessInfo.processInfo.environment
        environment["VAULT_PASSPHRASE"] = passphrase
        let output = try ProcessRunner.run(
            "/usr/bin/python3",
            [
                "\(SecretServiceSession.scriptsDirectory)/decrypt_vault_record.py", directory, "work",
            ], environment: environment)
        guard output.status == 0 else { throw TestFixtureError("decrypt_vault_record.py failed: \(output.stderrText)") }
        return try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any] ?? [:]
    }

    func sha256WithPython(_ bytes: [UInt8]) throws -> [UInt8] {
        let output = try ProcessRunner.run(
            "/usr/bin/python3",
            [
                "-c", "import hashlib, sys; sys.stdout.write(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())",
            ], stdin: Data(bytes))
        return try Hex.decode(output.stdoutText)
    }
}
