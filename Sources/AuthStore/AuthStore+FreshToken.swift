import TokenVault

/// The store's state and record as their last change left them, with each token's lifetime read once.
struct StoreSnapshot: Sendable {
    let state: AuthState
    let record: CredentialRecord?
    let access: (issuedAt: Double, expiresAt: Double)?
    let id: (issuedAt: Double, expiresAt: Double)?

    /// - Parameter previous: the snapshot this one follows; a token it decoded is not decoded again.
    init(state: AuthState, record: CredentialRecord?, following previous: StoreSnapshot? = nil) {
        self.state = state
        self.record = record
        // The same record (a change of state alone) keeps its lifetimes: a token's payload is decoded once.
        if let previous, let record, previous.record == record {
            access = previous.access
            id = previous.id
        } else {
            access = record?.lifetime(of: .access)
            id = record?.lifetime(of: .id)
        }
    }

    func lifetime(of kind: TokenKind) -> (issuedAt: Double, expiresAt: Double)? {
        kind == .access ? access : id
    }
}

extension AuthStore {
    /// The token of `kind` while it is fresh under the refresh policy — exactly when `validToken` would hand out that
    /// very token and do nothing else — read without waiting for the actor; nil otherwise: then ask `validToken`,
    /// which refreshes when due. A server answering many requests (the agent) answers most of them with it.
    public nonisolated func freshToken(_ kind: TokenKind) -> ServedToken? {
        let snapshot = published.withLock { $0 }
        guard let record = snapshot.record else { return nil }
        return fresh(kind, state: snapshot.state, record: record, lifetime: snapshot.lifetime(of: kind))
    }

    /// The token of `kind` straight from a vault that has the record at hand (`VaultRecordAtHand`: the file vault
    /// with its key in the kernel keyring), while it is fresh; no actor, no thread, the record read and its token
    /// decoded once. For a process that serves one token and exits (`authvault token`): it leaves the store as it
    /// was (bootstrapping). Nil otherwise: then ask `validToken`.
    public nonisolated func freshTokenAtHand(_ kind: TokenKind) -> ServedToken? {
        guard let vault = vault.recordsAtHand, let record = vault.recordAtHand(profile: profile),
            record.hasSession
        else { return nil }
        // As `reloadFromVault` does before the machine sees the record.
        if let offset = record.clockOffset { clock.adopt(offset, anchor: record.clockAnchor) }
        if let refused = record.refusedClockOffset { clock.recall(refusedOffset: refused) }
        guard let loaded = AuthMachine.transition(from: .bootstrapping, on: .vaultLoaded(SessionSummary(record))) else {
            return nil
        }
        return fresh(kind, state: loaded.state, record: record, lifetime: record.lifetime(of: kind))
    }

    /// `record`'s token of `kind` when `state` serves it and it is fresh, timed as `validToken` times it.
    private nonisolated func fresh(
        _ kind: TokenKind, state: AuthState, record: CredentialRecord, lifetime: (issuedAt: Double, expiresAt: Double)?
    ) -> ServedToken? {
        switch state {
        case .signedIn, .refreshing: break
        default: return nil
        }
        guard let lifetime else { return nil }
        // A machine profile's token is timed as `validMachineRecord` times it, a session's as `validRecord` does.
        if machine != nil {
            guard kind == .access, record.origin == .clientCredentials else { return nil }
            guard policy.window(issuedAt: lifetime.issuedAt, expiresAt: lifetime.expiresAt, now: now()) == .fresh else {
                return nil
            }
        } else {
            guard record.hasSession else { return nil }
            guard policy.window(issuedAt: lifetime.issuedAt, expiresAt: lifetime.expiresAt, now: clock.now()) == .fresh
            else { return nil }
        }
        return ServedToken(record, kind, expiresAt: lifetime.expiresAt)
    }
}
