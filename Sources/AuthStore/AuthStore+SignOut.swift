import CognitoAuth
import TokenVault

extension AuthStore {
    /// Clears the local session first (every process sees it), then revokes the refresh token and, with
    /// `global`, signs out everywhere. Remote failures come back in the result; the local sign-out stands.
    /// A refresh in flight is stopped, and a pending challenge dropped, only once the machine accepts the sign-out.
    public func signOut(global: Bool) async -> SignOutResult {
        await bootstrap()
        guard let report = await send(.signOutStarted(global: global)) else {
            return SignOutResult(revoked: nil, signedOutGlobally: nil, remoteFailures: ["another operation is running"])
        }
        await send(.signOutFinished)
        return report.signOut
    }

    /// The body of `AuthEffect.clearStoredSession`: removes the session from the vault, and returns what the vault
    /// held (the newest tokens, in case another process rotated them, so they can be revoked) and what it keeps.
    func clearStoredSession() async -> (previous: CredentialRecord?, kept: CredentialRecord?, failure: String?) {
        let known = record
        do {
            let cleared = try await updateRecord { (stored: inout CredentialRecord?) throws(AuthStoreError) -> CredentialRecord? in
                guard let previous = stored else { return nil }
                var kept = previous
                kept.clearSession()
                kept.sessionEndedReason = nil
                stored = kept.keepsMachineSettings ? kept : nil
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
                let alreadyDead = result.signedOutGlobally == true && !error.isRetryable
                result.revoked = alreadyDead
                if !alreadyDead { result.remoteFailures.append("revoking the refresh token: \(error)") }
            }
        }
    }
}
