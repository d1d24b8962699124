import AuthAgent
internal import Glibc

/// An agent socket the user named (a forwarded one, in a remote shell) that nobody answered on, where this machine
/// has no profile to use instead: saying "no such profile, create it" would send the user the wrong way. The
/// default socket's agent not running is ordinary (the direct path answers) and stays unsaid. Nothing here is on
/// the warm path: it is asked only once the agent could not be reached.
public enum AgentUnreachableReason: Sendable, Equatable, CustomStringConvertible {
    /// Nothing at the path: `ssh -R` forwarded nothing there (it failed, or the session was opened without -R).
    case noSocket
    /// A socket nobody listens on: one left by an earlier connection.
    case nobodyListening
    /// Something other than a socket is at the path.
    case notASocket
    /// The socket cannot be used (another user's, no permission), in the client's words.
    case cannotConnect(String)

    /// What is at `path`, for a connection refused there or a path with nothing behind it.
    init(lookingAt path: String) {
        var info = stat()
        if stat(path, &info) != 0 {
            self = .noSocket
        } else {
            self = info.st_mode & S_IFMT == S_IFSOCK ? .nobodyListening : .notASocket
        }
    }

    public var description: String {
        switch self {
        case .noSocket: "no socket there"
        case .nobodyListening: "nothing listens on the socket"
        case .notASocket: "it is not a socket"
        case .cannotConnect(let detail): detail
        }
    }
}

/// What the agent-first path got from the agent: its answer, or the direct path to take, with the reason to give
/// instead of a missing profile when the socket the user named could not be reached.
enum AgentAnswer<Served> {
    case served(Served)
    case direct(unreachable: ApplicationError?)
}

extension Application {
    /// The agent socket the user named (`$AUTHVAULT_AGENT_SOCKET`): a forwarded or mounted one, not the default.
    var namedAgentSocket: String? {
        environment.nonEmpty("AUTHVAULT_AGENT_SOCKET")
    }

    /// `.agentUnreachable` when `error` says nobody could be reached on `path` and the user named that socket; nil
    /// for the default socket, and for an agent that was reached (it timed out, or answered).
    func unreachableNamedAgent(_ error: AgentClientError, path: String) -> ApplicationError? {
        guard path == namedAgentSocket else { return nil }
        switch error {
        case .notRunning: return .agentUnreachable(path: path, reason: AgentUnreachableReason(lookingAt: path))
        case .connectionFailed(let detail): return .agentUnreachable(path: path, reason: .cannotConnect(detail))
        case .timedOut, .protocolError, .server: return nil
        }
    }

    /// The direct path's session of `name`, after `agent` gave none: where this machine configures no such profile
    /// and the agent the user named could not be reached, that is the reason given.
    nonisolated(nonsending) func directSession<Served>(named name: String?, after agent: AgentAnswer<Served>)
        async throws(ApplicationError) -> ProfileSession
    {
        do {
            return try await openProfile(named: name)
        } catch {
            if case .configuration(.noSuchProfile) = error, case .direct(let unreachable?) = agent { throw unreachable }
            throw error
        }
    }
}
