import AuthStore
import CognitoAuth
import HTTPTransport
import Loopback
import TokenVault

// The one translation of the libraries' errors into the application's terms: one initializer per lower error type,
// which every use calls as it catches (`catch { throw ApplicationError(error) }`). What a case needs for a remedy is
// decided here (the next step); the library's own error stays in the cause, for `--debug`. The errors that can mean
// "sign in again" (the store's, the user pool's, the OAuth client's, the browser's) are translated only with the
// `SignInNeed` of the profile the use holds, so that every such failure names the profile and how it signs in.

/// What went wrong below the application: the library's words (server text in them already escaped), and its error.
public struct Cause: Sendable, CustomStringConvertible {
    public let description: String
    /// The library's own error, for `--debug` and for the application's own retries; no remedy reads it.
    public let underlying: any Error & Sendable

    init(_ error: some Error & Sendable & CustomStringConvertible) {
        self.init(error, saying: error.description)
    }

    /// The library's error, said in the application's words where they tell more than the library's.
    init(_ error: some Error & Sendable, saying description: String) {
        self.description = description
        underlying = error
    }

    /// The library's error by type and case, nested cases within (`AuthStoreError.rejected(CognitoError.notAuthorized)`),
    /// for `--debug`: names only, never the values they carry.
    public var name: String { Self.name(of: underlying) }

    private static func name(of value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        let type = "\(mirror.subjectType)"
        guard mirror.displayStyle == .enum, let payload = mirror.children.first, let label = payload.label else {
            return type
        }
        guard let inner = payload.value as? any Error else { return "\(type).\(label)" }
        return "\(type).\(label)(\(name(of: inner)))"
    }
}

/// What would put a failure right, in the application's terms: the command line words each with its commands and
/// flags, for the profile the failure is about.
public enum NextStep: Sendable, Equatable {
    /// Start the sign-in over: the challenge it was answering is gone.
    case signInAgain
    /// Sign in the way the profile does here (through the browser, or with a device code): it has no user pool to
    /// sign in to directly.
    case signInWithoutUserPool(SignInNeed)
    /// Ask for the access token: a machine profile has no ID token.
    case askForAccessToken
    /// Trust the private certificate authority the server's certificate comes from.
    case trustPrivateCA
    /// Check that the identity pool lists the profile's user pool and app client (or sign in again).
    case checkIdentityPoolProviders
    /// Correct the identity pool's id and region.
    case setIdentityPool
    /// Choose one of the identity pool's roles.
    case chooseAWSRole
    /// Store the app client's secret.
    case storeClientSecret
    /// Set the scopes the app client may have.
    case setScopes
    /// Set the browser sign-in's endpoints and redirect URI.
    case setBrowserSignIn
    /// Unlock the keyring, or keep the profile in the encrypted file.
    case unlockKeyringOrUseFile
    /// Keep the profile in the encrypted file: there is no keyring here.
    case keepInFile
    /// Try again once the keyring answers (it did not in time), or keep the profile in the encrypted file.
    case useFileInstead
    /// Unlock the vault that was locked on purpose.
    case unlockVault
    /// Unlock the encrypted file vault in a terminal first: nobody may be asked for its passphrase here.
    case unlockVaultInTerminal
}

extension ApplicationError {
    /// A store's failure, for the profile `need` names.
    public init(_ error: AuthStoreError, need: SignInNeed) {
        switch error {
        case .signInRequired: self = .signInRequired(need, Cause(error))
        case .vault(let reason): self.init(reason)
        case .network(let reason): self = .network(Cause(error), NextStep(reason))
        case .rejected(let reason): self.init(reason, need: need)
        case .noPendingChallenge, .challengeExpired: self = .failed(Cause(error), .signInAgain)
        case .noIDTokenForMachine: self = .invalidRequest(Cause(error), .askForAccessToken)
        case .busy: self = .failed(Cause(error), nil)
        }
    }

    /// A user-pool or identity-pool call's failure, for the profile `need` names.
    public init(_ error: CognitoError, need: SignInNeed) {
        let step: NextStep? = if case .noUserPool = error { .signInWithoutUserPool(need) } else { NextStep(error) }
        self.init(Cause(error), step, need: error.requiresSignIn ? need : nil, isRetryable: error.isRetryable)
    }

