import TokenVault

/// The store's state and record as their last change left them, with each token's lifetime read once.
struct SessionSnapshot: Sendable {
    let state: AuthState
    let record: CredentialRecord?
    let access: (issuedAt: Double, expiresAt: Double)?
    let id: (issuedAt: Double, expiresAt: Double)?

    init(state: AuthState, record: CredentialRecord?) {
        self.state = state
        self.record = record
        access = record?.lifetime(of: .access)
        id = record?.lifetime(of: .id)
    }
}

extension AuthStore {
    /// The token of `kind` while it is fresh under the refresh policy — exactly when `validToken` would hand out that
    /// very token and do nothing else — read without waiting for the actor; nil otherwise: then ask `validToken`,
    /// which refreshes when due. A server answering many requests (the agent) answers most of them with it.
    public nonisolated func freshToken(_ kind: TokenKind) -> ServedToken? {
        let snapshot = published.withLock { $0 }
        switch snapshot.state {
        case .signedIn, .refreshing: break
        default: return nil
        }
        guard let record = snapshot.record, let lifetime = kind == .access ? snapshot.access : snapshot.id else { return nil }
        // A machine profile's token is timed as `validMachineRecord` times it, a session's as `validRecord` does.
        if machine != nil {
            guard kind == .access, record.origin == .clientCredentials else { return nil }
            guard policy.window(issuedAt: lifetime.issuedAt, expiresAt: lifetime.expiresAt, now: now()) == .fresh else { return nil }
        } else {
            guard record.hasSession else { return nil }
            guard policy.window(issuedAt: lifetime.issuedAt, expiresAt: lifetime.expiresAt, now: clock.now()) == .fresh else { return nil }
        }
        return ServedToken(record, kind, expiresAt: lifetime.expiresAt)
    }
}
