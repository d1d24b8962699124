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
        guard let vault = vault.recordsAtHand, let atHand = vault.recordAtHand(profile: profile),
            atHand.record.hasSession
        else { return nil }
        let record = atHand.record
        // As `reloadFromVault` does before the machine sees the record.
        if let offset = record.clockOffset { clock.adopt(offset, anchor: record.clockAnchor) }
        if let refused = record.refusedClockOffset { clock.recall(refusedOffset: refused) }
        guard let loaded = AuthMachine.transition(from: .bootstrapping, on: .vaultLoaded(SessionSummary(record))),
            let lifetime = record.lifetime(of: kind),
            let served = fresh(kind, state: loaded.state, record: record, lifetime: lifetime)
        else { return nil }
        keep(served, kind, lifetime: lifetime, from: atHand, in: vault)
        return served
    }

    /// The token of `kind` that an earlier process served from the vault's record at hand and the vault kept
    /// (`VaultRecordAtHand.keepFreshToken`), while that record is unchanged, the vault's key still cached, and the
    /// token still fresh: exactly when `freshTokenAtHand` would serve it, without decrypting or decoding anything.
    /// Its `expiresAt` is already this machine's time. Nil otherwise: then ask `freshTokenAtHand`.
    public nonisolated func keptFreshToken(_ kind: TokenKind) -> FreshTokenEntry? {
        guard let vault = vault.recordsAtHand,
            let entry = vault.freshTokenEntry(profile: profile, kind: keptName(kind)),
            localNow() < entry.servableUntil
        else { return nil }
        return entry
    }

    /// Has a vault that keeps tokens (`VaultRecordAtHand`) keep the store's token of `kind` for the next process,
    /// when it is fresh and from the record that vault read or wrote last: for a one-shot process that was served by
    /// `validToken` (the key just derived, or a refresh). A long-lived process (the agent) has no need of it.
    public nonisolated func keepForNextProcess(_ kind: TokenKind) async {
        guard let vault = vault.recordsAtHand, let seen = await vault.recordLastRead(profile: profile) else { return }
        let snapshot = published.withLock { $0 }
        guard let record = snapshot.record, record == seen.record, let lifetime = snapshot.lifetime(of: kind),
            let served = fresh(kind, state: snapshot.state, record: record, lifetime: lifetime)
        else { return }
        keep(served, kind, lifetime: lifetime, from: seen, in: vault)
    }

    /// Has the vault keep `served` until it leaves its fresh window, by this machine's clock.
    private nonisolated func keep(
        _ served: ServedToken, _ kind: TokenKind, lifetime: (issuedAt: Double, expiresAt: Double),
        from atHand: RecordAtHand, in vault: any VaultRecordAtHand
    ) {
        let freshUntil = policy.freshUntil(issuedAt: lifetime.issuedAt, expiresAt: lifetime.expiresAt)
        // A machine profile's token is timed by `now` (see `fresh`), a session's by the provider's clock.
        let servableUntil = machine != nil ? freshUntil : clock.localTime(ofProviderTime: freshUntil)
        guard
            let entry = atHand.freshTokenEntry(
                token: served.token, username: served.username,
                expiresAt: clock.localTime(ofProviderTime: lifetime.expiresAt), servableUntil: servableUntil)
        else { return }
        if let problem = vault.keepFreshToken(
            entry, profile: profile, kind: keptName(kind), seconds: servableUntil - localNow())
        {
            trace("profile '\(profile)': the \(kind.name) token is not kept for the next process: \(problem)")
        }
    }

    /// The name the vault keeps a token of `kind` under: a machine profile's apart from a session's, so a profile
    /// reconfigured from one to the other is not served the other's.
    private nonisolated func keptName(_ kind: TokenKind) -> String {
        machine != nil ? "machine-" + kind.name : kind.name
    }

    /// This machine's time as `keep` times a kept token.
    private nonisolated func localNow() -> Double {
        machine != nil ? now() : clock.local()
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

extension TokenKind {
    /// How the vault names a kept token's kind.
    fileprivate var name: String { self == .access ? "access" : "id" }
}
