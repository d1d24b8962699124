import AuthCrypto
import AuthStore
import CognitoAuth

/// What a program does with a profile, in the application's terms: the store, vault, lock and authority behind it
/// stay the application's. Each failure is an `ApplicationError`.
extension ProfileSession {
    /// Starts a sign-in with a password (SRP unless `flow` says otherwise): a session, or a challenge to `answer`.
    public func signIn(username: String, password: SecretBytes, flow: AuthFlow = .userSRP)
        async throws(ApplicationError) -> SignInProgress
    {
        do { return try await store.signIn(username: username, password: password, flow: flow) } catch {
            throw ApplicationError(error, need: signInNeed)
        }
    }

    /// Starts a sign-in by `method` (a password, a code sent, passwordless choices, custom challenges).
    public func signIn(username: String, method: SignInMethod) async throws(ApplicationError) -> SignInProgress {
        do { return try await store.signIn(username: username, method: method) } catch {
            throw ApplicationError(error, need: signInNeed)
        }
    }

    /// Answers the pending challenge; a wrong code keeps it, to be answered again.
    public func answer(_ answer: ChallengeAnswer) async throws(ApplicationError) -> SignInProgress {
        do { return try await store.answer(answer) } catch { throw ApplicationError(error, need: signInNeed) }
    }

    /// The access token, refreshed first when it is due; a machine profile's comes from its client credentials.
    public func validAccessToken() async throws(ApplicationError) -> SecretBytes {
        do { return try await store.validAccessToken() } catch { throw ApplicationError(error, need: signInNeed) }
    }

    /// The ID token, refreshed first when it is due; a machine profile has none.
    public func validIDToken() async throws(ApplicationError) -> SecretBytes {
        do { return try await store.validIDToken() } catch { throw ApplicationError(error, need: signInNeed) }
    }

    /// AWS credentials from the profile's identity pool, for the signed-in user or (`guest`) the pool's guest.
    public func awsCredentials(guest: Bool = false) async throws(ApplicationError) -> AWSCredentials {
        let request = try awsCredentialRequest(guest: guest)
        do { return try await store.validAWSCredentials(request) } catch {
            throw ApplicationError(error, need: signInNeed)
        }
    }

    /// Refreshes the session now, whatever its tokens' lifetimes.
    public func refreshNow() async throws(ApplicationError) -> SessionSummary {
        do { return try await store.refreshNow() } catch { throw ApplicationError(error, need: signInNeed) }
    }

    /// Now on the identity provider's clock, which times the tokens (the local one, corrected by what it said).
    public var providerNow: Double { store.clock.now() }

    /// The session's states from now on, starting with the current one.
    public func states() async -> AsyncStream<AuthState> {
        await store.states()
    }

    /// The session's state as the vault holds it.
    public func state() async -> AuthState {
        await store.bootstrap()
    }

    /// Before a sign-in asks anything of the person (a password, a browser, a device code): a vault that did not
    /// answer is read again, and one that still does not is said now, not after the person's part is done.
    func vaultAnswersForSignIn() async throws(ApplicationError) {
        if case .vaultUnavailable(let error) = await store.bootstrap() { throw ApplicationError(error) }
    }

    /// Ends the session here, and (`global`) everywhere the user signed in; what failed remotely is in the result.
    public func signOut(global: Bool = false) async -> SignOutResult {
        await store.signOut(global: global)
    }
}
