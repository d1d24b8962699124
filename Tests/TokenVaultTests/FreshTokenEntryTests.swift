import AuthCrypto
import Foundation
import TestSupport
import Testing

@testable import TokenVault

/// A kept fresh token's keyring payload (`FreshTokenEntry`), and the record file's tag it is bound to.
@Suite struct FreshTokenEntryTests {
    static let entry = FreshTokenEntry(
        recordTag: Array(1...12), dataKeyDescription: "authvault:vault-key:00112233445566778899aabbccddeeff",
        servableUntil: 1_800_000_123.25, expiresAt: 1_800_000_999.5, username: "alice",
        token: SecretBytes(utf8: "eyJhbGciOiJub25lIn0.eyJleHAiOjF9."))

    func bytes(_ entry: FreshTokenEntry) throws -> [UInt8] {
        try #require(entry.encoded()).withUnsafeBytes { Array($0) }
    }

    @Test func anEntryReadsBackAsKept() throws {
        let encoded = try #require(Self.entry.encoded())
        #expect(FreshTokenEntry(parsing: encoded) == Self.entry)
        let anonymous = FreshTokenEntry(
            recordTag: [9], dataKeyDescription: "k", servableUntil: 1, expiresAt: 2, username: nil,
            token: SecretBytes(utf8: "t"))
        #expect(FreshTokenEntry(parsing: try #require(anonymous.encoded())) == anonymous)
        #expect(FreshTokenEntry(parsing: try #require(anonymous.encoded()))?.username == nil)
    }

    /// Every truncation, every extension and every single-byte change is refused or read as some whole entry; an
    /// unknown version, a non-finite time or a foreign payload is refused. Nothing crashes.
    @Test func aDamagedOrForeignPayloadIsAMiss() throws {
        let good = try bytes(Self.entry)
        for count in 0..<good.count {
            #expect(FreshTokenEntry(parsing: SecretBytes(good.prefix(count))) == nil, "truncated to \(count)")
        }
        #expect(FreshTokenEntry(parsing: SecretBytes(good + [0])) == nil, "a byte too many")
        for index in good.indices {
            var changed = good
            changed[index] ^= 0xFF
            _ = FreshTokenEntry(parsing: SecretBytes(changed))
        }
        var newer = good
        newer[4] = 2
        #expect(FreshTokenEntry(parsing: SecretBytes(newer)) == nil, "another version")
        var infinite = good
        let servableAt = 4 + 1 + 1 + 12 + 1 + Self.entry.dataKeyDescription.utf8.count + 1
        infinite.replaceSubrange(servableAt..<servableAt + 8, with: [0x7F, 0xF0, 0, 0, 0, 0, 0, 0])
        #expect(FreshTokenEntry(parsing: SecretBytes(infinite)) == nil, "an infinite time")
        #expect(FreshTokenEntry(parsing: SecretBytes(Array(repeating: 0xA5, count: 32))) == nil, "a data key")
        #expect(FreshTokenEntry(parsing: SecretBytes(utf8: "AVFT")) == nil)
    }

    @Test func aTokenTooLongToKeepIsNotKept() {
        let long = FreshTokenEntry(
            recordTag: [1], dataKeyDescription: "k", servableUntil: 1, expiresAt: 2, username: nil,
            token: SecretBytes(Array(repeating: 0x41, count: FreshTokenEntry.maximumTokenBytes + 1)))
        #expect(long.encoded() == nil)
    }

    @Test func anEntryIsNamedByVaultDirectoryProfileAndKind() {
        let name = FreshTokenEntry.description(directory: "/home/a:b/authvault", profile: "work", kind: "access")
        #expect(FreshTokenEntry.names(name[...], directory: "/home/a:b/authvault"))
        #expect(FreshTokenEntry.names(name[...], directory: "/home/a:b/authvault", profile: "work"))
        #expect(!FreshTokenEntry.names(name[...], directory: "/home/a:b/authvault", profile: "other"))
        #expect(!FreshTokenEntry.names(name[...], directory: "/home/a:b/other"))
        #expect(!FreshTokenEntry.names("authvault:vault-key:0011", directory: "/home/a:b/authvault"))
    }

    /// The tag is the record's nonce, read from the file's first bytes: new on every write, nil for anything but
    /// a record file of this format.
    @Test func theRecordTagIsTheNonceOfEachWrite() throws {
        let key = SecretBytes(Array(repeating: 0x5A, count: 32))
        let record = CredentialRecord(profile: "work")
        let first = try VaultRecordFile.seal(record, using: key)
        let second = try VaultRecordFile.seal(record, using: key)
        let envelope = try VaultRecordFile.envelope(of: first, location: "test")
        #expect(VaultRecordFile.tag(of: first) == envelope.box.nonce)
        #expect(VaultRecordFile.tag(of: second) != VaultRecordFile.tag(of: first), "a new tag on every write")
        #expect(VaultRecordFile.tag(of: first.prefix(VaultRecordFile.headerByteCount - 1)) == nil)
        var foreign = first
        foreign[0] ^= 1
        #expect(VaultRecordFile.tag(of: foreign) == nil)

        let root = try TemporaryDirectory(prefix: "authvault-record-tag")
        let path = root.appending("work.record")
        try EncryptedFileVault.write(first, to: path)
        #expect(VaultRecordFile.tag(ofFileAt: path) == envelope.box.nonce)
        try EncryptedFileVault.write(second, to: path)
        #expect(VaultRecordFile.tag(ofFileAt: path) == VaultRecordFile.tag(of: second))
        #expect(VaultRecordFile.tag(ofFileAt: root.appending("missing.record")) == nil)
        #expect(VaultRecordFile.tag(ofFileAt: root.path) == nil, "a directory")
    }
}
