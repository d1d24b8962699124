import CognitoAuth
import TokenVault

extension AuthStore {
    /// Clears the local session first (every process sees it), then revokes the refresh token and, with
    /// `global`, signs out everywhere. Remote failures come back in the result; the local sign-out stands.
    /// A refresh in flight is stopped, and a pending challenge dropped, only once the machine accepts the sign-out.
    /// Revocations an earlier sign-out left pending are tried again first, or with `forgetPending` dropped unrevoked
    /// (this sign-out's own included, when it cannot revoke now).
    public func signOut(global: Bool, forgetPending: Bool = false) async -> SignOutResult {
        await bootstrap()
        // Only when the record read shows some: the retry takes the profile lock, which a refresh in flight holds.
        let earlier =
            forgetPending || record?.pendingRevocations.isEmpty != false ? nil : await retryPendingRevocations()
        var result: SignOutResult
        if let report = await send(.signOutStarted(global: global)) {
            await send(.signOutFinished)
            result = report.signOut
        } else {
            result = SignOutResult(
                revoked: nil, signedOutGlobally: nil, remoteFailures: ["another operation is running"])
        }
        result.earlierRevocations = earlier
        if forgetPending {
            do {
                result.forgottenRevocations = try await forgetPendingRevocations()
                result.keptForRetry = false
            } catch {
                result.remoteFailures.append("forgetting the pending revocations: \(error)")
            }
        }
        return result
    }

    /// The body of `AuthEffect.clearStoredSession`: removes the session from the vault, and returns what the vault
    /// held (the newest tokens, in case another process rotated them, so they can be revoked) and what it keeps.
    func clearStoredSession() async -> (previous: CredentialRecord?, kept: CredentialRecord?, failure: String?) {
        let known = record
        do {
            let cleared = try await updateRecord {
                (stored: inout CredentialRecord?) throws(AuthStoreError) -> CredentialRecord? in
                guard let previous = stored else { return nil }
                var kept = previous
                kept.clearSession()
                kept.sessionEndedReason = nil
                stored = kept.outlivesSession ? kept : nil
                return previous
            }
            return (cleared.outcome ?? known, cleared.record, nil)
        } catch {
            var kept = known
            kept?.clearSession()
            return (known, kept, "clearing the vault: \(error.storeError)")
        }
    }

    /// The body of `AuthEffect.revokeRemotely`: revokes the session `clearStoredSession` removed.
    func revoke(_ cleared: CredentialRecord?, global: Bool, into result: inout SignOutResult) async {
        if global, let accessToken = cleared?.accessToken {
            do {
                try await authority.globalSignOut(accessToken: accessToken)
                result.signedOutGlobally = true
            } catch {
                result.signedOutGlobally = false
                result.remoteFailures.append("global sign-out: \(error)")
            }
        }
        if let stored = cleared.flatMap(StoredSession.init) {
            guard authority.canRevoke(stored) else {
                result.revocationUnavailable = true
                return
            }
            do {
                try await authority.revoke(stored)
                result.revoked = true
            } catch {
                // After a global sign-out the token is already dead, which is what revoking wanted.
                let verdict = RevocationVerdict(after: error)
                let alreadyDead = verdict == .alreadyInvalid || (result.signedOutGlobally == true && !error.isRetryable)
                result.revoked = alreadyDead
                guard !alreadyDead else { return }
                result.remoteFailures.append("revoking the refresh token: \(error)")
                guard verdict == .keepPending, let cleared else { return }
                await keepForRetry(stored, of: cleared, failure: error.description, into: &result)
            }
        }
    }

    private func keepForRetry(
        _ stored: StoredSession, of cleared: CredentialRecord, failure: String, into result: inout SignOutResult
    ) async {
        let pending = PendingRevocation(
            refreshToken: stored.refreshToken, origin: stored.origin, signedInAt: cleared.signedInAt,
            lastRefreshAt: cleared.lastRefreshAt, lastTriedAt: now(), lastFailure: failure)
        do {
            try await keepForRetry(pending)
            result.keptForRetry = true
        } catch {
            result.remoteFailures.append("keeping the refresh token to revoke later: \(error)")
        }
    }
}
