import AuthStore
import CognitoAuth

/// A sign-in by the device authorization grant (RFC 8628) of a profile whose OpenID provider offers it: the person
/// approves a code on any device with a browser while this process polls. The ID token, when one comes, is verified
/// as any sign-in's; the session is handed to the store like a browser sign-in's (it refreshes at the same token
/// endpoint). Showing the code and waiting at a terminal are the caller's.
public struct DeviceSignIn: Sendable {
    public let session: ProfileSession
    let clock: DevicePollingClock

    /// - Parameter clock: the polling's pace; tests pass one that does not wait.
    public init(session: ProfileSession, clock: DevicePollingClock = .live) {
        self.session = session
        self.clock = clock
    }

    /// What the person is shown: where to go, and the code to enter there.
    public struct Prompt: Sendable, Equatable {
        public let verificationURI: String
        /// The verification URI's host (and port), as parsed: named beside the address, for the person to check.
        public let verificationHost: String
        /// The verification URI with the code in it, at the same host, where the provider gives one.
        public let verificationURIComplete: String?
        public let userCode: String
        /// Seconds until the code expires.
        public let expiresIn: Int
    }

    /// Whether `profile` can sign in this way, said before anything is asked or sent.
    public static func check(_ profile: ResolvedProfile) throws(DeviceSignInError) {
        if profile.userPoolId != nil { throw .cognitoHasNoDeviceGrant(profile: profile.name) }
        guard profile.hasDeviceSignIn else { throw .notOffered(profile: profile.name) }
    }

    /// Asks for a code, hands it to `show` at once, then polls until the person approves, refuses, the code expires
    /// or the task is cancelled. Nothing is stored unless the sign-in succeeded and every token verified.
    public func run(show: @Sendable (Prompt) -> Void) async throws(DeviceSignInError) -> SessionSummary {
        try Self.check(session.profile)
        do { try await session.vaultAnswersForSignIn() } catch { throw .failed(error) }
        let client: OAuthClient
        let authorization: OAuthDeviceAuthorization
        do {
            client = try await session.authority.oauthClient()
            authorization = try await client.deviceAuthorization()
        } catch {
            throw .authorization(error, need: session.signInNeed)
        }
        show(
            Prompt(
                verificationURI: authorization.verificationURI, verificationHost: authorization.verificationHost,
                verificationURIComplete: authorization.verificationURIComplete,
                userCode: authorization.userCode, expiresIn: authorization.expiresIn))
        let tokens: OAuthTokens
        do { tokens = try await client.deviceTokens(for: authorization, clock: clock) } catch {
            throw .grant(error, need: session.signInNeed)
        }
        do { return try await session.store.signIn(browserTokens: tokens) } catch {
            throw .failed(ApplicationError(error, need: session.signInNeed))
        }
    }
}

/// Why a device sign-in failed, by step; nothing was stored.
public enum DeviceSignInError: Error, Sendable, CustomStringConvertible {
    /// A Cognito user pool has no device authorization endpoint.
    case cognitoHasNoDeviceGrant(profile: String)
    /// The profile's provider names no device authorization endpoint.
    case notOffered(profile: String)
    /// The request for a code, the wait for its tokens or the store failed, or the profile's endpoints are unusable.
    case failed(ApplicationError)
    /// The person refused the sign-in at the verification page.
    case denied(Cause)
    /// The code expired before anyone approved it.
    case expired(Cause)
    /// The wait was cancelled (Ctrl-C).
    case cancelled(Cause)
    /// The tokens the grant gave failed verification (most often another issuer or key set).
    case tokensRejected(Cause)

    /// The request for a code, in these terms: a cancelled request is the sign-in cancelled.
    static func authorization(_ error: OAuthError, need: SignInNeed) -> Self {
        if case .network(.cancelled) = error { return .cancelled(Cause(DeviceGrantError.cancelled)) }
        return .failed(ApplicationError(error, need: need))
    }

    /// The wait for the person's approval, in these terms.
    static func grant(_ error: DeviceGrantError, need: SignInNeed) -> Self {
        switch error {
        case .denied: .denied(Cause(error))
        case .expired: .expired(Cause(error))
        case .cancelled: .cancelled(Cause(error))
        case .failed(.tokenRejected(let reason)): .tokensRejected(Cause(reason))
        case .failed(let reason): .failed(ApplicationError(reason, need: need))
        }
    }

    public var description: String {
        switch self {
        case .cognitoHasNoDeviceGrant(let profile):
            "Profile '\(profile)' signs in at Cognito, which has no device authorization grant."
        case .notOffered(let profile): "Profile '\(profile)' has no device authorization endpoint."
        case .failed(let error): "\(error)"
        case .denied(let cause), .expired(let cause), .cancelled(let cause): "\(cause)"
        case .tokensRejected(let cause): "The tokens failed verification: \(cause)"
        }
    }
}
