import CognitoAuth
import TokenVault

extension AuthStore {
    /// A machine profile's record with a usable access token: the cached one while it is fresh under the refresh
    /// policy; from the advisory window on, or with none, a new one from the token endpoint. There is nothing to
    /// sign in to and no refresh token: fetching again is the refresh. A long-lived process fetches in the
    /// background in the advisory window; a fetch that fails for a passing reason leaves the cached token in use
    /// while it lasts, and, in any process, the next try waits for the refresh policy's retry delay.
    func validMachineRecord(_ machine: any MachineAuthority) async throws(AuthStoreError) -> CredentialRecord {
        await bootstrap()
        if case .vaultUnavailable(let error) = state { throw .vault(error) }
        let current = record.flatMap { $0.origin == .clientCredentials && $0.accessToken != nil ? $0 : nil }
        let lifetime = current?.lifetime(of: .access)
        let moment = now()
        let window = lifetime.map { policy.window(issuedAt: $0.issuedAt, expiresAt: $0.expiresAt, now: moment) }
        if let current, window == .fresh { return current }
        if let current, let lifetime, moment < lifetime.expiresAt, let note = RefreshFailureNote(lock.readNote()),
            moment < note.failedAt + policy.retryDelay(afterFailures: note.failures)
        {
            return current  // a fetch failed a moment ago: serve the token while it lasts rather than hammer the server
        }
        if let current, window == .advisory, refreshesInBackground {
            _ = machineFetchInFlight(machine)
            return current
        }
        switch await machineFetchInFlight(machine).value {
        case .success(let fetched):
            return fetched
        case .failure(let error):
            if let current, let lifetime, now() < lifetime.expiresAt, case .network = error { return current }
            throw error
        }
    }

    /// Fetches a machine profile's token now, whatever the cached one's window (`authvault refresh`).
    func fetchMachineTokenNow(_ machine: any MachineAuthority) async throws(AuthStoreError) -> SessionSummary {
        await bootstrap()
        if case .vaultUnavailable(let error) = state { throw .vault(error) }
        switch await machineFetchInFlight(machine).value {
        case .success(let fetched): return SessionSummary(fetched)
        case .failure(let error): throw error
        }
    }

    /// The fetch in flight, which every caller in this process shares, or a new one.
    private func machineFetchInFlight(_ machine: any MachineAuthority) -> Task<
        Result<CredentialRecord, AuthStoreError>, Never
    > {
        if let machineFetch { return machineFetch }
        let task = Task { await self.fetchMachineToken(machine) }
        machineFetch = task
        return task
    }

    /// A fetch is a sign-in of the app client: the state is `signingIn` while it runs, and the new token establishes
    /// the session; a failed one goes back to what the vault holds.
    private func fetchMachineToken(_ machine: any MachineAuthority) async -> Result<CredentialRecord, AuthStoreError> {
        defer { machineFetch = nil }
        let known = record?.revision
        do { try await enterSignIn(refusedWhile: "sign-in or sign-out") } catch { return .failure(error) }
        let result = await fetchUnderLock(machine, knownRevision: known)
        if case .failure = result { await reloadFromVault() }
        return result
    }

    /// Under the profile lock, with the vault just re-read: another process may have fetched a token while this one
    /// waited, and then that one serves (one fetch for all the processes that asked at once). Otherwise fetches and
    /// saves the token before anyone uses it, keeping the rest of the record (the client secret). Either way the
    /// token establishes the session.
    private func fetchUnderLock(_ machine: any MachineAuthority, knownRevision: UInt64?) async -> Result<
        CredentialRecord, AuthStoreError
    > {
        let profile = self.profile
        let policy = self.policy
        let now = self.now
        let lock = self.lock
        let fetched: CredentialRecord?
        do {
            fetched = try await updateRecord(
                { (record: inout CredentialRecord?) async throws(AuthStoreError) in
                    var latest = record ?? CredentialRecord(profile: profile)
                    if latest.revision != knownRevision, latest.origin == .clientCredentials,
                        let lifetime = latest.lifetime(of: .access),
                        policy.window(issuedAt: lifetime.issuedAt, expiresAt: lifetime.expiresAt, now: now()) == .fresh
                    {
                        return
                    }
                    let token: MachineToken
                    do throws(CognitoError) {
                        token = try await machine.machineToken()
                    } catch {
                        guard error.isRetryable else { throw .rejected(error) }
                        // Every process (and `status`) can tell, and waits before trying again.
                        let failures = (RefreshFailureNote(lock.readNote())?.failures ?? 0) + 1
                        lock.writeNote(
                            RefreshFailureNote(failedAt: now(), failures: failures, message: error.description).encoded)
                        throw .network(error)
                    }
                    latest.store(token, at: now())
                    record = latest
                    lock.writeNote(nil)
                }, event: { record, _ in record.map { .sessionEstablished(SessionSummary($0)) } }
            ).record
        } catch {
            switch error {
            case .lock(.lockTimedOut(_, let seconds)):
                // Another process has been fetching for that long: the network, not the vault, is the trouble.
                return .failure(
                    .network(.network(.other("another process was still fetching a token after \(Int(seconds)) s"))))
            default:
                return .failure(error.storeError)
            }
        }
        guard let fetched else { preconditionFailure("a machine token always leaves a record") }
        return .success(fetched)
    }
}
