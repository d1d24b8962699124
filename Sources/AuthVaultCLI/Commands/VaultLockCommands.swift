import AuthAgent
import AuthVaultApp
import TokenVault
#if canImport(Glibc)
import Glibc
#endif

/// `authvault vault lock`: forgets the encrypted file vault's key (in the session keyring too), and makes a running
/// agent forget its copy and its sessions and answer "vault locked" until `vault unlock`.
struct VaultLockCommand: CLICommand {
    static let spec = CommandSpec(
        name: "lock",
        abstract: "Forget the encrypted file vault's unlocked key, here and in a running agent.",
        discussion: """
        The next command that reads the vault asks for the passphrase again. A running agent drops the key and the
        sessions it holds and answers "vault locked" (exit status 4) until 'authvault vault unlock', or a
        'login' or 'refresh', which unlock it in the agent first (and are refused if the agent cannot open it).
        """)

    init(arguments: ParsedArguments) throws(UsageError) {}

    func run(in context: CommandContext) async throws(CLIError) {
        try await RunningAgent.apply(context, "lock", done: "Locked",
                                     here: { vault throws(VaultError) in try await vault.lock() },
                                     inAgent: { client throws(AgentClientError) in try client.lock() })
    }
}

/// `authvault vault unlock`: opens the encrypted file vault again after `vault lock`, here and in a running agent.
struct VaultUnlockCommand: CLICommand {
    static let spec = CommandSpec(
        name: "unlock",
        abstract: "Unlock the encrypted file vault, here and in a running agent (after 'vault lock').",
        discussion: """
        The passphrase comes from $AUTHVAULT_VAULT_PASSPHRASE(_FILE) or a prompt, and the key is kept in the session
        keyring as on any first use. A running agent then opens its vault again: with the key from that keyring, else
        from its own passphrase source; if it has neither, it stays locked and this command says so (exit status 4).
        """)

    init(arguments: ParsedArguments) throws(UsageError) {}

    func run(in context: CommandContext) async throws(CLIError) {
        try await RunningAgent.apply(context, "unlock", done: "Unlocked",
                                     here: { vault throws(VaultError) in try await vault.unlock() },
                                     inAgent: { client throws(AgentClientError) in try client.unlock() })
    }
}

/// A request to the agent on the default socket, if one runs there.
enum RunningAgent {
    /// `action` on the file vault here, then in a running agent; says where it was `done`.
    static func apply(
        _ context: CommandContext, _ action: String, done: String, here: (EncryptedFileVault) async throws(VaultError) -> Void,
        inAgent: (AgentClient) throws(AgentClientError) -> Void
    ) async throws(CLIError) {
        let factory = context.application.vaults(for: try VaultCommands.configuration(context))
        let vault = try application { () throws(ApplicationError) in try factory.fileVault() }
        do {
            try await here(vault)
        } catch {
            throw VaultCommands.cliError(error)
        }
        let agent = try tell(context, what: action, inAgent)
        context.standardError.line("\(done) the encrypted file vault\(agent ? ", in the agent too" : "").")
    }

    /// Before a command writes a session into the encrypted file vault: the vault is opened here (the passphrase
    /// asked now, if it must be), then in a running agent, as `vault unlock` does, so that a sign-in after
    /// `vault lock` unlocks everywhere. An agent that stays locked refuses the command before anything is written:
    /// it could not serve the session.
    static func unlockBeforeWriting(_ context: CommandContext, _ session: ProfileSession) async throws(CLIError) {
        guard session.backend == .file, let vault = session.vault as? EncryptedFileVault,
              context.application.agentSocketPath != nil else { return }
        do {
            try await vault.unlock()
        } catch {
            throw VaultCommands.cliError(error)
        }
        do {
            _ = try tell(context, what: "unlock", { client throws(AgentClientError) in try client.unlock() })
        } catch {
            throw CLIError(Remedy.message("\(error.message) Nothing was written.", Remedy.agentStaysLocked), status: error.status)
        }
    }

    /// False when no agent of this user runs; an agent that runs but does not carry out `request` is an error (the
    /// vault would not be in the state the user was told).
    static func tell(
        _ context: CommandContext, what request: String, _ send: (AgentClient) throws(AgentClientError) -> Void
    ) throws(CLIError) -> Bool {
        guard let path = context.application.agentSocketPath else { return false }
        // Another user's agent (reached from a container) holds that user's vault, not this one.
        if let owner = context.application.agentUid, owner != geteuid() { return false }
        do {
            // Unlocking may run the agent's KDF once.
            try send(AgentClient(socketPath: path, timeout: .seconds(10)))
            return true
        } catch .notRunning {
            return false
        } catch .server(let failure) {
            throw CLIError("The agent at \(path) refused to \(request): \(failure.message)",
                           status: failure.code == .vaultLocked ? .vaultLocked : .failure)
        } catch {
            throw CLIError("The agent at \(path) did not \(request) (\(error)). Stop it, or try again.")
        }
    }
}
