import CognitoAuth
import DebugTrace
import FoundationEssentials
internal import SystemPlumbing
import TokenVault

/// The one owner of a profile's tokens. Every other component asks it for `validAccessToken()`; it bootstraps from
/// the vault, signs in (answering challenges), refreshes ahead of expiry — one refresh in flight per profile in this
/// process, and across processes under the profile lock with the vault re-read — and signs out.
///
/// Every change of state goes through `send`: the machine (`AuthMachine`) decides the next state and the effects,
/// and `send` performs those effects, in order. Nothing else changes the state, the cached record, the refresh in
/// flight or its waiters; everything the store decides on is in the state. Every change of the stored record goes
/// through `updateRecord` (under the profile lock, the vault read again, the revision bumped once), which then
/// sends the event that tells the machine and the observers.
public actor AuthStore {
    public let profile: String
    let vault: any VaultBackend
    let lock: ProfileLock
    let authority: any SessionAuthority
    /// Set for a profile whose app client signs in as itself (machine sign-in): its token comes from here.
    let machine: (any MachineAuthority)?
    let policy: RefreshPolicy
    let refreshesInBackground: Bool
    let devicePolicy: DevicePolicy?
    /// This machine's clock: when refreshes failed, when the session began.
    let now: @Sendable () -> Double
    /// Why a refresh happened and how it ended (`--debug`).
    let trace: DebugTrace
    /// The identity provider's clock, which times the tokens: every expiry decision reads it.
    public nonisolated let clock: ServerClock

    public private(set) var state: AuthState = .bootstrapping {
        didSet { published.withLock { $0 = StoreSnapshot(state: state, record: record, following: $0) } }
    }
    /// The stored record (with its tokens) as the last accepted event brought it.
    private(set) var record: CredentialRecord? {
        didSet { published.withLock { $0 = StoreSnapshot(state: state, record: record, following: $0) } }
    }
    /// `state` and `record` as their last change left them, for `freshToken`, which reads them without waiting
    /// for the actor: written with them, so it never holds what the store no longer does.
    nonisolated let published = Locked(StoreSnapshot(state: .bootstrapping, record: nil))
    /// The vault read in flight, which callers that arrive meanwhile share.
    private var loading: Task<Void, Never>?
    // What the effects own: the refresh in flight, and the callers waiting for it to end.
    private var refreshTask: Task<Void, Never>?
    /// A machine profile's token fetch in flight, which callers that arrive meanwhile share.
    var machineFetch: Task<Result<CredentialRecord, AuthStoreError>, Never>?
    private(set) var refreshWaiters: [CheckedContinuation<Void, Never>] = []
    private var observers: [Int: AsyncStream<AuthState>.Continuation] = [:]
    private var nextObserverId = 0

    /// - Parameter refreshesInBackground: in the advisory window, refresh without making the caller wait (a
    ///   long-lived process such as the agent). A process that exits right after serving (the CLI) passes false:
    ///   it refreshes before answering, and still answers with the current token if that fails, so a refresh —
    ///   and a rotated refresh token — is never cut off by the process ending.
    /// - Parameter devicePolicy: whether a sign-in confirms the device Cognito reports as new; nil: it does not.
    /// - Parameter clock: the provider's clock as the authority's answers teach it (`ClockLearningTransport`); its
    ///   offset is kept with the session, and adopted from the vault by a process that has not measured one. Nil:
    ///   one over `now` (the system clock when `now` is nil too) that only the vault teaches.
    /// - Parameter machine: for a machine profile (the client-credentials grant), where its tokens come from; its
    ///   `validAccessToken()` then needs no sign-in.
    public init(
        profile: String,
        vault: any VaultBackend,
        lock: ProfileLock,
        authority: any SessionAuthority,
        machine: (any MachineAuthority)? = nil,
        policy: RefreshPolicy = RefreshPolicy(),
        refreshesInBackground: Bool = true,
        devicePolicy: DevicePolicy? = nil,
        now: (@Sendable () -> Double)? = nil,
        clock: ServerClock? = nil,
        trace: DebugTrace = .off
    ) {
        self.profile = profile
        self.vault = vault
        self.lock = lock
        self.authority = authority
        self.machine = machine
        self.policy = policy
        self.refreshesInBackground = refreshesInBackground
        self.devicePolicy = devicePolicy
        self.now = now ?? { Date().timeIntervalSince1970 }
        self.trace = trace
        self.clock = clock ?? now.map { ServerClock(local: $0) } ?? ServerClock()
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
        if let loading {
            await loading.value
            return state
        }
        let task = Task { await self.reloadFromVault() }
        loading = task
        await task.value
        loading = nil
        return state
    }

    func reloadFromVault() async {
        do {
            var loaded = try await vault.load(profile: profile)
            if let offset = loaded?.clockOffset { clock.adopt(offset, anchor: loaded?.clockAnchor) }
            if let refused = loaded?.refusedClockOffset { clock.recall(refusedOffset: refused) }
            // A refresh that saved while this read was in flight holds the newer session: keep it.
            if let record, let stale = loaded, record.revision > stale.revision { loaded = record }
            if let loaded, !loaded.hasSession, let reason = loaded.sessionEndedReason {
                await send(.vaultLoadedEndedSession(.refreshRejected(reason)), record: loaded)
            } else {
                await send(.vaultLoaded(loaded.flatMap { $0.hasSession ? SessionSummary($0) : nil }), record: loaded)
            }
        } catch {
            await send(.vaultFailed(error))
        }
    }

    /// The record to serve from, if the state has a session.
    func usableRecord() throws(AuthStoreError) -> CredentialRecord {
        switch state {
        case .vaultUnavailable(let error): throw .vault(error)
        case .needsSignIn(let reason): throw .signInRequired(reason)
        case .signedIn, .refreshing:
            guard let record, record.hasSession else { throw .signInRequired(nil) }
            return record
        default: throw .signInRequired(nil)
        }
    }

    /// Takes the pending revocations as the vault now holds them, which no event brings: the session in memory
    /// stays as the machine's last accepted event left it.
    func adoptPendingRevocations(of written: CredentialRecord?) {
        guard record != nil else {
            record = written.flatMap { $0.hasSession ? nil : $0 }
            return
        }
        record?.pendingRevocations = written?.pendingRevocations ?? []
    }

    // MARK: The interpreter

    /// What the effects of one transition report to whoever sent its event: for a sign-out, the session the vault
    /// held (to revoke) and how the calls went.
    struct EffectReport {
        var cleared: CredentialRecord?
        var signOut = SignOutResult(revoked: nil, signedOutGlobally: nil, remoteFailures: [])
    }

    /// Feeds an event to the machine and, if the state accepts it, performs the transition's effects in order.
    /// `record` is what the event brings from the vault (`nil`: nothing); it is kept only if the event is accepted,
    /// so an outcome that arrives too late (a refresh after a sign-out) changes nothing.
    /// - Returns: what the effects reported, or nil when the state refused the event.
    @discardableResult
    func send(_ event: AuthEvent, record brought: CredentialRecord?? = nil) async -> EffectReport? {
        guard let transition = AuthMachine.transition(from: state, on: event) else { return nil }
        // The record before the state: a reader of `published` in between sees the old state, which served the
        // session's record already, never a new serving state with a record it has left behind.
        if case .some(let brought) = brought { record = brought }
        state = transition.state
        for observer in observers.values { observer.yield(state) }
        var report = EffectReport()
        for effect in transition.effects { await perform(effect, into: &report) }
        return report
    }

    private func perform(_ effect: AuthEffect, into report: inout EffectReport) async {
        switch effect {
        case .startRefresh:
            let snapshot = record
            refreshTask = Task { await self.refresh(from: snapshot) }
        case .cancelRefresh:
            refreshTask?.cancel()
        case .resumeWaiters:
            let waiters = refreshWaiters
            refreshWaiters = []
            for waiter in waiters { waiter.resume() }
        case .clearStoredSession:
            let cleared = await clearStoredSession()
            record = cleared.kept
            report.cleared = cleared.previous
            if let failure = cleared.failure { report.signOut.remoteFailures.append(failure) }
        case .revokeRemotely(let global):
            await revoke(report.cleared, global: global, into: &report.signOut)
        }
    }

    /// Waits for the refresh in flight, if any, to end (`resumeWaiters`); the outcome is then in the state.
    func waitForRefresh() async {
        guard case .refreshing = state else { return }
        await withCheckedContinuation { refreshWaiters.append($0) }
    }
}
