import AuthCrypto

/// `<profile>.record`: one profile's credential record, encrypted under the vault's data key.
///
///     magic "AUTHVREC" | format version u16 | nonce (12) | ciphertext | tag (16)
///
/// A fresh random nonce on every write. The associated data is a fixed label, the format version and the profile
/// name, so a record copied over another profile's file fails its tag instead of being read as that profile.
package enum VaultRecordFile {
    static let magic = Array("AUTHVREC".utf8)
    static let formatVersion: UInt16 = 1
    private static let label = Array("authvault record".utf8)

    static func seal(_ record: CredentialRecord, using dataKey: SecretBytes) throws(VaultError) -> [UInt8] {
        let plaintext = record.serialized()
        let box: AES256GCM.SealedBox
        do {
            box = try plaintext.withUnsafeBytes { (plaintext) throws(CryptoError) in
                try AES256GCM.seal(
                    plaintext, using: dataKey,
                    authenticating: associatedData(profile: record.profile, version: formatVersion))
            }
        } catch {
            throw .io("cannot encrypt the record of profile '\(record.profile)': \(error)")
        }
        var writer = ByteWriter()
        writer.append(magic)
        writer.append(formatVersion)
        writer.append(box.nonce)
        writer.append(box.ciphertext)
        writer.append(box.tag)
        return writer.bytes
    }

    /// The envelope, checked before any key is needed: a truncated file, a foreign file and an unknown version
    /// are told apart without asking for the passphrase.
    package struct Envelope {
        let version: UInt16
        let box: AES256GCM.SealedBox
    }

    package static func envelope(of bytes: [UInt8], location: String) throws(VaultError) -> Envelope {
        let truncated = VaultError.corrupted(location: location, reason: "the file is truncated")
        var reader = ByteReader(bytes)
        guard let magic = reader.read(magic.count) else { throw truncated }
        guard magic == self.magic else {
            throw .corrupted(location: location, reason: "it is not an authvault record file")
        }
        guard let version = reader.readUInt16() else { throw truncated }
        guard version == formatVersion else { throw .unsupportedVersion(location: location, version: Int(version)) }
        guard let nonce = reader.read(AES256GCM.nonceByteCount), reader.remaining >= AES256GCM.tagByteCount,
            let ciphertext = reader.read(reader.remaining - AES256GCM.tagByteCount),
            let tag = reader.read(AES256GCM.tagByteCount)
        else { throw truncated }
        do {
            return Envelope(
                version: version, box: try AES256GCM.SealedBox(nonce: nonce, ciphertext: ciphertext, tag: tag))
        } catch {
            throw truncated
        }
    }

    package static func open(
        _ envelope: Envelope, profile: String, using dataKey: SecretBytes, location: String
    ) throws(VaultError) -> CredentialRecord {
        let plaintext: SecretBytes
        do {
            plaintext = try AES256GCM.open(
                envelope.box, using: dataKey,
                authenticating: associatedData(profile: profile, version: envelope.version))
        } catch {
            throw .corrupted(
                location: location,
                reason: "the record failed authentication (altered, truncated, "
                    + "or not the record of profile '\(profile)')")
        }
        let record: CredentialRecord
        do {
            record = try CredentialRecord(serialized: plaintext)
        } catch .unsupportedVersion(_, let version) {
            throw .unsupportedVersion(location: location, version: version)
        } catch {
            throw .corrupted(location: location, reason: "the decrypted record is not valid")
        }
        guard record.profile == profile else {
            throw .corrupted(location: location, reason: "it holds the record of another profile")
        }
        return record
    }

    private static func associatedData(profile: String, version: UInt16) -> [UInt8] {
        var writer = ByteWriter()
        writer.append(label)
        writer.append(version)
        let name = Array(profile.utf8)
        writer.append(UInt16(clamping: name.count))
        writer.append(name)
        return writer.bytes
    }
}
