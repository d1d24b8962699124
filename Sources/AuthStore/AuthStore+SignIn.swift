import AuthCrypto
import CognitoAuth
import TokenVault

extension AuthStore {
    /// Starts a sign-in with a password. The result is a session, or a challenge to answer with `answer(_:)`.
    public func signIn(username: String, password: SecretBytes, flow: AuthFlow = .userSRP) async throws(AuthStoreError)
        -> SignInProgress
    {
        try await signIn(username: username, method: .password(password, flow: flow))
    }

    /// Starts a sign-in by `method`, proving the machine's remembered device if it has one (a device Cognito no
    /// longer knows is forgotten here, and the sign-in goes on without it). The result is a session, or a
    /// challenge to answer with `answer(_:)`.
    public func signIn(username: String, method: SignInMethod) async throws(AuthStoreError) -> SignInProgress {
        await bootstrap()
        try await enterSignIn(refusedWhile: "sign-in, refresh or sign-out")
        let device = record?.device.map { RememberedDevice(key: $0.key, groupKey: $0.groupKey, password: $0.password) }
        let step: SignInStep
        do {
            step = try await startSignIn(username: username, method: method, device: device)
        } catch {
            await reloadFromVault()
            throw Self.classify(error)
        }
        return try await advance(step)
    }

    private func startSignIn(username: String, method: SignInMethod, device: RememberedDevice?)
        async throws(CognitoError) -> SignInStep
    {
        do {
            return try await authority.signIn(username: username, method: method, device: device)
        } catch {
            guard let device, case .resourceNotFound = error else { throw error }
            await forgetDevice(device.key)
            return try await authority.signIn(username: username, method: method, device: nil)
        }
    }

    /// Keeps the verified tokens of a browser sign-in (the Hosted UI's authorization-code flow, done by the
    /// caller), with the federated identities they name; the session is then refreshed at the token endpoint.
    public func signIn(browserTokens: OAuthTokens) async throws(AuthStoreError) -> SessionSummary {
        await bootstrap()
        try await enterSignIn(refusedWhile: "sign-in, refresh or sign-out")
        let federated = browserTokens.identities.map {
            UserIdentity.FederatedLink(provider: $0.providerName, userId: $0.userId)
        }
        guard
            case .signedIn(let summary) = try await advance(
                .signedIn(browserTokens.tokens), origin: .browser, federated: federated)
        else {
            preconditionFailure("tokens always establish a session")
        }
        return summary
    }

    /// Answers the pending challenge. A wrong code keeps the challenge, so it can be answered again. While the
    /// answer is on its way the state is `signingIn`: a sign-out meanwhile is refused rather than raced.
    public func answer(_ answer: ChallengeAnswer) async throws(AuthStoreError) -> SignInProgress {
        let pending = try await takeChallenge()
        let step: SignInStep
        do {
            step = try await authority.respond(to: pending.challenge, with: answer)
        } catch {
            if case .codeMismatch = error {
                await send(.challengeIssued(pending))
                throw .rejected(error)
            }
            await reloadFromVault()
            throw Self.classify(error)
        }
        return try await advance(step)
    }

    /// MFA_SETUP: the authenticator secret to show the user; then answer with `.softwareTokenSetupCode`.
    public func beginSoftwareTokenSetup() async throws(AuthStoreError) -> SoftwareTokenSecret {
        let pending = try await takeChallenge()
        do {
            let setup = try await authority.beginSoftwareTokenSetup(for: pending.challenge)
            await send(.challengeIssued(ChallengeSummary(setup.challenge)))
            return setup.secret
        } catch {
            await reloadFromVault()
            throw Self.classify(error)
        }
    }

    /// Moves to `signingIn`, or throws why the state refuses (`AuthMachine.refusal`): the vault's reason when it
    /// could not be read, `busy` naming `running` when another operation is in flight.
    func enterSignIn(refusedWhile running: String) async throws(AuthStoreError) {
        guard await send(.signInStarted) == nil else { return }
        throw AuthMachine.refusal(of: state, running: running)
    }

    /// The pending challenge, if it has not expired, with the state moved on to `signingIn` while it is answered.
    private func takeChallenge() async throws(AuthStoreError) -> ChallengeSummary {
        guard case .awaitingChallenge(let pending) = state else { throw .noPendingChallenge }
        guard !pending.challenge.isExpired(now: now()) else {
            await reloadFromVault()
            throw .challengeExpired
        }
        guard await send(.signInStarted) != nil else { throw .noPendingChallenge }
        return pending
    }

    private func advance(
        _ step: SignInStep, origin: SessionOrigin = .userPoolAPI, federated: [UserIdentity.FederatedLink] = []
    ) async throws(AuthStoreError) -> SignInProgress {
        switch step {
        case .challenge(let challenge):
            await send(.challengeIssued(ChallengeSummary(challenge)))
            return .challenge(challenge)
        case .signedIn(let tokens):
            let device = await confirmNewDevice(tokens)
            let stored: CredentialRecord
            do {
                stored = try await persistNewSession(tokens, origin: origin, federated: federated, device: device)
            } catch {
                await reloadFromVault()
                throw error.storeError
            }
            // Now that the server answers, what an earlier sign-out could not revoke; its failure never fails the sign-in.
            if !stored.pendingRevocations.isEmpty { await retryPendingRevocations() }
            return .signedIn(SessionSummary(stored))
        }
    }

    /// Writes a new session, keeping the record's other contents (the client secret, the remembered device unless
    /// a new one was confirmed), and establishes it.
    private func persistNewSession(
        _ tokens: CognitoTokens, origin: SessionOrigin, federated: [UserIdentity.FederatedLink], device: DeviceEntry?
    ) async throws(ProfileLockError<AuthStoreError>) -> CredentialRecord {
        let profile = self.profile
        let moment = now()
        let offset = clock.offset
        let anchor = clock.anchor
        let refusedOffset = clock.refusedOffset
        let written = try await updateRecord(
            { (record: inout CredentialRecord?) throws(AuthStoreError) in
                var updated = record ?? CredentialRecord(profile: profile)
                updated.clearSession()
                updated.sessionEndedReason = nil
                updated.store(tokens)
                updated.identity?.federated = federated
                updated.origin = origin
                updated.signedInAt = moment
                updated.lastRefreshAt = moment
                updated.clockOffset = offset
                updated.clockAnchor = anchor
                updated.refusedClockOffset = refusedOffset
                if let device { updated.device = device }
                record = updated
            }, event: { record, _ in record.map { .sessionEstablished(SessionSummary($0)) } })
        guard let record = written.record else { preconditionFailure("a new session always leaves a record") }
        return record
    }

    private static func classify(_ error: CognitoError) -> AuthStoreError {
        error.isRetryable ? .network(error) : .rejected(error)
    }
}
