import AuthCrypto
import Foundation
import SystemPlumbing
import TestSupport
import Testing
import TokenVault

@testable import AuthVaultApp

/// The vault use cases in-process on the encrypted file vault of a home of their own: no command names in their
/// reasons, every change said as it is made.
@Suite struct VaultUseCaseTests {
    private static let passphrase = "vault use case passphrase"

    /// A home of its own (removed with the value, so a test keeps it while it runs) and a profile `work`.
    private struct Home {
        let directory: TemporaryDirectory
        let application: Application
    }

    private func home(_ variables: [String: String] = [:], vault: VaultChoice? = .file) throws -> Home {
        let directory = try TemporaryDirectory()
        var environment = [
            "HOME": directory.path, "AUTHVAULT_VAULT_PASSPHRASE": Self.passphrase, "AUTHVAULT_KEY_CACHE_TIMEOUT": "0",
        ]
        environment.merge(variables) { $1 }
        let application = Application(environment: EnvironmentVariables(environment))
        var settings = ProfileSettings()
        settings.userPoolId = "eu-west-1_AbC123"
        settings.clientId = "client1"
        settings.vault = vault
        try application.configStore.save(ConfigFile(profiles: ["work": settings]))
        return Home(directory: directory, application: application)
    }

    @Test func migratingAnUnknownProfileIsAConfigurationReason() async throws {
        let home = try home()
        let application = home.application
        do {
            try await application.migrateVault(to: .file, profile: "play") { _ in Issue.record("nothing moves") }
            Issue.record("migrated a profile that is not configured")
        } catch {
            guard case .configuration(.noSuchProfile("play", _, ["work"])) = error else { throw error }
        }
    }

    @Test func aProfileWithNothingToMoveIsSwitchedAndSaysSo() async throws {
        let home = try home(vault: nil)
        let application = home.application
        let moves = Locked<[VaultMove]>([])
        try await application.migrateVault(to: .file, profile: nil) { move in moves.withLock { $0.append(move) } }
        #expect(moves.withLock { $0 } == [.switched(profile: "work", to: .file, already: false)])
        #expect(try application.configuration().profiles["work"]?.vault == .file)
        let overview = try await application.vaultOverview(profile: nil)
        #expect(overview.profiles.map(\.backend) == ["file"])
    }

    /// After a change of passphrase the old one opens nothing; the new one does. Without an agent, nobody else is told.
    @Test func aChangedPassphraseReplacesTheOldOne() async throws {
        let newPassphrase = "the new vault passphrase"
        let home = try home(["AUTHVAULT_NEW_VAULT_PASSPHRASE": newPassphrase])
        let application = home.application
        let directory = home.directory
        var record = CredentialRecord(profile: "work")
        record.refreshToken = SecretBytes(utf8: "a refresh token")
        try await application.vaults(for: application.configuration()).fileVault().save(record)
        #expect(try await application.unlockFileVault() == .unlocked(inAgent: false), "no agent was told")
        try await application.changeVaultPassphrase(rekey: true)
        #expect(try await application.lockFileVault() == false)
        let old = Application(
            environment: EnvironmentVariables([
                "HOME": directory.path, "AUTHVAULT_VAULT_PASSPHRASE": Self.passphrase,
                "AUTHVAULT_KEY_CACHE_TIMEOUT": "0",
            ]))
        do {
            _ = try await old.unlockFileVault()
            Issue.record("the old passphrase still opens the vault")
        } catch {
            guard case .vaultLocked = error else { throw error }
        }
        let new = Application(
            environment: EnvironmentVariables([
                "HOME": directory.path, "AUTHVAULT_VAULT_PASSPHRASE": newPassphrase,
                "AUTHVAULT_KEY_CACHE_TIMEOUT": "0",
            ]))
        #expect(try await new.unlockFileVault() == .unlocked(inAgent: false))
    }
}
