import AuthAgent

/// What `hostAgent` is asked to serve: the sockets, and who may have what on them.
public struct AgentHostOptions: Sendable {
    /// A socket that serves the tokens and AWS credentials of `profiles` and nothing else.
    public typealias RestrictedSocket = AgentServer.RestrictedSocket
    /// The longest socket path the kernel takes, in bytes.
    public static let maximumSocketPathLength = AgentServer.maximumSocketPathLength

    /// The main socket; nil for `agentSocketPath`. Ignored when the service manager passes one.
    public var socketPath: String?
    /// Other users served, each with the profiles it may have (a container's user, through a bind mount).
    public var alsoServed: [UInt32: Set<String>]
    public var restrictedSockets: [RestrictedSocket]
    /// The agent's version, for the `version` request.
    public var version: String

    public init(
        socketPath: String? = nil, alsoServed: [UInt32: Set<String>] = [:], restrictedSockets: [RestrictedSocket] = [],
        version: String
    ) {
        self.socketPath = socketPath
        self.alsoServed = alsoServed
        self.restrictedSockets = restrictedSockets
        self.version = version
    }
}

/// What the hosted agent tells its front end while it starts and runs.
public enum AgentHostEvent: Sendable, Equatable {
    /// The encrypted file vault stays locked until an unlock: its profiles are answered "vault locked".
    case fileVaultLocked(reason: String)
    /// The encrypted file vault cannot be opened at all.
    case fileVaultUnavailable(reason: String)
    /// A line of the server's log (never a token).
    case log(String)
}

/// How the front end words a profile the agent cannot open: the message a client shows, and whether it is a
/// locked vault (which the client reports as such).
public struct AgentProfileRefusal: Sendable, Equatable {
    public let message: String
    public let vaultLocked: Bool

    public init(message: String, vaultLocked: Bool) {
        self.message = message
        self.vaultLocked = vaultLocked
    }
}

/// Why the agent could not be hosted.
public enum AgentHostError: Error, Sendable, CustomStringConvertible {
    /// No socket was given and there is no runtime directory for the default one.
    case noSocketPath
    /// A restricted socket was given the main socket's path.
    case restrictedSocketIsMain(path: String)
    /// The profiles' configuration or vaults could not be read.
    case profiles(ApplicationError)
    /// The sockets could not be taken (another agent runs, an unsafe directory, a bad socket passed by systemd...).
    case cannotStart(reason: String)

    public var description: String {
        switch self {
        case .noSocketPath: "XDG_RUNTIME_DIR is not set, so there is no default socket"
        case .restrictedSocketIsMain(let path):
            "\(path) is the agent's main socket; a restricted socket needs a path of its own"
        case .profiles(let error): error.description
        case .cannotStart(let reason): reason
        }
    }
}
