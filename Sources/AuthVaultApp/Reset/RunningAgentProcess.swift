import AuthAgent

#if canImport(Glibc)
    internal import Glibc
#endif

/// How `reset` left the agent.
public enum AgentStop: Sendable, Equatable {
    /// No agent of this user answers on the socket.
    case notRunning
    case stopped
    /// It was asked to stop (SIGTERM) and still answers.
    case refused
}

/// The agent serving this user's socket, stopped as its service manager would stop it (SIGTERM): the protocol has
/// no request for that, so that no client can end an agent it merely reaches.
enum RunningAgentProcess {
    static func find(socketPath: String) -> Int32? {
        AgentClient(socketPath: socketPath).agentProcess()
    }

    /// Stops the agent and waits (up to five seconds) until it no longer answers.
    static func stop(socketPath: String) -> AgentStop {
        guard let pid = find(socketPath: socketPath) else { return .notRunning }
        guard kill(pid, SIGTERM) == 0 else { return .refused }
        for _ in 0..<50 {
            if kill(pid, 0) != 0 || find(socketPath: socketPath) == nil { return .stopped }
            usleep(100_000)
        }
        return .refused
    }
}
