import TokenVault

/// What `migrateVault` did with one profile.
public enum VaultMove: Sendable, Equatable {
    /// Its record was copied, checked and deleted from the source.
    case moved(profile: String, from: VaultBackendKind, to: VaultBackendKind)
    /// It held no record to move (or was there already): only its configuration names the backend now.
    case switched(profile: String, to: VaultBackendKind, already: Bool)
}

extension Application {
    /// Moves credentials to `target`: each record is written there, read back and compared, the profile is switched
    /// over, and only then is the record deleted from its source, so an interruption leaves it readable in one of the
    /// two. Each profile's move is told to `moved` as it is done.
    /// - Parameter profile: the one profile to move; nil for every configured profile.
    public func migrateVault(
        to target: VaultBackendKind, profile: String?,
        moved: (VaultMove) -> Void
    ) async throws(ApplicationError) {
        let configuration = try configuration()
        let factory = vaults(for: configuration)
        if let profile, configuration.profiles[profile] == nil {
            throw .configuration(
                .noSuchProfile(name: profile, path: configPath, known: configuration.profiles.keys.sorted()))
        }
        let destination = try factory.backend(target)
        for name in profile.map({ [$0] }) ?? configuration.profiles.keys.sorted() {
            moved(try await migrate(name, to: destination, kind: target, factory: factory))
        }
    }

    private func migrate(
        _ name: String, to destination: any VaultBackend, kind target: VaultBackendKind,
        factory: VaultFactory
    ) async throws(ApplicationError) -> VaultMove {
        let source = try factory.knownBackend(for: name)
        do {
            return try await factory.lock(for: name).withLock { () async throws(ApplicationError) -> VaultMove in
                if let source, source != target {
                    let origin = try factory.backend(source)
                    if let record = try await Self.vault({ () async throws(VaultError) in
                        try await origin.load(profile: name)
                    }) {
                        try await Self.vault { () async throws(VaultError) in try await destination.save(record) }
                        let copy = try await Self.vault { () async throws(VaultError) in
                            try await destination.load(profile: name)
                        }
                        guard copy == record else { throw .copyDiffers(profile: name, target: target, source: source) }
                        try switchProfile(name, to: target, factory: factory)
                        try await Self.vault { () async throws(VaultError) in try await origin.delete(profile: name) }
                        return .moved(profile: name, from: source, to: target)
                    }
                }
                try switchProfile(name, to: target, factory: factory)
                return .switched(profile: name, to: target, already: source == target)
            }
        } catch {
            switch error {
            case .lock(let error): throw ApplicationError(error)
            case .body(let error): throw error
            }
        }
    }

    /// Points the profile at the new backend: its configuration names it explicitly from now on.
    private func switchProfile(_ name: String, to kind: VaultBackendKind, factory: VaultFactory)
        throws(ApplicationError)
    {
        let choice: VaultChoice = kind == .file ? .file : .secretService
        do {
            try configStore.update { (file: inout ConfigFile) throws(ConfigError) in file.profiles[name]?.vault = choice
            }
        } catch {
            throw .configuration(error)
        }
        try factory.registry.record(kind, for: name)
    }

    private static func vault<T>(_ body: () async throws(VaultError) -> T) async throws(ApplicationError) -> T {
        do { return try await body() } catch { throw ApplicationError(error) }
    }

    /// Changes the encrypted file vault's passphrase to the one `AUTHVAULT_NEW_VAULT_PASSPHRASE(_FILE)` or the
    /// prompter gives; with `rekey`, also replaces its data key and re-encrypts every record.
    public func changeVaultPassphrase(rekey: Bool) async throws(ApplicationError) {
        let factory = vaults(for: try configuration())
        let newSource = factory.passphraseSource(variable: "AUTHVAULT_NEW_VAULT_PASSPHRASE")
        let vault = try factory.fileVault()
        do throws(VaultError) {
            let new = try await newSource.passphrase(for: .create)
            try await vault.changePassphrase(new: new, rekey: rekey)
        } catch {
            throw ApplicationError(error)
        }
    }
}
