import AuthAgent

#if canImport(Glibc)
    internal import Glibc
#endif

/// The front end's side of a hosted agent: where its events go, and how it words a profile that cannot be opened.
public struct AgentHostIO: Sendable {
    public var report: @Sendable (AgentHostEvent) -> Void
    public var refusal: @Sendable (ApplicationError, _ profile: String) -> AgentProfileRefusal

    public init(
        report: @escaping @Sendable (AgentHostEvent) -> Void,
        refusal: @escaping @Sendable (ApplicationError, _ profile: String) -> AgentProfileRefusal
    ) {
        self.report = report
        self.refusal = refusal
    }
}

extension Application {
    /// Hosts the token agent until `stopRequested` returns: takes the socket systemd passes (`LISTEN_PID`,
    /// `LISTEN_FDS` in this application's environment) or binds `options.socketPath` (else `agentSocketPath`),
    /// binds the restricted sockets, opens the file vault with what the agent has (never asking anyone), serves,
    /// and stops (the replies in flight sent, its own socket files removed).
    /// - Parameter stopRequested: returns when the agent must stop; armed by the caller before the sockets exist,
    ///   since a client that sees a socket may stop the agent at once.
    public func hostAgent(
        _ options: AgentHostOptions, io: AgentHostIO,
        until stopRequested: @Sendable () async -> Void
    ) async throws(AgentHostError) {
        let activated: ActivatedSocket?
        do {
            activated = try ActivatedSocket.take(
                listenPID: environment["LISTEN_PID"], listenFDs: environment["LISTEN_FDS"])
        } catch {
            throw .cannotStart(reason: error.description)
        }
        // As sd_listen_fds(3) does: the variables were for this process, not for the ones it starts.
        for name in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] { unsetenv(name) }
        guard let path = activated?.path ?? options.socketPath ?? agentSocketPath else { throw .noSocketPath }
        if options.restrictedSockets.contains(where: { $0.path == path }) { throw .restrictedSocketIsMain(path: path) }
        let profiles: AgentProfiles
        do {
            profiles = try AgentProfiles(application: self, refusal: io.refusal)
        } catch {
            throw .profiles(error)
        }
        if let error = await profiles.openFileVault() {
            io.report(
                error.needsUnlocking
                    ? .fileVaultLocked(reason: error.description) : .fileVaultUnavailable(reason: error.description))
        }
        let report = io.report
        let log: @Sendable (String) -> Void = { report(.log($0)) }
        let serverOptions = AgentServer.Options(
            version: options.version, alsoServed: options.alsoServed,
            restrictedSockets: options.restrictedSockets)
        let server: AgentServer
        do {
            if let activated {
                server = try AgentServer.start(
                    activatedSocket: activated, profiles: profiles, options: serverOptions, log: log)
            } else {
                server = try AgentServer.start(socketPath: path, profiles: profiles, options: serverOptions, log: log)
            }
        } catch {
            throw .cannotStart(reason: error.description)
        }
        await stopRequested()
        await server.stop()
        await server.waitUntilStopped()
    }
}
