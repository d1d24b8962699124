import SecureFiles
internal import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// The vault's files: read, written and removed safely, and listed.
extension EncryptedFileVault {
    /// The profiles with a record file in `directory`, by name.
    static func profiles(in directory: String) throws(VaultError) -> [String] {
        guard let stream = opendir(directory) else {
            throw .io("cannot list \(directory): \(SystemCallError.text(errno))")
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(cString: $0.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            guard name.hasSuffix(Self.recordSuffix) else { continue }
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
