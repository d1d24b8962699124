import AuthCrypto
import TestSupport
import Testing
import TokenVault

@testable import AuthVaultApp

/// The client-secret use case, in-process: the secret goes into the profile's vault record beside the session,
/// through the profile's store (one write, the revision one higher), and goes again when removed.
@Suite struct ClientSecretStorageTests {
    func text(_ secret: SecretBytes?) -> String? { secret?.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }

    @Test func theSecretIsKeptBesideTheSessionAndRemovedAgain() async throws {
        let home = try ApplicationTests.Home()
        let session = try await home.application.openProfile(named: "work")
        var record = CredentialRecord(profile: "work")
        record.refreshToken = SecretBytes(utf8: "refresh-token-kept")
        try await session.vault.save(record)

        try await session.storeClientSecret(SecretBytes(utf8: "client-secret-stored"))
        let kept = try #require(try await session.vault.load(profile: "work"))
        expectSecret("client-secret-stored", equals: text(kept.clientSecret))
        expectSecret("refresh-token-kept", equals: text(kept.refreshToken), "the session stays")
        #expect(kept.revision == record.revision + 1)

        // Another opening of the profile (another process) removes it; the session still stays.
        try await home.application.openProfile(named: "work").storeClientSecret(nil)
        let removed = try #require(try await session.vault.load(profile: "work"))
        #expect(removed.clientSecret == nil)
        expectSecret("refresh-token-kept", equals: text(removed.refreshToken))
        #expect(removed.revision == kept.revision + 1)
    }
}
