/// Why a request to the agent failed. None carries a token.
public enum AgentClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No socket, or nobody listening on it: use the direct path.
    case notRunning(socketPath: String)
    /// The agent did not answer in time.
    case timedOut(seconds: Double)
    /// The socket exists but cannot be used (permissions, a system error).
    case connectionFailed(String)
    /// The agent closed the connection early or answered something this client does not understand.
    case protocolError(String)
    /// The agent answered with an error.
    case server(AgentFailure)

    public var description: String {
        switch self {
        case .notRunning(let socketPath):
            return "No authvault agent is running on \(socketPath)."
        case .timedOut(let seconds):
            return "The authvault agent did not answer within \(seconds) s."
        case .connectionFailed(let detail):
            return "Cannot connect to the authvault agent: \(detail)."
        case .protocolError(let detail):
            return
                "The authvault agent's reply was not understood (\(detail)); is the agent the same version as this authvault?"
        case .server(let failure):
            return failure.message
        }
    }
}
