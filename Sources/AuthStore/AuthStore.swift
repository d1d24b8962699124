import AuthCrypto
import CognitoAuth
import FoundationEssentials
import TokenVault

/// The one owner of a profile's tokens. Every other component asks it for `validAccessToken()`; it bootstraps from
/// the vault, signs in (answering challenges), refreshes ahead of expiry — one refresh in flight per profile in this
/// process, and across processes under the profile lock with the vault re-read — and signs out.
public actor AuthStore {
    public let profile: String
    private let vault: any VaultBackend
    private let lock: ProfileLock
    private let authority: any SessionAuthority
    private let policy: RefreshPolicy
    private let refreshesInBackground: Bool
    private let now: @Sendable () -> Double

    public private(set) var state: AuthState = .bootstrapping
    private var record: CredentialRecord?
    private var pendingChallenge: AuthChallenge?
    private var refreshTask: Task<RefreshOutcome, Never>?
    private var loading: Task<Void, Never>?
    private var consecutiveRefreshFailures = 0
    private var nextRefreshAllowedAt = 0.0
    private var lastRefreshError: CognitoError?
    private var observers: [Int: AsyncStream<AuthState>.Continuation] = [:]
    private var nextObserverId = 0

    /// - Parameter refreshesInBackground: in the advisory window, refresh without making the caller wait (a
    ///   long-lived process such as the agent). A process that exits right after serving (the CLI) passes false:
    ///   it refreshes before answering, and still answers with the current token if that fails, so a refresh —
    ///   and a rotated refresh token — is never cut off by the process ending.
    public init(
        profile: String,
        vault: any VaultBackend,
        lock: ProfileLock,
        authority: any SessionAuthority,
        policy: RefreshPolicy = RefreshPolicy(),
        refreshesInBackground: Bool = true,
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.profile = profile
        self.vault = vault
        self.lock = lock
        self.authority = authority
        self.policy = policy
        self.refreshesInBackground = refreshesInBackground
        self.now = now
    }

    // MARK: Observing

    /// The current state, then every change, until the consumer stops listening.
    public func states() -> AsyncStream<AuthState> {
        let (stream, continuation) = AsyncStream<AuthState>.makeStream(bufferingPolicy: .bufferingNewest(16))
        let id = nextObserverId
        nextObserverId += 1
        observers[id] = continuation
        continuation.yield(state)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeObserver(id) }
        }
        return stream
    }

    private func removeObserver(_ id: Int) {
        observers[id] = nil
    }

    /// The stored record's non-secret facts, for `status`.
    public var storedRecord: CredentialRecord? { record }

    /// The last refresh of this profile that failed for a passing reason (the network, a timeout, throttling), in
    /// any process, and why — until a refresh succeeds. For `status`.
    public nonisolated func lastRefreshFailure() -> (at: Double, message: String)? {
        RefreshFailureNote(lock.readNote()).map { ($0.failedAt, $0.message) }
    }

    // MARK: Bootstrap

    /// Reads the vault. A vault that cannot be read leaves the stored session as it is and says why. Callers that
    /// arrive while it reads wait for that one read (a locked file vault derives its key once).
    @discardableResult
    public func bootstrap() async -> AuthState {
        switch state {
        case .bootstrapping, .vaultUnavailable: break
        default: return state
        }
        if let loading { await loading.value; return state }
        let task = Task { await self.reloadFromVault() }
        loading = task
        await task.value
        loading = nil
        return state
    }

    private func reloadFromVault() async {
        do {
            let loaded = try await vault.load(profile: profile)
            // A refresh that saved while this read was in flight holds the newer session: keep it.
            if let record, let loaded, record.revision > loaded.revision { return }
            record = loaded
            if let loaded, !loaded.hasSession, let reason = loaded.sessionEndedReason {
                send(.vaultLoadedEndedSession(.refreshRejected(reason)))
            } else {
                send(.vaultLoaded(loaded.flatMap { $0.hasSession ? SessionSummary($0) : nil }))
            }
        } catch {
            send(.vaultFailed(error))
        }
    }

    // MARK: Tokens

    /// A valid access token, refreshed ahead of expiry as `RefreshPolicy` describes.
    public func validAccessToken() async throws(AuthStoreError) -> SecretBytes {
        try await validRecord(for: .access).accessToken!
    }

    /// A valid ID token, under the same rules.
    public func validIDToken() async throws(AuthStoreError) -> SecretBytes {
        try await validRecord(for: .id).idToken!
    }

    private func validRecord(for kind: TokenKind) async throws(AuthStoreError) -> CredentialRecord {
        await bootstrap()
        let current = try usableRecord()
        guard let (issuedAt, expiresAt) = current.lifetime(of: kind) else { throw .signInRequired(nil) }
        let moment = now()
        switch policy.window(issuedAt: issuedAt, expiresAt: expiresAt, now: moment) {
        case .fresh:
            return current
        case .advisory:
            guard refreshTask != nil || moment >= nextRefreshAllowedAt else { return current }
            let refresh = startRefresh()
            guard !refreshesInBackground else { return current }
            switch await refresh.value {
            case .refreshed(let updated), .adopted(let updated): return updated
            default: return current
            }
        case .mandatory:
            if refreshTask == nil && moment < nextRefreshAllowedAt {
                // A refresh failed a moment ago: serve the token while it lasts rather than hammer Cognito.
                if moment < expiresAt { return current }
                throw .network(lastRefreshError ?? .deadlineExceeded(operation: "refresh", attempts: 0, lastError: nil))
            }
            let outcome = await startRefresh().value
            switch outcome {
            case .refreshed, .adopted:
                return try usableRecord()
            case .transient(let error):
                if let record, let lifetime = record.lifetime(of: kind), now() < lifetime.expiresAt { return record }
                throw .network(error)
            case .ended(let reason):
                throw .signInRequired(reason)
            case .vault(let error):
                throw .vault(error)
            }
        }
    }

    /// Refreshes now, whatever the tokens' windows say (`authvault refresh`): joins a refresh in flight, and under
    /// the profile lock adopts one another process has just made rather than refreshing twice.
    @discardableResult
    public func refreshNow() async throws(AuthStoreError) -> SessionSummary {
        await bootstrap()
        _ = try usableRecord()
        switch await startRefresh().value {
        case .refreshed(let updated), .adopted(let updated): return SessionSummary(updated)
        case .transient(let error): throw .network(error)
        case .ended(let reason): throw .signInRequired(reason)
        case .vault(let error): throw .vault(error)
        }
    }

    private func usableRecord() throws(AuthStoreError) -> CredentialRecord {
        switch state {
        case .vaultUnavailable(let error): throw .vault(error)
        case .needsSignIn(let reason): throw .signInRequired(reason)
        case .signedIn, .refreshing:
            guard let record, record.hasSession else { throw .signInRequired(nil) }
            return record
        default: throw .signInRequired(nil)
        }
    }

    // MARK: Refresh

    enum RefreshOutcome: Sendable {
        case refreshed(CredentialRecord)
        /// Another process had refreshed already; its tokens are fresh.
        case adopted(CredentialRecord)
        case transient(CognitoError)
        case ended(SignInReason)
        case vault(VaultError)
    }

    /// Starts the profile's refresh, or joins the one in flight.
    private func startRefresh() -> Task<RefreshOutcome, Never> {
        if let refreshTask { return refreshTask }
        send(.refreshStarted)
        let snapshot = record
        let task = Task { await self.refreshUnderLock(from: snapshot) }
        refreshTask = task
        return task
    }

    private func refreshUnderLock(from snapshot: CredentialRecord?) async -> RefreshOutcome {
        let outcome: RefreshOutcome
        let waitingSince = now()
        do {
            outcome = try await lock.withLock { () async -> RefreshOutcome in
                await self.refreshHoldingLock(from: snapshot, waitingSince: waitingSince)
            }
        } catch {
            switch error {
            case .lock(.lockTimedOut(_, let seconds)):
                // Another process has been refreshing for that long: the network, not the vault, is the trouble.
                outcome = .transient(.network(.other("another process was still refreshing after \(Int(seconds)) s")))
            case .lock(let vaultError):
                outcome = .vault(vaultError)
            }
        }
        finishRefresh(outcome)
        return outcome
    }

    /// Re-reads the vault (another process may have refreshed while we waited), refreshes only if still needed,
    /// and persists the new tokens — and any rotated refresh token — before anyone uses them.
    private func refreshHoldingLock(from snapshot: CredentialRecord?, waitingSince: Double) async -> RefreshOutcome {
        let latest: CredentialRecord?
        do {
            latest = try await vault.load(profile: profile)
        } catch {
            return .vault(error)
        }
        guard var latest, latest.hasSession else {
            return .ended(latest?.sessionEndedReason.map(SignInReason.refreshRejected) ?? .signedOutElsewhere)
        }
        if latest.revision != snapshot?.revision, let lifetime = latest.lifetime(of: .access),
           policy.window(issuedAt: lifetime.issuedAt, expiresAt: lifetime.expiresAt, now: now()) == .fresh {
            return .adopted(latest)
        }
        // The process that held the lock while we waited for it failed on this same session: don't queue up behind
        // an outage, each trying again for a whole deadline. A process that arrives later tries again.
        let note = RefreshFailureNote(lock.readNote())
        if let note, latest.revision == snapshot?.revision, note.failedAt >= waitingSince {
            return .transient(.network(.other("a refresh \(Int(now() - note.failedAt)) s ago failed: \(note.message)")))
        }
        guard let stored = StoredSession(latest) else { return .ended(.noRefreshToken) }
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
            return .ended(.refreshRejected(reason))
        }
        latest.store(tokens)
        latest.revision += 1
        latest.lastRefreshAt = now()
        do {
            try await vault.save(latest)
        } catch {
            return .vault(error)
        }
        lock.writeNote(nil)
        return .refreshed(latest)
    }

    private func finishRefresh(_ outcome: RefreshOutcome) {
        refreshTask = nil
        switch outcome {
        case .refreshed(let updated), .adopted(let updated):
            record = updated
            consecutiveRefreshFailures = 0
            nextRefreshAllowedAt = 0
            lastRefreshError = nil
            send(.refreshSucceeded(SessionSummary(updated)))
        case .transient(let error):
            consecutiveRefreshFailures += 1
            lastRefreshError = error
            nextRefreshAllowedAt = now() + policy.retryDelay(afterFailures: consecutiveRefreshFailures)
            send(.refreshFailedTransiently)
        case .ended(let reason):
            record?.clearSession()
            if case .refreshRejected(let message) = reason { record?.sessionEndedReason = message }
            send(.sessionEnded(reason))
        case .vault(let error):
            send(.vaultFailed(error))
        }
    }

    // MARK: Sign-in

    /// Starts a sign-in with a password. The result is a session, or a challenge to answer with `answer(_:)`.
    public func signIn(username: String, password: SecretBytes, flow: AuthFlow = .userSRP) async throws(AuthStoreError) -> SignInProgress {
        await bootstrap()
        guard send(.signInStarted) else { throw .busy("sign-in, refresh or sign-out") }
        let step: SignInStep
        do {
            step = try await authority.signIn(username: username, password: password, flow: flow)
        } catch {
            await abandonSignIn()
            throw Self.classify(error)
        }
        return try await advance(step)
    }

    /// Keeps the verified tokens of a browser sign-in (the Hosted UI's authorization-code flow, done by the
    /// caller), with the federated identities they name; the session is then refreshed at the token endpoint.
    public func signIn(browserTokens: OAuthTokens) async throws(AuthStoreError) -> SessionSummary {
        await bootstrap()
        guard send(.signInStarted) else { throw .busy("sign-in, refresh or sign-out") }
        let federated = browserTokens.identities.map { UserIdentity.FederatedLink(provider: $0.providerName, userId: $0.userId) }
        guard case .signedIn(let summary) = try await advance(.signedIn(browserTokens.tokens), origin: .browser, federated: federated) else {
            preconditionFailure("tokens always establish a session")
        }
        return summary
    }

    /// Answers the pending challenge. A wrong code keeps the challenge, so it can be answered again.
    public func answer(_ answer: ChallengeAnswer) async throws(AuthStoreError) -> SignInProgress {
        guard let challenge = pendingChallenge, case .awaitingChallenge = state else { throw .noPendingChallenge }
        guard !challenge.isExpired(now: now()) else {
            await abandonSignIn()
            throw .challengeExpired
        }
        let step: SignInStep
        do {
            step = try await authority.respond(to: challenge, with: answer)
        } catch {
            if case .codeMismatch = error { throw .rejected(error) }
            await abandonSignIn()
            throw Self.classify(error)
        }
        return try await advance(step)
    }

    /// MFA_SETUP: the authenticator secret to show the user; then answer with `.softwareTokenSetupCode`.
    public func beginSoftwareTokenSetup() async throws(AuthStoreError) -> SoftwareTokenSecret {
        guard let challenge = pendingChallenge, case .awaitingChallenge = state else { throw .noPendingChallenge }
        do {
            let setup = try await authority.beginSoftwareTokenSetup(for: challenge)
            pendingChallenge = setup.challenge
            return setup.secret
        } catch {
            await abandonSignIn()
            throw Self.classify(error)
        }
    }

    private func advance(
        _ step: SignInStep, origin: SessionOrigin = .userPoolAPI, federated: [UserIdentity.FederatedLink] = []
    ) async throws(AuthStoreError) -> SignInProgress {
        switch step {
        case .challenge(let challenge):
            pendingChallenge = challenge
            send(.challengeIssued(ChallengeSummary(kind: challenge.kind, expiresAt: challenge.expiresAt)))
            return .challenge(challenge)
        case .signedIn(let tokens):
            pendingChallenge = nil
            let stored: CredentialRecord
            do {
                stored = try await persistNewSession(tokens, origin: origin, federated: federated)
            } catch {
                await abandonSignIn()
                throw error
            }
            record = stored
            consecutiveRefreshFailures = 0
            nextRefreshAllowedAt = 0
            let summary = SessionSummary(stored)
            send(.sessionEstablished(summary))
            return .signedIn(summary)
        }
    }

    /// Writes a new session under the profile lock, keeping the record's other contents (the client secret).
    private func persistNewSession(
        _ tokens: CognitoTokens, origin: SessionOrigin, federated: [UserIdentity.FederatedLink]
    ) async throws(AuthStoreError) -> CredentialRecord {
        let profile = self.profile, vault = self.vault, moment = now()
        do {
            return try await lock.withLock { () async throws(VaultError) -> CredentialRecord in
                var updated = try await vault.load(profile: profile) ?? CredentialRecord(profile: profile)
                updated.clearSession()
                updated.sessionEndedReason = nil
                updated.store(tokens)
                updated.identity?.federated = federated
                updated.origin = origin
                updated.signedInAt = moment
                updated.lastRefreshAt = moment
                updated.revision += 1
                try await vault.save(updated)
                return updated
            }
        } catch {
            switch error {
            case .lock(let error), .body(let error): throw .vault(error)
            }
        }
    }

    private func abandonSignIn() async {
        pendingChallenge = nil
        await reloadFromVault()
    }

    // MARK: Sign-out

    /// Clears the local session first (every process sees it), then revokes the refresh token and, with
    /// `global`, signs out everywhere. Remote failures come back in the result; the local sign-out stands.
    public func signOut(global: Bool) async -> SignOutResult {
        await bootstrap()
        pendingChallenge = nil
        refreshTask?.cancel()
        guard send(.signOutStarted(global: global)) else {
            return SignOutResult(revoked: nil, signedOutGlobally: nil, remoteFailures: ["another operation is running"])
        }
        let (cleared, localFailure) = await clearStoredSession()
        var result = SignOutResult(revoked: nil, signedOutGlobally: nil, remoteFailures: localFailure.map { [$0] } ?? [])
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
        record?.clearSession()
        send(.signOutFinished)
        return result
    }

    /// Removes the session from the vault under the lock and returns what it held (the newest tokens, in case
    /// another process rotated them), so they can be revoked.
    private func clearStoredSession() async -> (CredentialRecord?, String?) {
        let profile = self.profile, vault = self.vault
        let known = record
        do {
            let previous = try await lock.withLock { () async throws(VaultError) -> CredentialRecord? in
                guard let stored = try await vault.load(profile: profile) else { return nil }
                var cleared = stored
                cleared.clearSession()
                cleared.sessionEndedReason = nil
                cleared.revision += 1
                if cleared.clientSecret == nil {
                    try await vault.delete(profile: profile)
                } else {
                    try await vault.save(cleared)
                }
                return stored
            }
            return (previous ?? known, nil)
        } catch {
            switch error {
            case .lock(let error), .body(let error): return (known, "clearing the vault: \(error)")
            }
        }
    }

    // MARK: The machine

    /// Feeds an event to the machine; returns false when the current state does not accept it.
    @discardableResult
    private func send(_ event: AuthEvent) -> Bool {
        guard let transition = AuthMachine.transition(from: state, on: event) else { return false }
        state = transition.state
        for observer in observers.values { observer.yield(state) }
        return true
    }

    private static func classify(_ error: CognitoError) -> AuthStoreError {
        error.isRetryable ? .network(error) : .rejected(error)
    }
}
