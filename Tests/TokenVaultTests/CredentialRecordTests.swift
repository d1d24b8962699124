import AuthCrypto
import SystemPlumbing
import Testing

@testable import TokenVault

@Suite struct CredentialRecordTests {
    func sample() -> CredentialRecord {
        var record = CredentialRecord(profile: "work")
        record.revision = 7
        record.accessToken = SecretBytes(utf8: "access-secret-value")
        record.idToken = SecretBytes(utf8: "id-secret-value")
        record.refreshToken = SecretBytes(utf8: "refresh-secret-value")
        record.accessTokenExpiresAt = 1_800_000_000
        record.idTokenExpiresAt = 1_800_000_001
        record.identity = UserIdentity(
            username: "alice", subject: "sub-1", email: "alice@example.com",
            federated: [.init(provider: "Google", userId: "123")])
        record.origin = .browser
        record.signedInAt = 1_700_000_000
        record.lastRefreshAt = 1_700_000_100
        record.clockOffset = -600.5
        record.clockAnchor = ProviderClockAnchor(
            bootID: "ef482c05-8714-413d-9fa3-3ebd58d02fdb", providerMinusBoot: 1_799_990_000.25)
        record.clientSecret = SecretBytes(utf8: "client-secret-value")
        record.identityId = "us-east-1:0c8e1f6a-2b3c-4d5e-8f90-a1b2c3d4e5f6"
        record.identityPoolId = "us-east-1:11111111-2222-4333-8444-555555555555"
        record.awsCredentials = AWSCredentialEntry(
            accessKeyId: "ASIAEXAMPLE", secretAccessKey: SecretBytes(utf8: "aws-secret-key-value"),
            sessionToken: SecretBytes(utf8: "aws-session-token-value"), expiresAt: 1_800_003_600,
            scope: AWSCredentialScope(
                identityPoolId: "us-east-1:11111111-2222-4333-8444-555555555555",
                roleARN: "arn:aws:iam::123456789012:role/Reader"))
        record.device = DeviceEntry(
            key: "us-east-1_dev", groupKey: "-grp", password: SecretBytes(utf8: "device-password-value"), name: "laptop"
        )
        record.pendingRevocations = [
            PendingRevocation(
                refreshToken: SecretBytes(utf8: "earlier-refresh-token"), origin: .browser,
                signedInAt: 1_799_000_000, lastRefreshAt: nil, lastTriedAt: 1_800_000_100,
                lastFailure: "Cannot reach Cognito")
        ]
        return record
    }

    @Test func serializationRoundTrips() throws {
        let record = sample()
        #expect(try CredentialRecord(serialized: record.serialized()) == record)
    }

    /// A record written before clock offsets were kept reads as one without an offset, the rest unchanged.
    @Test func aRecordWithoutAClockOffsetStillReads() throws {
        let old = SecretBytes(
            utf8: #"{"formatVersion": 1, "revision": 3, "profile": "p", "refreshToken": "r", "lastRefreshAt": 5}"#)
        let record = try CredentialRecord(serialized: old)
        #expect(record.clockOffset == nil)
        #expect(record.lastRefreshAt == 5)
        #expect(record.refreshToken == SecretBytes(utf8: "r"))
    }

    @Test func descriptionNeverShowsSecrets() {
        let text = "\(sample()) \(String(reflecting: sample()))"
        for secret in [
            "access-secret-value", "id-secret-value", "refresh-secret-value", "client-secret-value",
            "aws-secret-key-value", "aws-session-token-value", "device-password-value",
        ] {
            #expect(!text.contains(secret))
        }
        #expect(text.contains("alice@example.com"))
    }

    @Test func unknownFormatVersionAndGarbageAreDistinctErrors() {
        let future = SecretBytes(utf8: #"{"formatVersion": 99, "revision": 1, "profile": "p"}"#)
        #expect(throws: VaultError.unsupportedVersion(location: "record", version: 99)) {
            try CredentialRecord(serialized: future)
        }
        #expect(throws: VaultError.corrupted(location: "record", reason: "the decrypted record is not valid")) {
            try CredentialRecord(serialized: SecretBytes(utf8: "{ nope"))
        }
    }

    @Test func memoryVaultKeepsRecordsPerProfile() async throws {
        let vault = MemoryVault()
        try await vault.save(sample())
        #expect(try await vault.load(profile: "work") == sample())
        #expect(try await vault.load(profile: "other") == nil)
        #expect(try await vault.profiles() == ["work"])
        try await vault.delete(profile: "work")
        try await vault.delete(profile: "work")
        #expect(try await vault.load(profile: "work") == nil)
    }
}
