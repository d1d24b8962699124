import AuthCrypto
import FoundationEssentials

/// `vault.key`: the random data key, wrapped (AES-256-GCM) under a key derived from the passphrase with scrypt.
///
///     magic "AUTHVKEY" | format version u16 | KDF name (u8 length + "scrypt") | logN u8 | r u32 | p u32
///     | salt (u8 length + 32 bytes) | wrap nonce (12) | wrapped data key (32) | tag (16)
///     | key check (32) | SHA-256 of everything before it (32)
///
/// Integers are big-endian. The wrap authenticates everything from the magic to the nonce, so the parameters
/// cannot be swapped. The trailing checksum tells a damaged file (`.corrupted`) from a wrong passphrase (the tag
/// fails on an intact file). The key check, HMAC-SHA256(data key, a fixed label), lets a data key found in memory
/// or the user keyring be matched to this file without the passphrase, so a stale key is never used. The warm read
/// (`EncryptedFileVault.recordAtHand`) checks neither: there the record's own AES-GCM tag refuses a wrong key, and
/// any failure hands over to the path that checks both.
package struct VaultKeyFile: Sendable, Equatable {
    static let magic = Array("AUTHVKEY".utf8)
    static let formatVersion: UInt16 = 1
    static let kdfName = "scrypt"
    static let saltByteCount = 32
    private static let keyCheckLabel = Array("authvault vault key check v1".utf8)

    var parameters: ScryptParameters
    var salt: [UInt8]
    var wrapNonce: [UInt8]
    var wrappedKey: [UInt8]
    var wrapTag: [UInt8]
    var keyCheck: [UInt8]

    /// Wraps `dataKey` under `passphrase` with a fresh salt and nonce (runs the KDF once).
    init(wrapping dataKey: SecretBytes, passphrase: SecretBytes, parameters: ScryptParameters) throws(VaultError) {
        self.parameters = parameters
        salt = SecureRandom.bytes(count: Self.saltByteCount)
        wrapNonce = SecureRandom.bytes(count: AES256GCM.nonceByteCount)
        keyCheck = Self.keyCheck(for: dataKey)
        wrappedKey = []
        wrapTag = []
        let wrappingKey = try PassphraseKeyDerivation.keyEncryptionKey(
            passphrase: passphrase, salt: salt,
            parameters: parameters)
        do {
            let box = try dataKey.withUnsafeBytes { (plaintext) throws(CryptoError) in
                try AES256GCM.seal(
                    plaintext, using: wrappingKey, nonce: wrapNonce,
                    authenticating: authenticatedHeader)
            }
            wrappedKey = box.ciphertext
            wrapTag = box.tag
        } catch {
            throw .io("cannot wrap the vault key: \(error)")
        }
    }

    /// Parses and checks a key file; nothing here needs the passphrase. Without `verifyingChecksum` (the warm read,
    /// which unwraps nothing and whose record is authenticated by its own tag) the trailing checksum is not computed.
    package init(parsing bytes: [UInt8], location: String, verifyingChecksum: Bool = true) throws(VaultError) {
        let truncated = VaultError.corrupted(location: location, reason: "the file is truncated")
        var reader = ByteReader(bytes)
        guard let magic = reader.read(Self.magic.count) else { throw truncated }
        guard magic == Self.magic else {
            throw .corrupted(location: location, reason: "it is not an authvault key file")
        }
        guard let version = reader.readUInt16() else { throw truncated }
        guard version == Self.formatVersion else {
            throw .unsupportedVersion(location: location, version: Int(version))
        }
        guard let kdf = reader.readShort(), let logN = reader.readUInt8(), let r = reader.readUInt32(),
            let p = reader.readUInt32(), let salt = reader.readShort(),
            let nonce = reader.read(AES256GCM.nonceByteCount), let wrapped = reader.read(AES256GCM.keyByteCount),
            let tag = reader.read(AES256GCM.tagByteCount), let keyCheck = reader.read(HMACSHA256.byteCount)
        else { throw truncated }
        let checkedLength = reader.offset
        guard let checksum = reader.read(SHA256.byteCount) else { throw truncated }
        guard reader.remaining == 0 else {
            throw .corrupted(location: location, reason: "unexpected bytes after the checksum")
        }
        guard !verifyingChecksum || ConstantTime.equals(SHA256.hash(data: bytes[0..<checkedLength]), checksum) else {
            throw .corrupted(location: location, reason: "the checksum does not match")
        }
        guard kdf == Array(Self.kdfName.utf8) else {
            throw .corrupted(
                location: location, reason: "unknown key derivation '\(String(decoding: kdf, as: UTF8.self))'")
        }
        parameters = ScryptParameters(logN: logN, r: r, p: p)
        guard PassphraseKeyDerivation.isAcceptable(parameters), salt.count >= 16 else {
            throw .corrupted(location: location, reason: "the key derivation parameters are out of range")
        }
        self.salt = salt
        wrapNonce = nonce
        wrappedKey = wrapped
        wrapTag = tag
        self.keyCheck = keyCheck
    }

    var encoded: [UInt8] {
        var writer = ByteWriter()
        writer.append(authenticatedHeader)
        writer.append(wrappedKey)
        writer.append(wrapTag)
        writer.append(keyCheck)
        let checksum = SHA256.hash(data: writer.bytes)
        writer.append(checksum)
        return writer.bytes
    }

    /// The data key, or `.wrongPassphrase` when the tag fails on this (checksum-verified) file. Runs the KDF once.
    func unwrap(passphrase: SecretBytes, location: String) throws(VaultError) -> SecretBytes {
        let wrappingKey = try PassphraseKeyDerivation.keyEncryptionKey(
            passphrase: passphrase, salt: salt,
            parameters: parameters)
        let dataKey: SecretBytes
        do {
            let box = try AES256GCM.SealedBox(nonce: wrapNonce, ciphertext: wrappedKey, tag: wrapTag)
            dataKey = try AES256GCM.open(box, using: wrappingKey, authenticating: authenticatedHeader)
        } catch .authenticationFailure {
            throw .wrongPassphrase
        } catch {
            throw .corrupted(location: location, reason: "the wrapped key is malformed")
        }
        guard matches(dataKey) else {
            throw .corrupted(location: location, reason: "the key check does not match the unwrapped key")
        }
        return dataKey
    }

    /// True when `dataKey` is the key this file wraps (constant time).
    func matches(_ dataKey: SecretBytes) -> Bool {
        ConstantTime.equals(Self.keyCheck(for: dataKey), keyCheck)
    }

    /// The description of this vault's key in the kernel keyring: unique per key file (128 bits of its random salt,
    /// which is no secret), so two vaults never share an entry and a rewrapped or replaced file never meets its
    /// predecessor's entry. Naming it needs no hash, so a warm read fetches no digest from OpenSSL.
    var cacheDescription: String {
        Self.description(of: salt.prefix(16))
    }

    /// What earlier versions named the entry (a hash of the salt): dropped too when the key is, so that a key
    /// cached before an upgrade does not outlive a lock.
    var earlierCacheDescription: String {
        Self.description(of: SHA256.hash(data: salt).prefix(16))
    }

    /// The bytes in lowercase hex, written digit by digit: `joined()` of `String(radix:)`s costs run-time type
    /// look-ups (0.2 M instructions) on the warm token path.
    private static func description(of bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = Array("authvault:vault-key:".utf8)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static func keyCheck(for dataKey: SecretBytes) -> [UInt8] {
        HMACSHA256.authenticationCode(for: keyCheckLabel, key: dataKey)
    }

    /// Magic through wrap nonce: what the wrap authenticates.
    private var authenticatedHeader: [UInt8] {
        var writer = ByteWriter()
        writer.append(Self.magic)
        writer.append(Self.formatVersion)
        writer.appendShort(Array(Self.kdfName.utf8))
        writer.append(parameters.logN)
        writer.append(parameters.r)
        writer.append(parameters.p)
        writer.appendShort(salt)
        writer.append(wrapNonce)
        return writer.bytes
    }
}
