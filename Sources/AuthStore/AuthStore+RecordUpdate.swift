import TokenVault

extension AuthStore {
    /// The one way a profile's stored record changes: under the profile lock, load it (another process may have
    /// changed it since this one last looked), let `change` edit it, and only when the edit changed something bump
    /// its revision and save it — or delete it, when `change` left nothing worth keeping (nil). Then, with the lock
    /// released, tell the machine `event` with the record as it now stands, which notifies the observers; an event
    /// the state refuses leaves the store's memory as it was (the vault has the change, and the next read sees it).
    ///
    /// Never call it while holding the profile lock: `flock` does not nest, and the call would wait for itself.
    /// - Parameters:
    ///   - change: runs holding the lock, on this actor; it may talk to the identity provider (a refresh keeps the
    ///     lock across the call, so no other process refreshes the same session meanwhile).
    ///   - event: what happened, for the machine, from the record as written (or as loaded, when unchanged) and the
    ///     change's outcome; nil when there is nothing to tell (the change is itself the effect of an event).
    /// - Returns: the record as it now stands in the vault, and the change's outcome.
    @discardableResult
    func updateRecord<Outcome>(
        _ change: (inout CredentialRecord?) async throws(AuthStoreError) -> Outcome,
        event: (CredentialRecord?, Outcome) -> AuthEvent? = { _, _ in nil }
    ) async throws(ProfileLockError<AuthStoreError>) -> (record: CredentialRecord?, outcome: Outcome) {
        let profile = self.profile
        let vault = self.vault
        let (record, outcome) = try await lock.withLock {
            () async throws(AuthStoreError) -> (CredentialRecord?, Outcome) in
            let stored: CredentialRecord?
            do throws(VaultError) { stored = try await vault.load(profile: profile) } catch { throw .vault(error) }
            var changed = stored
            let outcome = try await change(&changed)
            guard changed != stored else { return (stored, outcome) }
            do throws(VaultError) {
                guard var written = changed else {
                    try await vault.delete(profile: profile)
                    return (nil, outcome)
                }
                written.revision += 1
                try await vault.save(written)
                return (written, outcome)
            } catch {
                throw .vault(error)
            }
        }
        if let event = event(record, outcome) { await send(event, record: record) }
        return (record, outcome)
    }
}

extension ProfileLockError<AuthStoreError> {
    /// The failure as the store reports it: the lock's own (a timeout, an unreadable lock file) is the vault's.
    var storeError: AuthStoreError {
        switch self {
        case .lock(let error): .vault(error)
        case .body(let error): error
        }
    }
}
