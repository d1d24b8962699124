import CognitoAuth
import TokenVault

extension AuthStore {
    enum RefreshOutcome: Sendable, CustomStringConvertible {
        case refreshed(CredentialRecord)
        /// Another process had refreshed already; its tokens are fresh.
        case adopted(CredentialRecord)
        case transient(CognitoError)
        /// The session is gone; the record is what the vault now holds, without it.
        case ended(SignInReason, CredentialRecord?)
        case vault(VaultError)

        /// For the debug trace: what happened, never a token.
        var description: String {
            switch self {
            case .refreshed: "refreshed the tokens"
            case .adopted: "adopted the tokens another process had just refreshed"
            case .transient(let error): "the refresh failed, the session stays: \(error)"
            case .ended(let reason, _): "the session ended: \(reason)"
            case .vault(let error): "the vault failed: \(error)"
            }
        }
    }

    /// The body of `AuthEffect.startRefresh`: refreshes, then tells the machine how it went.
    func refresh(from snapshot: CredentialRecord?) async {
        let outcome = await refreshUnderLock(from: snapshot)
        trace("profile '\(profile)': \(outcome)")
        switch outcome {
        case .refreshed(let updated), .adopted(let updated):
            await send(.refreshSucceeded(SessionSummary(updated)), record: updated)
        case .transient(let error):
            await send(.refreshFailedTransiently(error, at: now()))
        case .ended(let reason, let latest):
            await send(.sessionEnded(reason), record: latest)
        case .vault(let error):
            await send(.vaultFailed(error))
        }
    }

    private func refreshUnderLock(from snapshot: CredentialRecord?) async -> RefreshOutcome {
        let waitingSince = now()
        do {
            return try await lock.withLock { () async -> RefreshOutcome in
                await self.refreshHoldingLock(from: snapshot, waitingSince: waitingSince)
            }
        } catch {
            switch error {
            case .lock(.lockTimedOut(_, let seconds)):
                // Another process has been refreshing for that long: the network, not the vault, is the trouble.
                return .transient(.network(.other("another process was still refreshing after \(Int(seconds)) s")))
            case .lock(let vaultError):
                return .vault(vaultError)
            }
        }
    }

    /// Re-reads the vault (another process may have refreshed while we waited), refreshes only if still needed,
    /// and persists the outcome — the new tokens and any rotated refresh token, or the end of the session — before
    /// anyone uses it.
    private func refreshHoldingLock(from snapshot: CredentialRecord?, waitingSince: Double) async -> RefreshOutcome {
        let latest: CredentialRecord?
        do {
            latest = try await vault.load(profile: profile)
        } catch {
            return .vault(error)
        }
        guard var latest, latest.hasSession else {
            return .ended(latest?.sessionEndedReason.map(SignInReason.refreshRejected) ?? .signedOutElsewhere, latest)
        }
        if latest.revision != snapshot?.revision, let lifetime = latest.lifetime(of: .access),
           policy.window(issuedAt: lifetime.issuedAt, expiresAt: lifetime.expiresAt, now: clock.now()) == .fresh {
            return .adopted(latest)
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
            return .ended(.noRefreshToken, latest)
        }
        let tokens: CognitoTokens
        do {
            tokens = try await authority.refresh(stored)
        } catch {
            guard error.requiresSignIn else {
                lock.writeNote(RefreshFailureNote(failedAt: now(), failures: (note?.failures ?? 0) + 1,
                                                  message: error.description).encoded)
                return .transient(error)
            }
            let reason = error.serviceMessage ?? error.description
            latest.clearSession()
            latest.sessionEndedReason = reason
            latest.revision += 1
            try? await vault.save(latest)
            lock.writeNote(nil)
            return .ended(.refreshRejected(reason), latest)
        }
        latest.store(tokens)
        latest.revision += 1
        latest.lastRefreshAt = now()
        latest.clockOffset = clock.offset
        latest.clockAnchor = clock.anchor
        latest.refusedClockOffset = clock.refusedOffset
        do {
            try await vault.save(latest)
        } catch {
            return .vault(error)
        }
        lock.writeNote(nil)
        return .refreshed(latest)
    }
}
