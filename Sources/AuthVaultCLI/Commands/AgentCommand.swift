import AuthVaultApp
import SystemPlumbing

#if canImport(Glibc)
    import Glibc
#endif

/// `authvault agent`: keeps the profiles' stores in one long-lived process and serves their tokens to local
/// processes over a Unix socket; `authvault token` and the helpers use it when it runs.
struct AgentCommand: CLICommand {
    static let socket = OptionSpec.value(
        "socket", placeholder: "path",
        help: "The socket (default: $XDG_RUNTIME_DIR/authvault/agent.sock; ignored when systemd passes one).")
    static let alsoServe = OptionSpec.repeatable(
        "also-serve-uid", placeholder: "uid:profile[,profile...]",
        help:
            "Also serve this user id the tokens of these profiles, and no other: a container's user reaching the socket through a bind mount."
    )
    static let alsoServeSocket = OptionSpec.repeatable(
        "also-serve-socket", placeholder: "path:profile[,profile...]",
        help:
            "Also listen on the socket at this path, which serves the tokens of these profiles and nothing else: what a container of your own user id gets instead of the whole agent."
    )
    static let name = "agent"
    static let spec = CommandSpec(
        name: name,
        abstract: "Serve tokens to local processes over a Unix socket until stopped.",
        discussion: """
            The socket is 0600 in a 0700 directory and every connection's user id is checked: whoever reaches it as
            you has full access (every profile's tokens, status, lock, unlock). With --also-serve-socket
            PATH:PROFILE[,PROFILE...] the agent also listens at PATH (0600, its directory must be yours and closed to
            others; it is made 0700 if missing) and serves there the tokens and AWS credentials of those profiles and
            nothing else: status, lock, unlock, the version and every other profile get one fixed "not served". Mount
            that socket, not the main one, into a container that runs as your user id, and set AUTHVAULT_AGENT_SOCKET
            to it there. A client the agent refuses reads the vault itself where it can, so a container that mounts
            your home directory gets past any socket. Forwarded with 'ssh -R REMOTE_PATH:PATH' (the server with
            StreamLocalBindUnlink yes), the same socket serves a remote shell that sets AUTHVAULT_AGENT_SOCKET and has
            no configuration: its helpers send where the token goes and this agent applies its profiles' helper
            hosts. Whoever can use that socket there (the remote user's processes, the remote root) gets the served
            profiles' access tokens, never a refresh token. A remote shell where nobody answers on that socket (ssh
            ran without -R, its forwarding failed, or a socket was left by an earlier connection) and no profile is
            configured is told so, with the 'ssh -R' to connect again with.

            With --also-serve-uid UID:PROFILE[,PROFILE...] the sockets are 0666 so that a bind mount can reach them
            (their directories stay 0700), and that user may ask for the tokens of the profiles listed for it (on a
            restricted socket, those listed for both), and nothing else: anything else is "not served", whether the
            profile exists or not. In the container, set AUTHVAULT_AGENT_SOCKET to the mounted socket and
            AUTHVAULT_AGENT_UID to this agent's user id. Refresh is single-flight across all clients.

            The agent never asks anyone anything: it opens the encrypted file vault at start with the key in the user
            keyring or $AUTHVAULT_VAULT_PASSPHRASE(_FILE), else it starts locked (its log says so) and answers "vault
            locked" (exit status 4) until 'authvault vault unlock', which asks in your terminal and hands the key over.
            A locked keyring is answered the same way, never with a desktop prompt. 'authvault vault lock' locks it
            again; 'authvault login' and 'refresh' unlock it in the agent too, or are refused before writing anything
            if the agent cannot open it. A change to a profile's record by any command (sign-in, sign-out, migration,
            re-key) is seen on the next request. Stop it with Ctrl-C or SIGTERM.
            Examples/systemd/ has user units that start it on the first connection (socket activation). The agent
            binds its --also-serve-socket sockets itself once it runs: enable the service too, so that they exist from
            login on.
            """,
        options: [socket, alsoServe, alsoServeSocket])

    let socketPath: String?
    /// Each other user served, with the profiles it may have.
    let alsoServed: [UInt32: Set<String>]
    /// The restricted sockets, each with the profiles it serves.
    let restrictedSockets: [AgentHostOptions.RestrictedSocket]

