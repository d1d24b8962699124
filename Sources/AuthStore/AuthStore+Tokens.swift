import AuthCrypto
import CognitoAuth
import TokenVault

extension AuthStore {
    /// A valid access token, refreshed ahead of expiry as `RefreshPolicy` describes.
    /// A machine profile's comes from the token endpoint, with no sign-in.
    public func validAccessToken() async throws(AuthStoreError) -> SecretBytes {
        try await validToken(.access).token
    }

    /// A valid ID token, under the same rules. A machine profile has none.
    public func validIDToken() async throws(AuthStoreError) -> SecretBytes {
        try await validToken(.id).token
    }

    /// A valid token of `kind`, under the same rules, with what a helper protocol sends beside it, all read from the
    /// one record that holds it.
    public func validToken(_ kind: TokenKind) async throws(AuthStoreError) -> ServedToken {
        await bootstrap()
        // Served as `freshToken` serves it: from the snapshot, whose tokens were decoded once.
        if let fresh = freshToken(kind) { return fresh }
        let record: CredentialRecord
        if let machine {
            guard kind == .access else { throw .noIDTokenForMachine }
            record = try await validMachineRecord(machine)
        } else {
            record = try await validRecord(for: kind)
        }
        return ServedToken(record, kind, expiresAt: record.lifetime(of: kind)?.expiresAt)
    }

    /// Refreshes now, whatever the tokens' windows say (`authvault refresh`): joins a refresh in flight, and under
    /// the profile lock adopts one another process has just made rather than refreshing twice.
    @discardableResult
    public func refreshNow() async throws(AuthStoreError) -> SessionSummary {
        if let machine { return try await fetchMachineTokenNow(machine) }
        await bootstrap()
        _ = try usableRecord()
        await refreshAndWait()
        _ = try usableRecord()
        switch state {
        case .signedIn(let session), .refreshing(let session):
            if let failures = session.refreshFailures { throw .network(failures.lastError) }
            return session
        default:
            throw .signInRequired(nil)
        }
    }

    private func validRecord(for kind: TokenKind) async throws(AuthStoreError) -> CredentialRecord {
        await bootstrap()
        let current = try usableRecord()
        guard let (issuedAt, expiresAt) = current.lifetime(of: kind) else { throw .signInRequired(nil) }
        let moment = now()
        let serverNow = clock.now()
        let window = policy.window(issuedAt: issuedAt, expiresAt: expiresAt, now: serverNow)
        if window != .fresh {
            trace(
                "profile '\(profile)': the \(kind) token expires in \(Int(expiresAt - serverNow)) s, in the \(window) refresh window"
            )
        }
        switch window {
        case .fresh:
            return current
        case .advisory:
            guard refreshAllowed(at: moment) else { return current }
            guard !refreshesInBackground else {
                await send(.refreshStarted)
                return current
            }
            await refreshAndWait()
            return (try? usableRecord()) ?? current
        case .mandatory:
            guard refreshAllowed(at: moment) else {
                // A refresh failed a moment ago: serve the token while it lasts rather than hammer Cognito.
                if serverNow < expiresAt { return current }
                throw .network(
                    failuresSoFar?.lastError ?? .deadlineExceeded(operation: "refresh", attempts: 0, lastError: nil))
            }
            await refreshAndWait()
            return try recordAfterRefresh(for: kind)
        }
    }

    /// Starts the profile's refresh, or joins the one in flight, and waits for it to end.
    private func refreshAndWait() async {
        await send(.refreshStarted)  // refused while a refresh runs: then this joins it
        await waitForRefresh()
    }

    /// A refresh may start, or be joined, unless the last one failed less than the retry delay ago.
    private func refreshAllowed(at moment: Double) -> Bool {
        switch state {
        case .refreshing: return true
        case .signedIn(let session): return session.refreshFailures.map { moment >= $0.nextAttemptAt(policy) } ?? true
        default: return false
        }
    }

    private var failuresSoFar: RefreshFailures? {
        guard case .signedIn(let session) = state else { return nil }
        return session.refreshFailures
    }

    /// What a caller who waited for a refresh gets, read from the state the refresh left: after a transient failure,
    /// the current token while it lasts.
    private func recordAfterRefresh(for kind: TokenKind) throws(AuthStoreError) -> CredentialRecord {
        let current = try usableRecord()
        if let failures = failuresSoFar {
            guard let lifetime = current.lifetime(of: kind), clock.now() < lifetime.expiresAt else {
                throw .network(failures.lastError)
            }
        }
        return current
    }
}
