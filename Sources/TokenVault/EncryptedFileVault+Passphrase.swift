import AuthCrypto
import SecureFiles
internal import SystemPlumbing

extension EncryptedFileVault {
    /// Wraps the data key under `new` (fresh salt and nonce, this vault's KDF parameters). The current passphrase
    /// is asked for even when the key is cached: whoever changes it must know it.
    ///
    /// With `rekey`, the data key itself is replaced by a new random one and every record is re-encrypted under it,
    /// so an old copy of `vault.key` with the old passphrase opens no record written from now on. All of it happens
    /// under the key-file lock held exclusively (no process reads or writes a record meanwhile); every record is
    /// opened before anything is written, so a damaged one stops the re-key with nothing changed. The records are
    /// written first and `vault.key` last: an interrupted re-key leaves the records already rewritten unreadable,
    /// and those profiles must sign in again. Each record's revision is bumped, so a running agent drops the old key.
    public func changePassphrase(new: SecretBytes, rekey: Bool = false) async throws(VaultError) {
        guard new.count > 0 else { throw .passphraseRequired("the new passphrase is empty") }
        guard try directoryExists(), let keyFile = try readKeyFile() else {
            throw .io("there is no vault at \(directory) yet; saving a profile creates it")
        }
        let current = try await passphraseSource.passphrase(for: .unlock)
        let location = keyFilePath
        let parameters = kdfParameters
        let directory = self.directory
        let (rewrapped, key, names) = try await DedicatedThread.run {
            () throws(VaultError) -> (VaultKeyFile, SecretBytes, [String]) in
            try VaultKeyFileLock.withLock(directory: directory) { () throws(VaultError) in
                let oldKey = try keyFile.unwrap(passphrase: current, location: location)
                // Another process may have changed it meanwhile: rewrap only the file whose key we just checked.
                guard let onDisk = try Self.read(location), onDisk == keyFile.encoded else {
                    throw .io("\(location) changed while the passphrase was being changed; try again")
                }
                guard rekey else {
                    let rewrapped = try VaultKeyFile(wrapping: oldKey, passphrase: new, parameters: parameters)
                    try Self.write(rewrapped.encoded, to: location)
                    return (rewrapped, oldKey, [])
                }
                // Listed under the lock: no record is added or removed until the re-key is done.
                let names = try Self.profiles(in: directory)
                let opened = try Self.openAll(names.map { ($0, self.recordPath(profile: $0)) }, using: oldKey)
                let newKey = SecureRandom.secretBytes(count: AES256GCM.keyByteCount)
                let rewrapped = try VaultKeyFile(wrapping: newKey, passphrase: new, parameters: parameters)
                for (path, record) in opened {
                    try Self.write(try VaultRecordFile.seal(record, using: newKey), to: path)
                }
                try Self.write(rewrapped.encoded, to: location)
                return (rewrapped, newKey, names)
            }
        }
        uncache(keyFile)
        cache(key, for: rewrapped)
        for name in names { try changeStamps.bump(profile: name) }
    }

    /// Every record that exists among `records` (profile, path), decrypted; the first that fails stops it all.
    private static func openAll(
        _ records: [(String, String)], using key: SecretBytes
    ) throws(VaultError) -> [(String, CredentialRecord)] {
        var opened: [(String, CredentialRecord)] = []
        for (profile, path) in records {
            guard let bytes = try read(path) else { continue }
            let envelope = try VaultRecordFile.envelope(of: bytes, location: path)
            opened.append((path, try VaultRecordFile.open(envelope, profile: profile, using: key, location: path)))
        }
        return opened
    }
}