    /// A call made with the session's own access token: Cognito refusing the token itself (revoked, or the user
    /// signed out everywhere) means signing in again.
    init(tokenCall error: CognitoError, need: SignInNeed) {
        guard case .notAuthorized = error else {
            self.init(error, need: need)
            return
        }
        let detail = error.serviceMessage.map { " (Cognito: \($0))" } ?? ""
        let saying = "Cognito no longer accepts this session (it was revoked, or signed out everywhere)\(detail)."
        self = .signInRequired(need, Cause(error, saying: saying))
    }

    /// An OAuth client's failure, for the profile `need` names.
    public init(_ error: OAuthError, need: SignInNeed) {
        let step: NextStep? =
            if case .invalidConfiguration = error { .setBrowserSignIn } else { NextStep(CognitoError(error)) }
        self.init(Cause(error), step, need: error.requiresSignIn ? need : nil, isRetryable: error.isRetryable)
    }

    public init(_ error: VaultError) {
        self =
            error.needsUnlocking ? .vaultLocked(Cause(error), NextStep(error)) : .failed(Cause(error), NextStep(error))
    }

    public init(_ error: HTTPError) {
        self = error.isRetryable ? .network(Cause(error), NextStep(error)) : .failed(Cause(error), NextStep(error))
    }

    public init(_ error: FileSystemError) {
        self = .failed(Cause(error), nil)
    }

    /// The loopback listener's failure, for the profile `need` names: a sign-in the person denied is to be done again.
    public init(_ error: LoopbackError, need: SignInNeed) {
        guard case .authorizationDenied = error else {
            self.init(error)
            return
        }
        self = .signInRequired(need, Cause(error))
    }

    /// A loopback endpoint's own failure, where no sign-in waits on it (a denied one is said with its profile's need).
    public init(_ error: LoopbackError) {
        switch error {
        case .cancelled: self = .cancelled(Cause(error))
        case .invalidRedirectURI, .allPortsBusy: self = .invalidRequest(Cause(error), nil)
        case .timedOut, .bindFailed, .authorizationDenied: self = .failed(Cause(error), nil)
        }
    }

    /// A client's failure: sign in again (`need`, when the error requires it), try again later, or neither.
    private init(_ cause: Cause, _ step: NextStep?, need: SignInNeed?, isRetryable: Bool) {
        self =
            if let need { .signInRequired(need, cause) } else if isRetryable { .network(cause, step) } else {
                .failed(cause, step)
            }
    }

    /// The library's failure underneath, for `--debug` and the application's own decisions (a wrong code asked
    /// again); nil for the application's own reasons.
    public var cause: Cause? {
        switch self {
        case .signInRequired(_, let cause), .vaultLocked(let cause, _), .network(let cause, _), .failed(let cause, _),
            .invalidRequest(let cause, _), .cancelled(let cause), .noLogoutPage(let cause):
            cause
        case .discovery(_, let reason), .apiRequest(let reason): reason.cause
        default: nil
        }
    }

    /// What would put it right, when the application knows.
    public var nextStep: NextStep? {
        switch self {
        case .vaultLocked(_, let step), .network(_, let step), .failed(_, let step), .invalidRequest(_, let step):
            step
        default: nil
        }
    }
}

extension NextStep {
    init?(_ error: CognitoError) {
        switch error {
        case .identityNotAuthorized: self = .checkIdentityPoolProviders
        case .identityPoolNotFound: self = .setIdentityPool
        case .invalidIdentityPoolConfiguration: self = .chooseAWSRole
        case .network(let transport): self.init(transport)
        case .deadlineExceeded(_, _, let last?): self.init(last)
        case .clientCredentialsRefused(.invalidClient, _), .missingClientSecret: self = .storeClientSecret
        case .clientCredentialsRefused(.invalidScope, _): self = .setScopes
        default: return nil
        }
    }

    init?(_ error: HTTPError) {
        guard case .tlsFailure = error else { return nil }
        self = .trustPrivateCA
    }

    init?(_ error: VaultError) {
        switch error {
        case .locked: self = .unlockKeyringOrUseFile
        case .unavailable: self = .keepInFile
        case .timedOut: self = .useFileInstead
        case .lockedUntilUnlocked: self = .unlockVault
        case .passphraseRequired: self = .unlockVaultInTerminal
        default: return nil
        }
    }
}
