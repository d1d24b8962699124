import AuthCrypto
import Foundation
import TestSupport
import Testing

@testable import TokenVault

extension EncryptedFileVaultTests {
    // MARK: Lock and unlock

    /// A locked vault object uses neither its passphrase source nor the keyring until `unlock()`: a long-lived
    /// process with the passphrase at hand (the agent) must not quietly undo `authvault vault lock`.
    @Test func aLockedVaultStaysLockedUntilUnlocked() async throws {
        let vault = vault()
        try await vault.save(sample())
        try await vault.lock()
        try await expectRefusal({ $0 == .lockedUntilUnlocked }) {
            _ = try await vault.load(profile: "work")
        }
        try await expectRefusal({ $0 == .lockedUntilUnlocked }) {
            try await vault.save(sample(tag: "two"))
        }
        #expect(await vault.status().state == .locked)
        try await vault.unlock()
        #expect(try await vault.load(profile: "work") == sample())
        #expect(await vault.status().state == .available)
    }

    @Test func aFailedUnlockLeavesTheVaultLocked() async throws {
        try await vault().save(sample())
        let wrong = vault("not it")
        try await wrong.lock()
        try await expectRefusal({ $0 == .wrongPassphrase }) { try await wrong.unlock() }
        try await expectRefusal({ $0 == .lockedUntilUnlocked }) {
            _ = try await wrong.load(profile: "work")
        }
    }

    // MARK: Re-key

    /// After `change-passphrase --rekey`, a copy of the old vault.key with the old passphrase opens no record
    /// written since; the new passphrase opens every record, re-encrypted under the new data key.
    @Test func reKeyingMeansTheOldKeyFileAndPassphraseOpenNothingNew() async throws {
        try await vault("old").save(sample())
        try await vault("old").save(sample("home", tag: "home"))
        let oldKeyFile = try bytes(keyPath)
        let oldRecord = try bytes(recordPath())
        let rekeyed = vault("old")
        try await rekeyed.changePassphrase(new: SecretBytes(utf8: "new"), rekey: true)
        #expect(try bytes(recordPath()) != oldRecord, "every record is rewritten")
        #expect(try await vault("new").load(profile: "work") == sample())
        #expect(try await vault("new").load(profile: "home") == sample("home", tag: "home"))
        // The object that re-keyed holds the new key: with the old one it would have to derive, from "old", and fail.
        #expect(try await rekeyed.load(profile: "work") == sample())

        try await vault("new").save(sample(tag: "after"))
        let thief = try copyOfVault(keyFile: oldKeyFile, passphrase: "old")
        await #expect(throws: VaultError.self) { _ = try await thief.load(profile: "work") }
        await #expect(throws: VaultError.self) {
            _ = try await copyOfVault(keyFile: oldKeyFile, passphrase: "new").load(profile: "work")
        }
    }

    /// The control: without --rekey, the old key file with the old passphrase still opens a record written later.
    @Test func withoutReKeyTheOldKeyFileStillOpensNewRecords() async throws {
        try await vault("old").save(sample())
        let oldKeyFile = try bytes(keyPath)
        try await vault("old").changePassphrase(new: SecretBytes(utf8: "new"))
        try await vault("new").save(sample(tag: "after"))
        #expect(
            try await copyOfVault(keyFile: oldKeyFile, passphrase: "old").load(profile: "work") == sample(tag: "after"))
    }

    /// A directory with `keyFile` beside a copy of the current record of "work", as someone who kept the old
    /// vault.key would put together.
    func copyOfVault(keyFile: [UInt8], passphrase: String) throws -> EncryptedFileVault {
        let copy = root.appending("copy")
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        chmod(copy, 0o700)
        try write(keyFile, copy + "/vault.key")
        try write(try bytes(recordPath()), copy + "/work.record")
        return EncryptedFileVault(
            directory: copy, passphrase: .fixed(SecretBytes(utf8: passphrase)),
            kdfParameters: Self.fastKDF, keyCache: .disabled)
    }

    @Test func reKeyingBumpsEveryRecordsRevision() async throws {
        try await vault().save(sample())
        let changeStamps = vault().changeStamps
        let before = changeStamps.stamp(profile: "work")
        try await vault().changePassphrase(new: SecretBytes(utf8: "new"), rekey: true)
        #expect(changeStamps.stamp(profile: "work") != before)
    }

    /// While a re-key holds the key-file lock (here: the test, exclusively), a save, a load and a delete wait for
    /// it: a delete that went ahead would be undone by the re-key writing the record back.
    @Test func recordsWaitForAReKeyInProgress() async throws {
        let vault = vault()
        try await vault.save(sample())
        let lockFile = open(directory + "/" + VaultKeyFileLock.fileName, O_RDWR | O_CLOEXEC)
        #expect(lockFile >= 0)
        defer { close(lockFile) }
        #expect(flock(lockFile, LOCK_EX) == 0)

        let delete = Task { try await vault.delete(profile: "work") }
        let save = Task { try await vault.save(sample("home")) }
        let load = Task { try await vault.load(profile: "work") }
        try await Task.sleep(for: .milliseconds(300))
        #expect(FileManager.default.fileExists(atPath: recordPath()), "the delete waited")
        #expect(!FileManager.default.fileExists(atPath: recordPath("home")), "the save waited")

        flock(lockFile, LOCK_UN)
        try await delete.value
        try await save.value
        _ = try await load.value
        #expect(!FileManager.default.fileExists(atPath: recordPath()))
        #expect(try await vault.load(profile: "home") == sample("home"))
    }

    /// A damaged record stops the re-key before anything is written.
    @Test func aDamagedRecordStopsTheReKeyWithNothingChanged() async throws {
        try await vault().save(sample())
        try await vault().save(sample("home"))
        var damaged = try bytes(recordPath("home"))
        damaged[damaged.count - 1] ^= 0x01
        try write(damaged, recordPath("home"))
        try await expectRefusal(isCorrupted) {
            try await vault().changePassphrase(new: SecretBytes(utf8: "new"), rekey: true)
        }
    }
}
