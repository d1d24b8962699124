import AuthAgent
import AuthStore
import SystemPlumbing
import TokenVault

/// The agent's stores: one per profile, on one shared file vault, refreshing in the background.
///
/// Nobody is ever asked anything: the agent's application has no prompter that can read, so neither the vault
/// passphrase nor the keyring's unlock prompt can be raised on the agent's terminal or desktop by a client's request.
/// A vault that needs either is answered "vault locked", and the user unlocks it from their own terminal.
///
/// After a lock the file vault stays locked in the agent, even when the agent could derive the key from its own
/// `AUTHVAULT_VAULT_PASSPHRASE(_FILE)`: it answers "vault locked" until an unlock, which opens it as at start (the
/// user keyring, where the unlocking command has just put the key, else the agent's own passphrase source).
final class AgentProfiles: AgentProfileProvider {
    private let application: Application
    private let fileVault: EncryptedFileVault
    public let changeStamps: ChangeStamps
    /// A profile that cannot be opened, as the front end words it.
    private let refusal: @Sendable (ApplicationError, _ profile: String) -> AgentProfileRefusal
    /// The session each store was made in, for its identity pool client.
    private let sessions = Locked<[String: ProfileSession]>([:])

    /// - Parameter refusal: the words for a profile that cannot be opened.
    init(
        application: Application,
        refusal: @escaping @Sendable (ApplicationError, _ profile: String) -> AgentProfileRefusal
    ) throws(ApplicationError) {
        self.application = application.withoutPrompts()
        let factory = self.application.vaults(for: try self.application.configuration())
        fileVault = try factory.fileVault()
        changeStamps = factory.changeStamps
        self.refusal = refusal
    }

    /// At start: the file vault opened with what the agent has (the key in the user keyring, its own passphrase
    /// variable or file). Returns why it stays locked or cannot be opened, nil once open.
    func openFileVault() async -> VaultError? {
        do {
            try await fileVault.unlock()
            return nil
        } catch {
            return error
        }
    }

    public var configurationPath: String? { application.configPath }

    public func makeStore(profile: String) async throws(AgentFailure) -> AuthStore {
        let session: ProfileSession
        do {
            session = try await application.openProfile(
                named: profile, refreshesInBackground: true, fileVault: fileVault)
        } catch {
            throw Self.failure(error, worded: refusal(error, profile))
        }
        sessions.withLock { $0[profile] = session }
        return session.store
    }

    public func chooseProfile(
        named: String?, for target: AgentTarget?, among served: Set<String>?, stores: ServedStores
    ) async throws(AgentFailure) -> String? {
        do {
            return try await application.agentProfile(named: named, for: target, among: served, stores: stores)
        } catch {
            throw AgentFailure(.internal, error.description)
        }
    }

    /// From the session the profile's store was made in (the agent asks for the store first).
    public func awsCredentialRequest(profile: String, guest: Bool) async throws(AgentFailure) -> AWSCredentialRequest {
        guard let session = sessions.withLock({ $0[profile] }) else {
            throw AgentFailure(.badRequest, "Profile '\(profile)' has no store in the agent yet.")
        }
        do {
            return try session.awsCredentialRequest(guest: guest)
        } catch {
            // The direct path says what to configure, in the front end's terms.
            throw AgentFailure(.badRequest, error.description)
        }
    }

    /// From the session the profile's store was made in, at the agent's place.
    public func signIn(profile: String) async -> AgentSignIn? {
        sessions.withLock { $0[profile] }?.signInNeed.agentSignIn
    }

    public func lockVaults() async {
        try? await fileVault.lock()
    }

    public func unlockVaults() async throws(AgentFailure) {
        do {
            try await fileVault.unlock()
        } catch {
            throw AgentFailure(
                error.needsUnlocking ? .vaultLocked : .internal,
                "The agent's encrypted file vault stays locked: \(error)")
        }
    }

    /// A profile that cannot be opened, as the agent answers it: the front end's words, the code from the error.
    private static func failure(_ error: ApplicationError, worded: AgentProfileRefusal) -> AgentFailure {
        let code: AgentErrorCode =
            if case .configuration(.noSuchProfile) = error {
                .unknownProfile
            } else {
                worded.vaultLocked ? .vaultLocked : .internal
            }
        return AgentFailure(code, worded.message)
    }
}
