import AuthAgent
import Foundation
import TestSupport
import Testing

extension AgentSuites {
    /// `AgentServer.Options.alsoServed`: another user (a container's, through a bind-mounted socket) gets the tokens
    /// of the profiles listed for it and nothing else, every other profile "not served" whether it exists or not;
    /// every other user is still refused; and a client trusts only the agent user it is told.
    @Suite struct AgentAlsoServedUserTests {
        private func ask(as uid: Int, _ path: String, _ requests: [String]) async throws -> [String] {
            try await RawAgentRequests.send(requests, to: path, asUid: uid)
        }

        @Test(.enabled(if: AgentPeerTests.canSwitchUser, "needs root, setpriv and python3 to connect as another user"))
        func theOneMoreUserGetsItsProfilesTokensOnly() async throws {
            // "work" is listed and signed in, "ghost" listed and not configured, "empty" configured and not listed.
            try await withAgent(alsoServed: [65534: ["work", "ghost"]]) { agent in
                var status = stat()
                #expect(lstat(agent.socketPath, &status) == 0 && status.st_mode & 0o777 == 0o666)
                #expect(lstat(agent.directory.appending("authvault"), &status) == 0 && status.st_mode & 0o777 == 0o700)
                // The directory is private: reach the socket as a bind mount would, through an open one.
                chmod(agent.directory.path, 0o711)
                chmod(agent.directory.appending("authvault"), 0o711)
                let replies = try await ask(
                    as: 65534, agent.socketPath,
                    [
                        #"{"v":1,"op":"token","profile":"work"}"#, #"{"v":1,"op":"status"}"#, #"{"v":1,"op":"lock"}"#,
                        #"{"v":1,"op":"unlock"}"#, #"{"v":1,"op":"version"}"#,
                        #"{"v":1,"op":"token","profile":"empty"}"#, #"{"v":1,"op":"token","profile":"ghost"}"#,
                        #"{"v":1,"op":"awsCredentials","profile":"empty"}"#,
                    ])
                #expect(replies.count == 8)
                #expect(replies.first?.contains(#""token":"#) == true, "\(replies)")
                #expect(
                    Array(replies[1...]) == Array(repeating: RawAgentRequests.notServed, count: 7),
                    "status, lock, unlock, version, unlisted and unknown profiles alike: one refusal, nothing more")
                #expect(agent.profiles.locks == 0 && agent.profiles.unlocks == 0)
                let owner = AgentClient(socketPath: agent.socketPath, timeout: .seconds(10))
                #expect(try await OffPool.run { try owner.status() }.count == 1, "the owner is still served all")
                await #expect(
                    throws: AgentClientError.server(
                        AgentFailure(
                            .signInRequired, "No usable session for profile 'empty' (not signed in).",
                            signIn: AgentSignIn(profile: "empty", mode: "paste", flow: nil)))
                ) {
                    try await OffPool.run { try owner.token(profile: "empty") }
                }
                await #expect(
                    throws: AgentClientError.server(AgentFailure(.unknownProfile, "No profile 'ghost' is configured.")),
                    "the owner still hears why"
                ) {
                    try await OffPool.run { try owner.token(profile: "ghost") }
                }

                #expect(try await ask(as: 65533, agent.socketPath, [#"{"v":1,"op":"ping"}"#]).isEmpty)
                #expect(agent.log.contains("refused a connection from uid 65533"))
                #expect(agent.log.contains("serves uids 0, 65534 only"))
            }
        }

        /// A listed profile's failure is told to the other user without its detail: the owner's words can name
        /// files and other profiles.
        @Test(.enabled(if: AgentPeerTests.canSwitchUser, "needs root, setpriv and python3 to connect as another user"))
        func theOtherUserHearsNoDetail() async throws {
            try await withAgent(alsoServed: [65534: ["locked", "empty"]]) { agent in
                chmod(agent.directory.path, 0o711)
                chmod(agent.directory.appending("authvault"), 0o711)
                let reply = try await ask(
                    as: 65534, agent.socketPath,
                    [#"{"v":1,"op":"token","profile":"locked"}"#, #"{"v":1,"op":"token","profile":"empty"}"#])
                // Nor how a profile signs in: that is the owner's configuration.
                #expect(
                    reply == [
                        #"{"v":1,"ok":false,"error":{"code":"vaultLocked","message":"The vault of profile 'locked' is locked in the agent."}}"#,
                        #"{"v":1,"ok":false,"error":{"code":"signInRequired","message":"No usable session for profile 'empty'."}}"#,
                    ])
                await #expect(
                    throws: AgentClientError.server(
                        AgentFailure(
                            .vaultLocked,
                            "The vault of profile 'locked' is locked: The keyring is locked (collection 'login' is locked)."
                        ))
                ) {
                    try await OffPool.run { try agent.client.token(profile: "locked") }
                }
            }
        }

        @Test func withoutTheOptionTheSocketStaysPrivate() async throws {
            try await withAgent { agent in
                var status = stat()
                #expect(lstat(agent.socketPath, &status) == 0 && status.st_mode & 0o777 == 0o600)
            }
        }

        @Test func aClientTrustsOnlyTheAgentUserItIsTold() async throws {
            try await withAgent { agent in
                let path = agent.socketPath
                _ = try await OffPool.run {
                    try AgentClient(socketPath: path, agentUid: geteuid()).token(profile: "work")
                }
                let other = geteuid() == 0 ? UInt32(65534) : 0
                await #expect(
                    throws: AgentClientError.connectionFailed("\(path) is not served by an agent of uid \(other)")
                ) {
                    try await OffPool.run { try AgentClient(socketPath: path, agentUid: other).token(profile: "work") }
                }
            }
        }
    }
}