    init(arguments: ParsedArguments) throws(UsageError) {
        socketPath = arguments.value(Self.socket)
        var alsoServed: [UInt32: Set<String>] = [:]
        for text in arguments.values(Self.alsoServe) {
            let (uid, profiles) = try Self.servedUser(text)
            alsoServed[uid, default: []].formUnion(profiles)
        }
        self.alsoServed = alsoServed
        var restrictedSockets: [AgentHostOptions.RestrictedSocket] = []
        for text in arguments.values(Self.alsoServeSocket) {
            let restricted = try Self.restrictedSocket(text)
            guard !restrictedSockets.contains(where: { $0.path == restricted.path }) else {
                throw UsageError(
                    "--also-serve-socket names \(restricted.path) twice: list all its profiles once, as PATH:PROFILE,PROFILE."
                )
            }
            restrictedSockets.append(restricted)
        }
        self.restrictedSockets = restrictedSockets
    }

    /// `PATH:PROFILE[,PROFILE...]`, the path absolute; split at the last colon, since a profile name has none.
    private static func restrictedSocket(_ text: String) throws(UsageError) -> AgentHostOptions.RestrictedSocket {
        let syntax =
            "Invalid value '\(text)' for --also-serve-socket: expected PATH:PROFILE[,PROFILE...], an absolute socket "
            + "path and the profiles served there, such as /run/user/1000/authvault-devcontainer/agent.sock:work,ci."
        let printable = text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
        guard printable, let colon = text.lastIndex(of: ":"), text.hasPrefix("/"), !text[..<colon].hasSuffix("/") else {
            throw UsageError(syntax)
        }
        let profiles = text[text.index(after: colon)...].split(separator: ",", omittingEmptySubsequences: false).map(
            String.init)
        guard profiles.allSatisfy(ProfileValidation.isProfileName) else { throw UsageError(syntax) }
        let path = String(text[..<colon])
        guard path.utf8.count <= AgentHostOptions.maximumSocketPathLength else {
            throw UsageError(
                "--also-serve-socket \(path) is longer than the \(AgentHostOptions.maximumSocketPathLength) bytes a socket path may have."
            )
        }
        return AgentHostOptions.RestrictedSocket(path: path, profiles: Set(profiles))
    }

    /// `UID:PROFILE[,PROFILE...]`. A bare uid is refused: it would say nothing of which profiles that user may have.
    private static func servedUser(_ text: String) throws(UsageError) -> (UInt32, [String]) {
        let syntax =
            "Invalid value '\(text)' for --also-serve-uid: expected UID:PROFILE[,PROFILE...], the user id and the "
            + "profiles it may have, such as 1000:work,ci."
        guard let colon = text.firstIndex(of: ":"), let uid = UInt32(text[..<colon]) else { throw UsageError(syntax) }
        let profiles = text[text.index(after: colon)...].split(separator: ",", omittingEmptySubsequences: false).map(
            String.init)
        guard !profiles.isEmpty, profiles.allSatisfy(ProfileValidation.isProfileName) else { throw UsageError(syntax) }
        guard uid != geteuid() else {
            throw UsageError("--also-serve-uid \(uid) names the agent's own user, which is served every profile.")
        }
        return (uid, profiles)
    }

    func run(in context: CommandContext) async throws(CLIError) {
        let log: @Sendable (String) -> Void = { context.standardError.line("authvault agent: \($0)") }
        let io = AgentHostIO(
            report: { event in
                switch event {
                case .fileVaultLocked(let reason):
                    log(
                        "the encrypted file vault is locked (\(reason)); its profiles are answered \"vault locked\" until "
                            + "'authvault vault unlock' in your terminal")
                case .fileVaultUnavailable(let reason): log("the encrypted file vault cannot be opened: \(reason)")
                case .log(let line): log(line)
                }
            },
            refusal: { error, profile in
                let said = CLIErrors.from(error, profile: profile)
                return AgentProfileRefusal(message: said.message, vaultLocked: said.status == .vaultLocked)
            })
        let options = AgentHostOptions(
            socketPath: socketPath, alsoServed: alsoServed, restrictedSockets: restrictedSockets,
            version: AuthVault.version)
        // Watched before the sockets exist: a client that sees one may stop the agent at once.
        let stop = Completion()
        let stopWatch = InterruptWatch { _ in stop.finish() }
        defer { withExtendedLifetime(stopWatch) {} }
        do {
            try await context.application.hostAgent(options, io: io) { await stop.wait() }
        } catch {
            switch error {
            case .noSocketPath:
                throw CLIError(
                    "XDG_RUNTIME_DIR is not set, so there is no default socket: pass --socket PATH.", status: .usage)
            case .restrictedSocketIsMain(let path):
                throw CLIError(
                    "--also-serve-socket \(path) is the agent's main socket: give the restricted socket a path of its own.",
                    status: .usage)
            case .profiles(let error):
                throw CLIErrors.from(error, profile: context.profileName)
            case .cannotStart(let reason):
                throw CLIError("Cannot start the agent: \(reason)")
            }
        }
    }
}
