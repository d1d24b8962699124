import SecureFiles
internal import SystemPlumbing

/// The vault's files: read, written and removed safely, and listed.
extension EncryptedFileVault {
    /// The profiles with a record file in `directory`, by name.
    static func profiles(in directory: String) throws(VaultError) -> [String] {
        let entries: [String]
        do { entries = try SystemCall.directoryEntries(atPath: directory) } catch {
            throw .io("cannot list \(directory): \(SystemCallError.text(error.code))")
        }
        var names: [String] = []
        for name in entries where name.hasSuffix(Self.recordSuffix) {
            let profile = String(name.dropLast(Self.recordSuffix.count))
            if ProfileFileName.isValid(profile) { names.append(profile) }
        }
        return names.sorted()
    }

    nonisolated func readKeyFile(verifyingChecksum: Bool = true) throws(VaultError) -> VaultKeyFile? {
        guard let bytes = try Self.read(keyFilePath) else { return nil }
        return try VaultKeyFile(parsing: bytes, location: keyFilePath, verifyingChecksum: verifyingChecksum)
    }

    /// False when the directory does not exist yet; refuses one that others can enter.
    nonisolated func directoryExists() throws(VaultError) -> Bool {
        do {
            try PrivateDirectory.checkPrivate(directory)
            return true
        } catch .notFound {
            return false
        } catch {
            throw Self.vaultError(error)
        }
    }

    func checkedRecordPath(_ profile: String) throws(VaultError) -> String {
        guard ProfileFileName.isValid(profile) else {
            throw .io("the profile name '\(profile)' cannot be used as a file name (\(ProfileFileName.rule))")
        }
        return recordPath(profile: profile)
    }

    static func read(_ path: String) throws(VaultError) -> [UInt8]? {
        do {
            return try SecureFile.read(path)
        } catch {
            throw vaultError(error)
        }
    }

    static func write(_ bytes: [UInt8], to path: String) throws(VaultError) {
        do {
            try SecureFile.write(bytes, to: path)
        } catch {
            throw vaultError(error)
        }
    }

    static func remove(_ path: String) throws(VaultError) {
        do {
            try SecureFile.remove(path)
        } catch {
            throw vaultError(error)
        }
    }

    static func vaultError(_ error: FileSystemError) -> VaultError {
        switch error {
        case .unsafePermissions, .foreignOwner: .unsafePermissions(error.description)
        default: .io(error.description)
        }
    }
}
