import AuthAgent
import TokenVault

#if canImport(Glibc)
    internal import Glibc
#endif

/// What is asked of a running agent's vault.
public enum AgentVaultRequest: String, Sendable {
    case lock, unlock
}

/// What `vault unlock` found.
public enum FileVaultUnlock: Sendable, Equatable {
    /// Opened here, and in a running agent too when `inAgent`.
    case unlocked(inAgent: Bool)
    /// No vault was created in `directory` yet: the first sign-in that saves to the file vault creates it.
    case noVault(directory: String)
}

/// A running agent that did not carry out a request on its vault: the vault is not in the state the user was told.
public struct AgentRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    public let socketPath: String
    public let request: AgentVaultRequest
    /// The agent's error answer (`.server`), or why it could not be asked.
    public let error: AgentClientError

    /// Whether the agent answered that its vault stays locked.
    public var vaultStaysLocked: Bool {
        if case .server(let failure) = error { failure.code == .vaultLocked } else { false }
    }

    public var description: String {
        if case .server(let failure) = error {
            return "The agent at \(socketPath) refused to \(request.rawValue): \(failure.message)"
        }
        return "The agent at \(socketPath) did not \(request.rawValue) (\(error)). Stop it, or try again."
    }
}

extension VaultError {
    /// The vault opens with its passphrase or an unlocked keyring: it is locked, not broken.
    var needsUnlocking: Bool {
        switch self {
        case .locked, .passphraseRequired, .lockedUntilUnlocked, .wrongPassphrase: true
        default: false
        }
    }
}

extension Application {
    /// The configuration file, loaded.
    public func configuration() throws(ApplicationError) -> ConfigFile {
        do { return try configStore.load() } catch { throw .configuration(error) }
    }

    /// Forgets the encrypted file vault's key (in the user keyring too), then has a running agent forget its copy and
    /// its sessions. Returns whether an agent did so too.
    public func lockFileVault() async throws(ApplicationError) -> Bool {
        let vault = try vaults(for: configuration()).fileVault()
        do { try await vault.lock() } catch { throw ApplicationError(error) }
        return try tellAgent(.lock)
    }

    /// Opens the encrypted file vault (asking for its passphrase if it must), then has a running agent open its
    /// own again; a vault not created yet has nothing to unlock, and nothing is done.
    public func unlockFileVault() async throws(ApplicationError) -> FileVaultUnlock {
        let vault = try vaults(for: configuration()).fileVault()
        do {
            guard try await vault.exists() else { return .noVault(directory: vault.directory) }
            try await vault.unlock()
        } catch {
            throw ApplicationError(error)
        }
        return .unlocked(inAgent: try tellAgent(.unlock))
    }

    /// Before a use writes a session into the encrypted file vault: the vault is opened here (the passphrase asked
    /// now, if it must be), then in a running agent, so that a sign-in after a lock unlocks everywhere. An agent that
    /// stays locked refuses the use before anything is written: it could not serve the session.
    public func unlockBeforeWriting(_ session: ProfileSession) async throws(ApplicationError) {
        guard session.backend == .file, let vault = session.vault as? EncryptedFileVault, agentSocketPath != nil else {
            return
        }
        do { try await vault.unlock() } catch { throw ApplicationError(error) }
        do {
            _ = try tellAgent(.unlock)
        } catch {
            guard case .agentRefused(let refusal) = error else { throw error }
            throw .agentStaysLocked(refusal)
        }
    }

    /// False when no agent of this user runs (or only a restricted socket of one answers); an agent that runs but does not carry out `request` is an error.
    func tellAgent(_ request: AgentVaultRequest) throws(ApplicationError) -> Bool {
        guard let path = agentSocketPath else { return false }
        // Another user's agent (reached from a container) holds that user's vault, not this one.
        if let owner = agentUid, owner != geteuid() { return false }
        do {
            // Unlocking may run the agent's KDF once.
            let client = AgentClient(socketPath: path, timeout: .seconds(10))
            switch request {
            case .lock: try client.lock()
            case .unlock: try client.unlock()
            }
            return true
        } catch .notRunning {
            return false
        } catch .server(let failure) where failure.code == .unknownProfile {
            // A restricted socket ("not served"): the agent behind it holds nothing this user may lock or unlock.
            return false
        } catch {
            throw .agentRefused(AgentRefusal(socketPath: path, request: request, error: error))
        }
    }
}
