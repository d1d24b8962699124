import FoundationEssentials
import TokenVault

/// What `removeProfile` took away.
public struct RemovedProfile: Sendable, Equatable {
    public let name: String
    /// The backends whose record of the profile (tokens, client secret, device keys, AWS credentials) was deleted:
    /// the encrypted file when it held one, the Secret Service when it held the profile. Empty when neither did.
    public let erasedFrom: [VaultBackendKind]
    /// The profile was the one chosen with `profiles use`, so no profile is chosen now.
    public let wasCurrent: Bool
}

extension Application {
    /// Removes a profile and everything kept for it: under the profile lock, its vault records (the file vault's
    /// always, whatever backend holds the profile now: one left from before a migration holds secrets too; the
    /// Secret Service's items when it holds the profile), then its lock file; then its entry in the configuration
    /// and the choice of it as the current profile, its entry in the record of backends and its revision file. The
    /// tokens are forgotten here, not revoked. A vault that cannot be reached changes nothing.
    public func removeProfile(named name: String) async throws(ApplicationError) -> RemovedProfile {
        let configuration: ConfigFile
        do {
            configuration = try configStore.load()
            _ = try configStore.profile(named: name, in: configuration)
        } catch {
            throw .configuration(error)
        }
        let factory = vaults(for: configuration)
        let fileVault = try factory.fileVault()
        let secretService: (any VaultBackend)? =
            try factory.knownBackend(for: name) == .secretService ? factory.secretServiceVault() : nil
        let lock = factory.lock(for: name)
        let erased: [VaultBackendKind]
        do {
            erased = try await lock.withLock { () async throws(VaultError) -> [VaultBackendKind] in
                var erased: [VaultBackendKind] = []
                // Unlinking the record needs no passphrase.
                if FileManager.default.fileExists(atPath: fileVault.recordPath(profile: name)) {
                    try await fileVault.delete(profile: name)
                    erased.append(.file)
                }
                if let secretService {
                    try await secretService.delete(profile: name)
                    erased.append(.secretService)
                }
                try lock.removeFiles()
                return erased
            }
        } catch {
            switch error {
            case .lock(let error), .body(let error): throw ApplicationError(error)
            }
        }
        var wasCurrent = false
        do {
            try configStore.update { (file: inout ConfigFile) throws(ConfigError) in
                file.profiles[name] = nil
                if file.currentProfile == name {
                    file.currentProfile = nil
                    wasCurrent = true
                }
            }
        } catch {
            throw .configuration(error)
        }
        try factory.registry.forget(name)
        do { try factory.changeStamps.forget(profile: name) } catch { throw ApplicationError(error) }
        return RemovedProfile(name: name, erasedFrom: erased, wasCurrent: wasCurrent)
    }

    /// Chooses the profile later commands use when none is named; nil goes back to "default".
    public func useProfile(named name: String?) throws(ApplicationError) {
        do {
            try configStore.update { (file: inout ConfigFile) throws(ConfigError) in
                if let name, file.profiles[name] == nil {
                    throw .noSuchProfile(name: name, path: configStore.path, known: file.profiles.keys.sorted())
                }
                file.currentProfile = name
            }
        } catch {
            throw .configuration(error)
        }
    }
}
