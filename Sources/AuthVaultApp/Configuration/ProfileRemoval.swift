import TokenVault

/// What `removeProfile` took away.
public struct RemovedProfile: Sendable, Equatable {
    public let name: String
    /// The backend whose record of the profile was deleted; nil when no backend was ever chosen for it.
    public let backend: VaultBackendKind?
    /// The profile was the one chosen with `profiles use`, so no profile is chosen now.
    public let wasCurrent: Bool
}

extension Application {
    /// Removes a profile: its vault record first (under the profile lock: the tokens and client secret go), then its
    /// entry in the configuration, the choice of it as the current profile, and the record of its backend. The
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
        let backend = try factory.knownBackend(for: name)
        if let backend {
            let vault = try factory.backend(backend)
            do {
                try await factory.lock(for: name).withLock { () async throws(VaultError) in try await vault.delete(profile: name) }
            } catch {
                switch error {
                case .lock(let error), .body(let error): throw .vault(error)
                }
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
        return RemovedProfile(name: name, backend: backend, wasCurrent: wasCurrent)
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
