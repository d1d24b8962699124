import AuthCrypto
import Foundation
import TestSupport
import Testing

@testable import TokenVault

/// The file vault keeps each profile's pool and client with its record and hands a record out only for the same:
/// a profile reconfigured for another pool or client finds no session (nor the old client's secret), and the record
/// is there again when the configuration goes back. A record saved before bindings were kept matches any.
@Suite struct FileVaultBindingTests {
    let root: TemporaryDirectory
    var directory: String { root.appending("authvault") }
    static let poolA = ProfileBinding(userPoolId: "us-east-1_PoolA", clientId: "client-a")

    init() throws {
        root = try TemporaryDirectory(prefix: "authvault-file-binding")
    }

    func vault(_ binding: ProfileBinding?) -> EncryptedFileVault {
        EncryptedFileVault(
            directory: directory, passphrase: .fixed(SecretBytes(utf8: "binding test")),
            kdfParameters: EncryptedFileVaultTests.fastKDF, keyCache: .disabled,
            bindings: binding.map { ["work": $0] } ?? [:])
    }

    func record() -> CredentialRecord {
        var record = CredentialRecord(profile: "work")
        record.accessToken = SecretBytes(utf8: "access-of-pool-a")
        record.clientSecret = SecretBytes(utf8: "secret-of-client-a")
        return record
    }

    @Test func aRecordIsHandedOutOnlyForThePoolAndClientItWasSavedFor() async throws {
        try await vault(Self.poolA).save(record())
        #expect(try await vault(Self.poolA).load(profile: "work")?.accessToken == record().accessToken)
        #expect(try await vault(Self.poolA).load(profile: "work") == record(), "reads back as saved")
        #expect(
            try await vault(ProfileBinding(userPoolId: "us-east-1_PoolA", clientId: "client-b")).load(profile: "work")
                == nil,
            "another app client got the old client's tokens and secret")
        #expect(
            try await vault(ProfileBinding(userPoolId: "us-east-1_PoolB", clientId: "client-a")).load(profile: "work")
                == nil,
            "another pool got the old pool's tokens")
        #expect(try await vault(Self.poolA).load(profile: "work") != nil, "kept for the old configuration")
    }

    @Test func aRecordSavedWithoutABindingMatchesAny() async throws {
        try await vault(nil).save(record())
        #expect(try await vault(Self.poolA).load(profile: "work")?.accessToken == record().accessToken)
    }
}
