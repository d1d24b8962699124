import AuthCrypto
import Foundation
import TestSupport
import Testing

@testable import TokenVault

/// The file vault's kept fresh tokens in this process, with the user keyring: served back only to the same vault
/// directory, profile binding and kind, while the record file and the cached key are the ones it was kept with.
@Suite(.serialized, .enabled(if: FileManager.default.fileExists(atPath: "/proc/keys"), "needs the kernel keyring"))
struct EncryptedFileVaultFreshTokenTests {
    static let bound = ["work": ProfileBinding(userPoolId: "us-east-1_One", clientId: "client-one")]
    let root: TemporaryDirectory
    var directory: String { root.appending("authvault") }

    init() throws {
        root = try TemporaryDirectory(prefix: "authvault-kept-token")
    }

    func vault(
        bindings: [String: ProfileBinding] = bound, cache: DataKeyCache = .userKeyring(timeout: .seconds(120))
    ) -> EncryptedFileVault {
        EncryptedFileVault(
            directory: directory, passphrase: .fixed(SecretBytes(utf8: "correct horse")),
            kdfParameters: ScryptParameters(logN: 10, r: 8, p: 1), keyCache: cache, bindings: bindings)
    }

    func record(_ token: String) -> CredentialRecord {
        var record = CredentialRecord(profile: "work")
        record.accessToken = SecretBytes(utf8: token)
        record.refreshToken = SecretBytes(utf8: "refresh")
        return record
    }

    /// Reads the record at hand and keeps its access token; answers the entry kept.
    func keep(in vault: EncryptedFileVault) throws -> FreshTokenEntry {
        let atHand = try #require(vault.recordAtHand(profile: "work"))
        #expect(atHand.tag == VaultRecordFile.tag(ofFileAt: vault.recordPath(profile: "work")))
        let token = try #require(atHand.record.accessToken)
        let entry = try #require(
            atHand.freshTokenEntry(
                token: token, username: "alice", expiresAt: 2_000_000_000, servableUntil: 1_999_999_000))
        #expect(vault.keepFreshToken(entry, profile: "work", kind: "access", seconds: 100) == nil)
        return entry
    }

    @Test func aKeptTokenIsServedOnlyToItsVaultBindingAndKindWhileItsRecordIsUnchanged() async throws {
        // Keys cached here time out after two minutes, if the test stops before its lock.
        let vault = vault()
        try await vault.save(record("token-one"))
        let kept = try keep(in: vault)
        #expect(vault.freshTokenEntry(profile: "work", kind: "access")?.token == kept.token)
        #expect(vault.freshTokenEntry(profile: "work", kind: "id") == nil, "another kind")
        let rebound = ["work": ProfileBinding(userPoolId: "us-east-1_One", clientId: "client-two")]
        #expect(self.vault(bindings: rebound).freshTokenEntry(profile: "work", kind: "access") == nil, "another client")
        #expect(self.vault(cache: .disabled).freshTokenEntry(profile: "work", kind: "access") == nil, "no cache")

        // Written by a vault that keeps nothing in the keyring: only the record's new tag ends the entry.
        try await self.vault(cache: .disabled).save(record("token-two"))
        #expect(vault.freshTokenEntry(profile: "work", kind: "access") == nil, "the record changed")
        _ = try keep(in: vault)
        try await vault.save(record("token-three"))
        let description = FreshTokenEntry.description(directory: directory, profile: "work", kind: "access")
        #expect(!KernelKeyringCache(timeout: .seconds(1)).contains(description), "a save forgets the kept token")

        _ = try keep(in: vault)
        #expect(KernelKeyringCache(timeout: .seconds(1)).sharing(description) == .sharedWithThisUserOnly)
        try await vault.lock()
        #expect(!KernelKeyringCache(timeout: .seconds(1)).contains(description), "a lock removes it")
        try await vault.unlock()
        #expect(vault.freshTokenEntry(profile: "work", kind: "access") == nil)
    }
}
