import AuthCrypto
import AuthStore
import CognitoAuth
internal import SystemPlumbing

#if canImport(Glibc)
    internal import Glibc
#endif

/// Asks a running agent, one request per connection. Calls block the calling thread for at most `timeout`
/// (from a Task, run them on a thread of your own). Cheap to start: no JSONDecoder, no thread, no task.
public struct AgentClient: Sendable {
    public let socketPath: String
    /// For connecting, sending and the whole reply together.
    public let timeout: Duration
    /// The user whose agent this client trusts: this process's own (nil), unless the agent serves a container's
    /// user over a bind-mounted socket from outside.
    public let agentUid: UInt32?
    /// A longer reply is a protocol error.
    static let maximumReplyLength = 1 << 20

    public init(socketPath: String, timeout: Duration = .seconds(1), agentUid: UInt32? = nil) {
        self.socketPath = socketPath
        self.timeout = timeout
        self.agentUid = agentUid
    }

    /// `$XDG_RUNTIME_DIR/authvault/agent.sock`, where the agent listens.
    public static func socketPath(runtimeDirectory: String) -> String {
        runtimeDirectory + "/authvault/agent.sock"
    }

    /// The profile's token; with a `target`, only when the profile's helper hosts list it (without a profile, from
    /// the one the agent chooses for it: `AgentToken.profile` names it). Neither: the agent's choice of profile.
    public func token(profile: String?, kind: TokenKind = .access, target: AgentTarget? = nil)
        throws(AgentClientError) -> AgentToken
    {
        guard case .token(let token) = try exchange(.token(profile: profile, kind: kind, target: target)) else {
            throw unexpected()
        }
        return token
    }

    /// The profile's AWS credentials from its identity pool (the user's, or with `guest` the pool's guest identity's);
    /// without a profile, the agent's choice.
    public func awsCredentials(profile: String?, guest: Bool = false) throws(AgentClientError) -> AWSCredentials {
        guard case .awsCredentials(let credentials) = try exchange(.awsCredentials(profile: profile, guest: guest))
        else { throw unexpected() }
        return credentials
    }

    /// The named profile, or every profile the agent holds.
    public func status(profile: String? = nil) throws(AgentClientError) -> [AgentProfileStatus] {
        guard case .status(let profiles) = try exchange(.status(profile: profile)) else { throw unexpected() }
        return profiles
    }

    /// Makes the agent forget its unlocked vault keys and the sessions it holds, and keep its vaults locked.
    public func lock() throws(AgentClientError) {
        guard case .done = try exchange(.lock) else { throw unexpected() }
    }

    /// Makes the agent open its vaults again after `lock()`.
    public func unlock() throws(AgentClientError) {
        guard case .done = try exchange(.unlock) else { throw unexpected() }
    }

    public func version() throws(AgentClientError) -> AgentVersion {
        guard case .version(let version) = try exchange(.version) else { throw unexpected() }
        return version
    }

    public func ping() throws(AgentClientError) {
        guard case .done = try exchange(.ping) else { throw unexpected() }
    }

    /// The process of this user's agent, as the kernel names the other end of a connection (SO_PEERCRED); nil
    /// when nobody listens or another user's process does. For stopping it the way its service manager would.
    public func agentProcess() -> Int32? {
        guard case .connected(let descriptor) = UnixSocket.connect(to: socketPath, timeout: timeout) else { return nil }
        defer { close(descriptor) }
        guard let peer = UnixSocket.peerCredentials(descriptor), peer.uid == geteuid(), peer.pid > 0 else { return nil }
        return peer.pid
    }

    private func unexpected() -> AgentClientError {
        .protocolError("a reply of the wrong kind")
    }

    private func exchange(_ request: AgentRequest) throws(AgentClientError) -> AgentReply {
        let deadline = ContinuousClock.now + timeout
        let descriptor: Int32
        switch UnixSocket.connect(to: socketPath, timeout: timeout) {
        case .connected(let connected): descriptor = connected
        case .nobodyListening: throw .notRunning(socketPath: socketPath)
        case .timedOut: throw timedOut()
        case .failed(let number): throw .connectionFailed("\(socketPath): \(SystemCallError.text(number))")
        }
        defer { close(descriptor) }
        // Tokens are taken only from the agent of the expected user: a socket another user put in place gets nothing.
        let expected = agentUid ?? geteuid()
        guard let peer = UnixSocket.peerCredentials(descriptor), peer.uid == expected else {
            throw .connectionFailed("\(socketPath) is not served by an agent of uid \(expected)")
        }
        try transmit(request.line, to: descriptor, before: deadline)
        var line = try readLine(from: descriptor, before: deadline)
        defer { line.wipe() }
        guard let reply = AgentReply.parse(line, answering: request) else { throw .protocolError("a malformed reply") }
        if case .failure(let failure) = reply { throw .server(failure) }
        return reply
    }

    private func transmit(_ bytes: [UInt8], to descriptor: Int32, before deadline: ContinuousClock.Instant)
        throws(AgentClientError)
    {
        var sent = 0
        while sent < bytes.count {
            do {
                sent += try SystemCall.retryingInterrupts("send") {
                    bytes.withUnsafeBytes {
                        send(descriptor, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                    }
                }
            } catch {
                guard error.code == EAGAIN || error.code == EWOULDBLOCK else {
                    throw .protocolError("the agent closed the connection (\(SystemCallError.text(error.code)))")
                }
                try wait(for: Int16(POLLOUT), on: descriptor, before: deadline)
            }
        }
    }

    /// Up to the first newline (excluded).
    private func readLine(from descriptor: Int32, before deadline: ContinuousClock.Instant) throws(AgentClientError)
        -> [UInt8]
    {
        var line: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        defer { chunk.wipe() }
        while true {
            let count: Int
            do {
                count = try SystemCall.retryingInterrupts("recv") {
                    chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                }
            } catch {
                guard error.code == EAGAIN || error.code == EWOULDBLOCK else {
                    line.wipe()
                    throw .protocolError("the connection failed (\(error))")
                }
                try wait(for: Int16(POLLIN), on: descriptor, before: deadline)
                continue
            }
            if count > 0 {
                if let newline = chunk[0..<count].firstIndex(of: 0x0A) {
                    line.append(contentsOf: chunk[0..<newline])
                    return line
                }
                line.append(contentsOf: chunk[0..<count])
                guard line.count <= Self.maximumReplyLength else {
                    line.wipe()
                    throw .protocolError("a reply longer than \(Self.maximumReplyLength) bytes")
                }
            } else {
                line.wipe()
                throw .protocolError("the agent closed the connection without answering")
            }
        }
    }

    private func wait(for events: Int16, on descriptor: Int32, before deadline: ContinuousClock.Instant)
        throws(AgentClientError)
    {
        var watched = pollfd(fd: descriptor, events: events, revents: 0)
        // A failed poll returns too: the send or receive that follows reports the descriptor's error.
        let ready = try? SystemCall.waiting("poll", until: deadline) { poll(&watched, 1, $0) }
        if ready == 0 { throw timedOut() }
    }

    private func timedOut() -> AgentClientError {
        let (seconds, attoseconds) = timeout.components
        return .timedOut(seconds: Double(seconds) + Double(attoseconds) / 1e18)
    }
}
