import SecureFiles
import TokenVault

/// A sign-in a helper starts itself when it finds no usable session (`configure --helper-sign-in on`): who may be
/// asked, and one sign-in at a time across processes, the others answering from the session it leaves.
public enum HelperSignIn {
    /// Why a helper does not sign in, for the front end to say beside the login to run.
    public enum Refusal: Sendable, Equatable {
        /// `configure --helper-sign-in` is off (the default).
        case notEnabled
        /// Whoever ran the helper said no one is to be asked: `by` names how (`--non-interactive`,
        /// `GIT_TERMINAL_PROMPT=0`, kubectl's `interactive: false`).
        case promptsForbidden(by: String)
        /// No terminal at /dev/tty, and no desktop to open a browser on.
        case nobodyToReach
    }

    /// What the front end knows of the person and of what the caller allows.
    public struct Reach: Sendable {
        /// The profile's `helperSignIn` setting.
        public var enabled: Bool
        /// Set when the caller forbade prompts, naming how.
        public var forbiddenBy: String?
        /// /dev/tty opens: prompts, codes and the countdown go there, never to the tool's protocol channel.
        public var hasTerminal: Bool
        /// A desktop session (DISPLAY, WAYLAND_DISPLAY) to open a browser on.
        public var hasDesktop: Bool

        public init(enabled: Bool, forbiddenBy: String?, hasTerminal: Bool, hasDesktop: Bool) {
            self.enabled = enabled
            self.forbiddenBy = forbiddenBy
            self.hasTerminal = hasTerminal
            self.hasDesktop = hasDesktop
        }

        /// Nil: sign in. Asked for first, then allowed, then someone to ask.
        public var refusal: Refusal? {
            guard enabled else { return .notEnabled }
            if let forbiddenBy { return .promptsForbidden(by: forbiddenBy) }
            return hasTerminal || hasDesktop ? nil : .nobodyToReach
        }
    }

    /// What failed: the token (its error as the helper path says it), or the sign-in itself (the caller's error).
    public enum Failure<SignInError: Error>: Error {
        case token(ApplicationError)
        case signIn(SignInError)
    }

    /// Sign-ins can wait this long for the person (a device code lives 10 to 30 minutes): a caller queued behind
    /// one waits as long, then fails with the lock's timeout.
    public static let waitForSignIn = Duration.seconds(30 * 60)
}

extension ApplicationError {
    /// Only a sign-in helps: no session, the refresh token rejected or expired (here or as the agent says).
    public var requiresSignIn: Bool {
        switch self {
        case .signInRequired: true
        case .agent(_, let failure): failure.code == .signInRequired
        default: false
        }
    }
}

extension Application {
    /// The lock a helper's sign-in holds for `profile`, in the data directory's private `locks/sign-in` (0600 file,
    /// 0700 directory), apart from the profile's lock, which the sign-in itself takes to write the session.
    func helperSignInLock(profile: String) -> ProfileLock {
        ProfileLock(
            directory: FilePath.join(FilePath.join(dataDirectory, "locks"), "sign-in"), profile: profile,
            timeout: HelperSignIn.waitForSignIn, trace: trace)
    }

    /// After `token` said only a sign-in helps: one `signIn` for `profile` across processes, then `token` again.
    /// A caller that waited for another's sign-in tries `token` first and answers from that session. When that
    /// sign-in failed (refused, expired, cancelled), the callers that waited for it fail too rather than start
    /// another: never a second browser tab or device code for one burst of helpers.
    /// - Parameter waiting: called once when this caller is queued behind another's sign-in (not a moment's wait),
    ///   which lasts at most `HelperSignIn.waitForSignIn`.
    public func afterHelperSignIn<T, E: Error>(
        profile: String, waiting: (@Sendable () -> Void)? = nil, token: () async throws(ApplicationError) -> T,
        signIn: () async throws(E) -> Void
    ) async throws(HelperSignIn.Failure<E>) -> T {
        let lock = helperSignInLock(profile: profile)
        let askedAt = now()
        let result: Result<T, HelperSignIn.Failure<E>>
        do {
            result = try await lock.withLock(whenWaitingLong: waiting) {
                () async throws(Never) -> Result<T, HelperSignIn.Failure<E>> in
                await signingInOnce(profile: profile, lock: lock, since: askedAt, token: token, signIn: signIn)
            }
        } catch {
            switch error {
            case .lock(let error): throw .token(ApplicationError(error))
            case .body(let never): switch never {}
            }
        }
        return try result.get()
    }

    /// Under the lock: the session another caller may have left, else (unless one failed while this caller
    /// waited, as the lock's note says) a sign-in and the token it gives.
    private func signingInOnce<T, E: Error>(
        profile: String, lock: ProfileLock, since askedAt: Double, token: () async throws(ApplicationError) -> T,
        signIn: () async throws(E) -> Void
    ) async -> Result<T, HelperSignIn.Failure<E>> {
        do {
            return .success(try await token())
        } catch {
            guard error.requiresSignIn else { return .failure(.token(error)) }
            let failedAt = lock.readNote().flatMap { Double(String(decoding: $0, as: UTF8.self)) }
            if let failedAt, failedAt >= askedAt {
                trace("the sign-in another helper started for profile '\(profile)' failed: none is started again")
                return .failure(.token(error))
            }
            trace("profile '\(profile)' still needs a sign-in: the helper starts one")
        }
        do { try await signIn() } catch {
            lock.writeNote(Array(String(now()).utf8))
            return .failure(.signIn(error))
        }
        lock.writeNote(nil)
        do { return .success(try await token()) } catch { return .failure(.token(error)) }
    }
}
