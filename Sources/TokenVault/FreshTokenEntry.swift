import AuthCrypto

/// A token the file vault may hand out again without opening its record: kept in the kernel's user keyring beside
/// the data key (which opens the whole record anyway), until the end of the token's fresh window, and only while
/// the record file is the one it was read from (`recordTag`) and the data key is still cached.
///
///     magic "AVFT" | version u8 | record tag (short) | data key's description (short) | binding (short)
///     | servable until, expires at (f64 bits, u64 each) | has username u8 | username (short) | token (u16 + bytes)
public struct FreshTokenEntry: Sendable, Equatable {
    /// The record file's per-write nonce when the token was read (`VaultRecordFile.tag`).
    public let recordTag: [UInt8]
    /// Where the key that opens the record is cached: the entry serves nothing once it is gone (`vault lock`).
    public let dataKeyDescription: String
    /// Local Unix seconds until which the token may be served without reading the record.
    public let servableUntil: Double
    /// The token's expiry, local Unix seconds, as the slow path hands it to a tool.
    public let expiresAt: Double
    public let username: String?
    public let token: SecretBytes
    /// The pool and client the vault bound the profile to when it was kept (`ProfileBinding`): a profile
    /// reconfigured for another is not served the old one's token. Set by the vault.
    var binding = ""

    public init(
        recordTag: [UInt8], dataKeyDescription: String, servableUntil: Double, expiresAt: Double, username: String?,
        token: SecretBytes
    ) {
        self.recordTag = recordTag
        self.dataKeyDescription = dataKeyDescription
        self.servableUntil = servableUntil
        self.expiresAt = expiresAt
        self.username = username
        self.token = token
    }

    static let magic = Array("AVFT".utf8)
    static let version: UInt8 = 1
    /// A token longer than this is not cached (a Cognito token is a few KiB; a key payload is at most 32 KiB).
    static let maximumTokenBytes = 16 * 1024

    /// Nil when a field does not fit the format (it is then not cached).
    func encoded() -> SecretBytes? {
        let name = Array((username ?? "").utf8)
        let description = Array(dataKeyDescription.utf8)
        let binding = Array(self.binding.utf8)
        guard recordTag.count <= 255, description.count <= 255, binding.count <= 255, name.count <= 255,
            token.count <= Self.maximumTokenBytes
        else { return nil }
        var writer = ByteWriter()
        writer.append(Self.magic)
        writer.append(Self.version)
        writer.appendShort(recordTag)
        writer.appendShort(description)
        writer.appendShort(binding)
        writer.append(servableUntil.bitPattern)
        writer.append(expiresAt.bitPattern)
        writer.append(UInt8(username == nil ? 0 : 1))
        writer.appendShort(name)
        writer.append(UInt16(token.count))
        var bytes = writer.bytes
        token.withUnsafeBytes { bytes.append(contentsOf: $0) }
        defer { bytes.wipe() }
        return SecretBytes(bytes)
    }

    /// The entry in `payload`; nil for anything but a whole entry of this version (a garbled or foreign payload
    /// is a cache miss).
    public init?(parsing payload: SecretBytes) {
        guard payload.count <= Self.maximumTokenBytes + 1024 else { return nil }
        var bytes = payload.withUnsafeBytes { Array($0) }
        defer { bytes.wipe() }
        var reader = ByteReader(bytes)
        // Runs first: the reader's share of the buffer goes, so the wipe overwrites it rather than a copy.
        defer { reader = ByteReader([]) }
        guard reader.read(Self.magic.count) == Self.magic, reader.readUInt8() == Self.version,
            let tag = reader.readShort(), let description = reader.readShort(), let binding = reader.readShort(),
            let servableUntil = reader.readUInt64().map(Double.init(bitPattern:)),
            let expiresAt = reader.readUInt64().map(Double.init(bitPattern:)),
            let hasName = reader.readUInt8(), hasName <= 1, let name = reader.readShort(),
            let length = reader.readUInt16(), reader.remaining == Int(length),
            servableUntil.isFinite, expiresAt.isFinite,
            let descriptionText = String(validating: description, as: UTF8.self),
            let bindingText = String(validating: binding, as: UTF8.self),
            let nameText = String(validating: name, as: UTF8.self)
        else { return nil }
        self.recordTag = tag
        self.dataKeyDescription = descriptionText
        self.binding = bindingText
        self.servableUntil = servableUntil
        self.expiresAt = expiresAt
        self.username = hasName == 1 ? nameText : nil
        self.token = SecretBytes(bytes[reader.offset...])
    }

    /// The entry's name in the keyring: one per vault directory, profile and token kind.
    static func description(directory: String, profile: String, kind: String) -> String {
        descriptionPrefix + kind + ":" + profile + ":" + directory
    }

    static let descriptionPrefix = "authvault:fresh-token:"

    /// Whether `keyName` (a key's description) names an entry of the vault in `directory` (of `profile` when given).
    static func names(_ keyName: Substring, directory: String, profile: String? = nil) -> Bool {
        guard keyName.starts(with: descriptionPrefix) else { return false }
        let fields = keyName.dropFirst(descriptionPrefix.count).split(
            separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3, fields[2] == directory else { return false }
        return profile.map { fields[1] == $0 } ?? true
    }
}
