internal import SystemPlumbing

/// Why the agent could not start. Each message says what to do.
public enum AgentServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Another agent answers on the socket, or holds its lock.
    case alreadyRunning(socketPath: String)
    /// The socket's directory is not a private directory of this user.
    case unsafeDirectory(path: String, reason: String)
    /// Something other than a socket sits at the socket's path.
    case notASocket(path: String)
    case pathTooLong(path: String)
    /// The service manager passed a socket the agent cannot serve on (see `ActivatedSocket`).
    case activation(reason: String)
    case system(operation: String, path: String, errno: Int32)

    public var description: String {
        switch self {
        case .alreadyRunning(let socketPath):
            return "An authvault agent is already running on \(socketPath). Stop it first, or use it as it is."
        case .unsafeDirectory(let path, let reason):
            return "The agent's directory \(path) \(reason); the agent keeps its socket only in a directory of yours "
                + "that nobody else can open (run 'chmod 700 \(path)', or remove it and start the agent again)."
        case .notASocket(let path):
            return "\(path) exists and is not a socket; move it away and start the agent again."
        case .pathTooLong(let path):
            return "The socket path \(path) is longer than \(UnixSocket.maximumPathLength) bytes; use a shorter "
                + "XDG_RUNTIME_DIR."
        case .activation(let reason):
            return "The socket systemd passed cannot be used: \(reason). Check the socket unit against "
                + "Examples/systemd/authvault-agent.socket."
        case .system(let operation, let path, let number):
            return "Cannot \(operation) \(path): \(SystemCallError.text(number))."
        }
    }
}
