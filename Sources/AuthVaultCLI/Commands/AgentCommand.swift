import AuthAgent
import AuthStore
import AuthVaultApp
import Dispatch
import SystemPlumbing
import TokenVault
#if canImport(Glibc)
import Glibc
#endif

/// `authvault agent`: keeps the profiles' stores in one long-lived process and serves their tokens to local
/// processes over a Unix socket; `authvault token` and the helpers use it when it runs.
struct AgentCommand: CLICommand {
    static let socket = OptionSpec.value("socket", placeholder: "path",
                                         help: "The socket (default: $XDG_RUNTIME_DIR/authvault/agent.sock; ignored when systemd passes one).")
    static let alsoServe = OptionSpec.repeatable("also-serve-uid", placeholder: "uid:profile[,profile...]",
                                                 help: "Also serve this user id the tokens of these profiles, and no other: a container's user reaching the socket through a bind mount.")
    static let spec = CommandSpec(
        name: "agent",
        abstract: "Serve tokens to local processes over a Unix socket until stopped.",
        discussion: """
        The socket is 0600 in a 0700 directory and every connection's user id is checked. With --also-serve-uid
        UID:PROFILE[,PROFILE...] the socket is 0666 so that a bind mount can reach it (its directory stays 0700), and
        that user may ask for the tokens of the profiles listed for it, and nothing else: any other profile is "not
        served", whether it exists or not. In the container, set AUTHVAULT_AGENT_SOCKET to the mounted socket and
        AUTHVAULT_AGENT_UID to this agent's user id. Refresh is single-flight across all clients.

        The agent never asks anyone anything: it opens the encrypted file vault at start with the key in the session
        keyring or $AUTHVAULT_VAULT_PASSPHRASE(_FILE), else it starts locked (its log says so) and answers "vault
        locked" (exit status 4) until 'authvault vault unlock', which asks in your terminal and hands the key over.
        A locked keyring is answered the same way, never with a desktop prompt. 'authvault vault lock' locks it
        again; 'authvault login' and 'refresh' unlock it in the agent too, or are refused before writing anything
        if the agent cannot open it. A change to a profile's record by any command (sign-in, sign-out, migration,
        re-key) is seen on the next request. Stop it with Ctrl-C or SIGTERM.
        Examples/systemd/ has user units that start it on the first connection (socket activation).
        """,
        options: [socket, alsoServe])

    let socketPath: String?
    /// Each other user served, with the profiles it may have.
    let alsoServed: [UInt32: Set<String>]

    init(arguments: ParsedArguments) throws(UsageError) {
        socketPath = arguments.value(Self.socket)
        var alsoServed: [UInt32: Set<String>] = [:]
        for text in arguments.values(Self.alsoServe) {
            let (uid, profiles) = try Self.servedUser(text)
            alsoServed[uid, default: []].formUnion(profiles)
        }
        self.alsoServed = alsoServed
    }

    /// `UID:PROFILE[,PROFILE...]`. A bare uid is refused: it would say nothing of which profiles that user may have.
    private static func servedUser(_ text: String) throws(UsageError) -> (UInt32, [String]) {
        let syntax = "Invalid value '\(text)' for --also-serve-uid: expected UID:PROFILE[,PROFILE...], the user id and the "
            + "profiles it may have, such as 1000:work,ci."
        guard let colon = text.firstIndex(of: ":"), let uid = UInt32(text[..<colon]) else { throw UsageError(syntax) }
        let profiles = text[text.index(after: colon)...].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !profiles.isEmpty, profiles.allSatisfy(ProfileValidation.isProfileName) else { throw UsageError(syntax) }
        guard uid != geteuid() else {
            throw UsageError("--also-serve-uid \(uid) names the agent's own user, which is served every profile.")
        }
        return (uid, profiles)
    }

    func run(in context: CommandContext) async throws(CLIError) {
        let activated: ActivatedSocket?
        do {
            activated = try ActivatedSocket.take(listenPID: context.variables["LISTEN_PID"], listenFDs: context.variables["LISTEN_FDS"])
        } catch {
            throw CLIError("Cannot start the agent: \(error)")
        }
        // As sd_listen_fds(3) does: the variables were for this process, not for the ones it starts.
        for name in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] { unsetenv(name) }
        let path = activated?.path ?? socketPath ?? context.application.agentSocketPath
        guard let path else {
            throw CLIError("XDG_RUNTIME_DIR is not set, so there is no default socket: pass --socket PATH.", status: .usage)
        }
        let profiles = try application(for: context.profileName) { () throws(ApplicationError) in
            try AgentProfiles(application: context.application, failure: Self.failure)
        }
        let log: @Sendable (String) -> Void = { context.standardError.line("authvault agent: \($0)") }
        if let error = await profiles.openFileVault() {
            log(error.needsUnlocking ? "the encrypted file vault is locked (\(error)); its profiles are answered \"vault locked\" until "
                + "'authvault vault unlock' in your terminal" : "the encrypted file vault cannot be opened: \(error)")
        }
        // Watched before the socket exists: a client that sees the socket may stop the agent at once.
        let stop = Completion()
        let stopWatch = InterruptWatch { _ in stop.finish() }
        let server: AgentServer
        do {
            let options = AgentServer.Options(version: AuthVault.version, alsoServed: alsoServed)
            if let activated {
                server = try AgentServer.start(activatedSocket: activated, profiles: profiles, options: options, log: log)
            } else {
                server = try AgentServer.start(socketPath: path, profiles: profiles, options: options, log: log)
            }
        } catch {
            throw CLIError("Cannot start the agent: \(error)")
        }
        await stop.wait()
        await server.stop()
        await server.waitUntilStopped()
        withExtendedLifetime(stopWatch) {}
    }

    /// A profile that cannot be opened, as the agent answers it: its reason and remedy in command terms.
    private static func failure(_ error: ApplicationError, profile: String) -> AgentFailure {
        let said = CLIErrors.from(error, profile: profile)
        let code: AgentErrorCode = if case .configuration(.noSuchProfile) = error {
            .unknownProfile
        } else {
            said.status == .vaultLocked ? .vaultLocked : .internal
        }
        return AgentFailure(code, said.message)
    }
}
