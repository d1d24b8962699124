import AuthCrypto
import Foundation
import TestSupport
import Testing
import TokenVault

@testable import AuthVaultApp

/// The encrypted file vault's passphrase as a person at a terminal gives it: what the first prompt says, three tries
/// at a wrong one, and the way out named where nobody can be asked.
@Suite struct PassphrasePromptUseCaseTests {
    private static let passphrase = "the right vault passphrase"

    /// An application in a home of its own with profile `work` on the file vault, the passphrase asked of `prompter`.
    private func application(
        _ directory: TemporaryDirectory, prompter: any SecretPrompter, variables: [String: String] = [:]
    ) throws -> Application {
        var environment = ["HOME": directory.path, "AUTHVAULT_KEY_CACHE_TIMEOUT": "0"]
        environment.merge(variables) { $1 }
        let application = Application(environment: EnvironmentVariables(environment), prompter: prompter)
        var settings = ProfileSettings()
        settings.userPoolId = "eu-west-1_AbC123"
        settings.clientId = "client1"
        settings.vault = .file
        try application.configStore.save(ConfigFile(profiles: ["work": settings]))
        return application
    }

    private func createVault(in directory: TemporaryDirectory) async throws {
        let creator = try application(
            directory, prompter: NoPrompter(), variables: ["AUTHVAULT_VAULT_PASSPHRASE": Self.passphrase])
        try await creator.vaults(for: creator.configuration()).fileVault().save(CredentialRecord(profile: "work"))
    }

    @Test func theFirstPromptSaysWhatThePassphraseProtectsAndHowLongItIsRemembered() async throws {
        let directory = try TemporaryDirectory()
        let person = ScriptedPrompter([Self.passphrase, Self.passphrase])
        let application = try application(
            directory, prompter: person, variables: ["AUTHVAULT_KEY_CACHE_TIMEOUT": "900"])
        try await application.vaults(for: application.configuration()).fileVault().save(
            CredentialRecord(profile: "work"))
        let prompts = person.prompts.withLock { $0 }
        #expect(prompts.count == 2)
        #expect(prompts.first?.contains("protects the tokens in \(application.dataDirectory)") == true, "\(prompts)")
        #expect(prompts.first?.contains("remembered for 15 min in your user keyring") == true, "\(prompts)")
        #expect(prompts.allSatisfy { $0.lowercased().contains("vault passphrase") && $0.hasSuffix(": ") }, "\(prompts)")
    }

    @Test func aWrongPassphraseIsAskedAgainUpToThreeTimes() async throws {
        let directory = try TemporaryDirectory()
        try await createVault(in: directory)
        let person = ScriptedPrompter(["wrong one", "wrong two", Self.passphrase])
        let application = try application(directory, prompter: person)
        #expect(try await application.unlockFileVault() == .unlocked(inAgent: false))
        let prompts = person.prompts.withLock { $0 }
        #expect(prompts.count == 3)
        #expect(
            prompts.dropFirst().allSatisfy {
                $0.hasPrefix("Wrong vault passphrase, try again.") && $0.hasSuffix("Vault passphrase: ")
            }, "\(prompts)")
    }

    @Test func threeWrongPassphrasesAreRefusedWithoutAFourthPrompt() async throws {
        let directory = try TemporaryDirectory()
        try await createVault(in: directory)
        let person = ScriptedPrompter(["wrong one", "wrong two", "wrong three", Self.passphrase])
        let application = try application(directory, prompter: person)
        do {
            _ = try await application.unlockFileVault()
            Issue.record("three wrong passphrases unlocked the vault")
        } catch {
            guard case .wrongPassphrase? = error.cause?.underlying as? VaultError else { throw error }
        }
        #expect(person.prompts.withLock { $0.count } == 3)
    }

    /// A passphrase from the environment is the same on every try: one wrong answer is the end.
    @Test func aWrongPassphraseFromTheEnvironmentIsTriedOnce() async throws {
        let directory = try TemporaryDirectory()
        try await createVault(in: directory)
        let person = ScriptedPrompter([Self.passphrase])
        let application = try application(
            directory, prompter: person, variables: ["AUTHVAULT_VAULT_PASSPHRASE": "not it"])
        do {
            _ = try await application.unlockFileVault()
            Issue.record("a wrong passphrase unlocked the vault")
        } catch {
            guard case .wrongPassphrase? = error.cause?.underlying as? VaultError else { throw error }
        }
        #expect(person.prompts.withLock { $0.isEmpty })
    }

    @Test func withNobodyToAskTheRefusalNamesThePassphraseFile() async throws {
        let directory = try TemporaryDirectory()
        try await createVault(in: directory)
        let application = try application(directory, prompter: NoPrompter())
        do {
            _ = try await application.unlockFileVault()
            Issue.record("unlocked with no passphrase")
        } catch {
            guard case .passphraseRequired? = error.cause?.underlying as? VaultError else { throw error }
            #expect(error.description.contains("AUTHVAULT_VAULT_PASSPHRASE_FILE"), "\(error)")
        }
    }

    @Test func unlockingAVaultNeverCreatedSaysSoAndCreatesNothing() async throws {
        let directory = try TemporaryDirectory()
        let person = ScriptedPrompter([Self.passphrase, Self.passphrase])
        let application = try application(directory, prompter: person)
        #expect(try await application.unlockFileVault() == .noVault(directory: application.dataDirectory))
        #expect(person.prompts.withLock { $0.isEmpty })
        #expect(!FileManager.default.fileExists(atPath: application.dataDirectory + "/vault.key"))
    }
}
