import AuthCrypto
import Foundation
import TestSupport
import Testing

@testable import TokenVault

/// The per-profile change-stamp file: what a bump changes, where it is and with which modes, and that both the file
/// vault's writes bump it (the Secret Service's are checked in SecretServiceVaultTests).
@Suite struct ChangeStampsTests {
    let root: TemporaryDirectory
    var changeStamps: ChangeStamps { ChangeStamps(dataDirectory: root.appending("authvault")) }

    init() throws {
        root = try TemporaryDirectory(prefix: "authvault-revisions")
    }

    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    @Test func everyBumpGivesANewStampInAPrivateFile() async throws {
        #expect(changeStamps.stamp(profile: "work") == .absent)
        var seen: [ChangeStamp] = [changeStamps.stamp(profile: "work")]
        // Back to back, faster than the kernel's own file time stamps move: each one is still told apart.
        for _ in 0..<20 {
            try changeStamps.bump(profile: "work")
            let stamp = changeStamps.stamp(profile: "work")
            #expect(stamp != seen.last, "a bump that left the stamp as it was")
            seen.append(stamp)
        }
        #expect(Set(seen).count == seen.count, "a stamp came back: \(seen)")
        let path = try #require(changeStamps.path(profile: "work"))
        #expect(path == root.appending("authvault/revisions/work.revision"))
        #expect(try mode(path) == 0o600)
        #expect(try mode(changeStamps.directory) == 0o700)
        #expect(changeStamps.stamp(profile: "other") == .absent, "one profile's bump is not another's")
    }

    @Test func aNameThatCannotBeAFileIsRefused() async throws {
        for name in ["../escape", ".hidden", "a/b", ""] {
            #expect(changeStamps.path(profile: name) == nil)
            #expect(changeStamps.stamp(profile: name) == .absent)
            #expect(throws: VaultError.self) { try changeStamps.bump(profile: name) }
        }
        #expect(!FileManager.default.fileExists(atPath: root.appending("escape.revision")))
    }

    @Test func aDirectoryOthersCanEnterIsRefusedWithTheFix() async throws {
        let changeStamps = self.changeStamps
        let directory = changeStamps.directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        chmod(directory, 0o777)
        let message = Self.failure { () throws(VaultError) in try changeStamps.bump(profile: "work") }
        #expect(message?.contains("chmod 0700 '\(directory)'") == true, "\(message ?? "no error")")
        #expect(changeStamps.stamp(profile: "work") == .absent)
    }

    static func failure(_ body: () throws(VaultError) -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return error.description
        }
    }

    @Test func theFileVaultBumpsOnEverySaveAndDelete() async throws {
        let vault = EncryptedFileVault(
            directory: root.appending("authvault"), passphrase: .fixed(SecretBytes(utf8: "pw")),
            kdfParameters: EncryptedFileVaultTests.fastKDF, keyCache: .disabled)
        #expect(vault.changeStamps == changeStamps)
        var record = CredentialRecord(profile: "work")
        record.accessToken = SecretBytes(utf8: "access-one")
        try await vault.save(record)
        let saved = changeStamps.stamp(profile: "work")
        #expect(saved != .absent)
        _ = try await vault.load(profile: "work")
        #expect(changeStamps.stamp(profile: "work") == saved, "a read is not a change")
        try await vault.delete(profile: "work")
        #expect(changeStamps.stamp(profile: "work") != saved)
    }
}
