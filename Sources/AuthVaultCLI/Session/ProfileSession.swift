import AuthCrypto
import AuthStore
import CognitoAuth
import TokenVault

/// Everything a command needs to act on the current profile: its settings, its vault, its lock and its store.
/// Built per command; the Cognito client inside is made only when a command first talks to Cognito.
struct ProfileSession {
    let profile: ResolvedProfile
    let vault: any VaultBackend
    let backend: VaultBackendKind
    let lock: ProfileLock
    let authority: ProfileAuthority
    let store: AuthStore

    /// The current profile, or `name`.
    /// - Parameters:
    ///   - refreshesInBackground: true only for a long-lived process (the agent); see `AuthStore.init`.
    ///   - fileVault: the file vault to use when the profile is on it, so one process unlocks it once.
    static func open(
        _ context: CommandContext, profile name: String? = nil, refreshesInBackground: Bool = false,
        fileVault: EncryptedFileVault? = nil
    ) async throws(CLIError) -> ProfileSession {
        let configuration: ConfigFile
        let profile: ResolvedProfile
        do {
            configuration = try context.configStore.load()
            profile = try context.configStore.profile(named: name ?? context.profileName, in: configuration)
        } catch {
            throw CLIError(error.description, status: .failure)
        }
        let factory = VaultFactory(context: context, configuration: configuration)
        let (selected, backend) = try await factory.selectBackend(for: profile.name)
        let vault: any VaultBackend = backend == .file ? (fileVault ?? selected) : selected
        let lock = factory.lock(for: profile.name)
        let name = profile.name
        let authority = ProfileAuthority(profile: profile) {
            try? await vault.load(profile: name)?.clientSecret
        }
        // A command exits right after answering: it refreshes before answering, never in a task the exit would cut off.
        let store = AuthStore(profile: name, vault: vault, lock: lock, authority: authority,
                              refreshesInBackground: refreshesInBackground)
        return ProfileSession(profile: profile, vault: vault, backend: backend, lock: lock, authority: authority, store: store)
    }

    /// The Cognito client, for the account operations that go around the store (sign-up, forgotten password, ...).
    func cognitoClient() async throws(CLIError) -> CognitoClient {
        // The client secret lives in the vault: a locked vault is said as such (exit 4), not discovered later as
        // Cognito refusing a request that lacks SECRET_HASH.
        do { _ = try await vault.load(profile: profile.name) } catch { throw CLIErrors.from(error) }
        do { return try await authority.cognitoClient() } catch { throw CLIErrors.from(error) }
    }
}

/// The mapping from the libraries' errors to messages and exit statuses, in one place so every command agrees.
enum CLIErrors {
    static func from(_ error: AuthStoreError) -> CLIError {
        switch error {
        case .signInRequired: return CLIError(error.description, status: .signInRequired)
        case .vault(let vaultError): return from(vaultError)
        case .network(let cognitoError):
            return CLIError(Remedy.message(error.description, Remedy.of(cognitoError)), status: .networkUnavailable)
        case .rejected(let cognitoError): return from(cognitoError)
        case .noPendingChallenge, .challengeExpired, .busy: return CLIError(error.description, status: .failure)
        }
    }

    static func from(_ error: CognitoError) -> CLIError {
        classified(Remedy.message(error.description, Remedy.of(error)), requiresSignIn: error.requiresSignIn, isRetryable: error.isRetryable)
    }

    static func from(_ error: OAuthError) -> CLIError {
        classified(Remedy.message(error.description, Remedy.of(error)), requiresSignIn: error.requiresSignIn, isRetryable: error.isRetryable)
    }

    /// The exit status of a client's failure: sign in again, try again later, or neither.
    private static func classified(_ message: String, requiresSignIn: Bool, isRetryable: Bool) -> CLIError {
        if requiresSignIn { return CLIError(message, status: .signInRequired) }
        if isRetryable { return CLIError(message, status: .networkUnavailable) }
        return CLIError(message, status: .failure)
    }

    static func from(_ error: VaultError) -> CLIError {
        VaultCommands.cliError(error)
    }
}
