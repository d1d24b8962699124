import CognitoAuth
import TokenVault

extension AuthStore {
    enum RefreshOutcome: Sendable, CustomStringConvertible {
        case refreshed
        /// Another process had refreshed already; its tokens are fresh.
        case adopted
        case transient(CognitoError)
        /// The session is gone; the vault now holds the record without it.
        case ended(SignInReason)
        /// The stored session has no refresh token: it ends in this process (this record, without it), and the
        /// vault's copy is left as it is.
        case unrefreshable(CredentialRecord)
        case vault(VaultError)

        /// For the debug trace: what happened, never a token.
        var description: String {
            switch self {
            case .refreshed: "refreshed the tokens"
            case .adopted: "adopted the tokens another process had just refreshed"
            case .transient(let error): "the refresh failed, the session stays: \(error)"
            case .ended(let reason): "the session ended: \(reason)"
            case .unrefreshable: "the session ended: \(SignInReason.noRefreshToken)"
            case .vault(let error): "the vault failed: \(error)"
            }
        }

        /// What the machine is told with the record the refresh left in the vault; nil for what changed nothing there.
        func event(_ record: CredentialRecord?) -> AuthEvent? {
            switch self {
            case .refreshed, .adopted: record.map { .refreshSucceeded(SessionSummary($0)) }
            case .ended(let reason): .sessionEnded(reason)
            case .transient, .unrefreshable, .vault: nil
            }
        }
    }

    /// The body of `AuthEffect.startRefresh`: refreshes, then tells the machine how it went: a changed session with
    /// the record written, the rest (a passing failure, a session that cannot be refreshed) without touching it.
    func refresh(from snapshot: CredentialRecord?) async {
        let outcome = await refreshUnderLock(from: snapshot)
        trace("profile '\(profile)': \(outcome)")
        switch outcome {
        case .refreshed, .adopted, .ended:
            break  // told with the record written, by `updateRecord`
        case .unrefreshable(let withoutSession):
            await send(.sessionEnded(.noRefreshToken), record: withoutSession)
        case .transient(let error):
            await send(.refreshFailedTransiently(error, at: now()))
        case .vault(let error):
            await send(.vaultFailed(error))
        }
    }

    private func refreshUnderLock(from snapshot: CredentialRecord?) async -> RefreshOutcome {
        let waitingSince = now()
        do {
            return try await updateRecord(
                { (record: inout CredentialRecord?) async -> RefreshOutcome in
                    await self.refreshHoldingLock(&record, from: snapshot, waitingSince: waitingSince)
                }, event: { record, outcome in outcome.event(record) }
            ).outcome
        } catch {
            switch error {
            case .lock(.lockTimedOut(_, let seconds)):
                // Another process has been refreshing for that long: the network, not the vault, is the trouble.
                return .transient(.network(.other("another process was still refreshing after \(Int(seconds)) s")))
            case .lock(let vaultError), .body(.vault(let vaultError)):
                return .vault(vaultError)
            case .body(let other):
                preconditionFailure(
                    "a refresh reports its outcome, it throws nothing but the vault's failures: \(other)")
            }
        }
    }

    /// Given the vault's record as just re-read (another process may have refreshed while we waited), refreshes
    /// only if still needed, and leaves in it the outcome — the new tokens and any rotated refresh token, or the end
    /// of the session — which is saved before anyone uses it.
    private func refreshHoldingLock(
        _ record: inout CredentialRecord?, from snapshot: CredentialRecord?, waitingSince: Double
    ) async -> RefreshOutcome {
        guard var latest = record, latest.hasSession else {
            return .ended(record?.sessionEndedReason.map(SignInReason.refreshRejected) ?? .signedOutElsewhere)
        }
        if latest.revision != snapshot?.revision, let lifetime = latest.lifetime(of: .access),
            policy.window(issuedAt: lifetime.issuedAt, expiresAt: lifetime.expiresAt, now: clock.now()) == .fresh
        {
            return .adopted
        }
        // The process that held the lock while we waited for it failed on this same session: don't queue up behind
        // an outage, each trying again for a whole deadline. A process that arrives later tries again.
        let note = RefreshFailureNote(lock.readNote())
        // A note from the future is not this wait's: it is a broken file (and its age would not be a number).
        if let note, latest.revision == snapshot?.revision, note.failedAt >= waitingSince, note.failedAt <= now() {
            return .transient(.network(.other("a refresh \(Int(now() - note.failedAt)) s ago failed: \(note.message)")))
        }
        guard let stored = StoredSession(latest) else {
            latest.clearSession()
            return .unrefreshable(latest)
        }
        let tokens: CognitoTokens
        do {
            tokens = try await authority.refresh(stored)
        } catch {
            guard error.requiresSignIn else {
                lock.writeNote(
                    RefreshFailureNote(
                        failedAt: now(), failures: (note?.failures ?? 0) + 1,
                        message: error.description
                    ).encoded)
                return .transient(error)
            }
            let reason = error.serviceMessage ?? error.description
            latest.clearSession()
            latest.sessionEndedReason = reason
            record = latest
            lock.writeNote(nil)
            return .ended(.refreshRejected(reason))
        }
        latest.store(tokens)
        latest.lastRefreshAt = now()
        latest.clockOffset = clock.offset
        latest.clockAnchor = clock.anchor
        latest.refusedClockOffset = clock.refusedOffset
        // The server answers, and the record is in hand under the lock already: retry what an earlier sign-out could
        // not revoke (only a refresh gets here, never a token served from the vault as it is).
        if !latest.pendingRevocations.isEmpty {
            var retry = RevocationRetry()
            latest.pendingRevocations = await revokeEach(latest.pendingRevocations, into: &retry)
        }
        record = latest
        lock.writeNote(nil)
        return .refreshed
    }
}
