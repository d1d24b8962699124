import AuthVaultApp

/// `authvault vault lock`: forgets the encrypted file vault's key (in the user keyring too), and makes a running
/// agent forget its copy and its sessions and answer "vault locked" until `vault unlock`.
struct VaultLockCommand: CLICommand {
    static let name = "lock"
    static let spec = CommandSpec(
        name: name,
        abstract: "Forget the encrypted file vault's unlocked key, here and in a running agent.",
        discussion: """
            The next command that reads the vault asks for the passphrase again. A running agent drops the key and the
            sessions it holds and answers "vault locked" (exit status 4) until 'authvault vault unlock', or a
            'login' or 'refresh', which unlock it in the agent first (and are refused if the agent cannot open it).
            """)

    init(arguments: ParsedArguments) throws(UsageError) {}

    func run(in context: CommandContext) async throws(CLIError) {
        let inAgent = try await application(for: context.profileName) { () async throws(ApplicationError) in
            try await context.application.lockFileVault()
        }
        context.standardError.line("Locked the encrypted file vault\(inAgent ? ", in the agent too" : "").")
    }
}

/// `authvault vault unlock`: opens the encrypted file vault again after `vault lock`, here and in a running agent.
struct VaultUnlockCommand: CLICommand {
    static let name = "unlock"
    static let spec = CommandSpec(
        name: name,
        abstract: "Unlock the encrypted file vault, here and in a running agent (after 'vault lock').",
        discussion: """
            The passphrase comes from $AUTHVAULT_VAULT_PASSPHRASE(_FILE) or a prompt, and the key is kept in the user
            keyring as on any first use. A running agent then opens its vault again: with the key from that keyring, else
            from its own passphrase source; if it has neither, it stays locked and this command says so (exit status 4).
            When no vault was created yet, it says so and exits 1: the first sign-in to the file vault creates it.
            """)

    init(arguments: ParsedArguments) throws(UsageError) {}

    func run(in context: CommandContext) async throws(CLIError) {
        let outcome = try await application(for: context.profileName) { () async throws(ApplicationError) in
            try await context.application.unlockFileVault()
        }
        switch outcome {
        case .unlocked(let inAgent):
            context.standardError.line("Unlocked the encrypted file vault\(inAgent ? ", in the agent too" : "").")
        case .noVault(let directory):
            throw CLIError(
                "There is no encrypted file vault in \(directory) yet, so nothing was unlocked. The first sign-in "
                    + "of a profile that keeps its tokens in the file vault creates it: 'authvault login' (choose that "
                    + "vault with 'authvault configure --vault file').", status: .failure)
        }
    }
}

/// A request to the agent on the default socket, if one runs there.
enum RunningAgent {
    /// Before a command writes a session into the encrypted file vault (see `Application.unlockBeforeWriting`).
    static func unlockBeforeWriting(_ context: CommandContext, _ session: ProfileSession) async throws(CLIError) {
        try await application(for: context.profileName) { () async throws(ApplicationError) in
            try await context.application.unlockBeforeWriting(session)
        }
    }
}
