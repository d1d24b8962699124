import AuthAgent
import Foundation
import Testing
import TestSupport

extension AgentSuites {
    /// `AgentServer.Options.alsoServedUid`: one more user (a container's, through a bind-mounted socket) gets tokens
    /// and nothing else; every other user is still refused; and a client trusts only the agent user it is told.
    @Suite struct AgentAlsoServedUserTests {
        /// Sends each request as uid 65534 on one connection and prints each reply line.
        static let askAsNobody = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX)
            s.settimeout(5)
            s.connect(sys.argv[1])
            f = s.makefile("rwb")
            for request in sys.argv[2:]:
                f.write(request.encode() + b"\\n"); f.flush()
                print(f.readline().decode().strip())
            """

        private func ask(as uid: Int, _ path: String, _ requests: [String]) async throws -> [String] {
            let output = try await OffPool.run {
                try ProcessRunner.run("/usr/bin/setpriv", ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups",
                                                           "/usr/bin/python3", "-c", Self.askAsNobody, path] + requests, timeout: 20)
            }
            return output.stdoutText.split(separator: "\n").map(String.init)
        }

        @Test(.enabled(if: AgentPeerTests.canSwitchUser, "needs root, setpriv and python3 to connect as another user"))
        func theOneMoreUserGetsTokensOnly() async throws {
            try await withAgent(alsoServedUid: 65534) { agent in
                var status = stat()
                #expect(lstat(agent.socketPath, &status) == 0 && status.st_mode & 0o777 == 0o666)
                #expect(lstat(agent.directory.appending("authvault"), &status) == 0 && status.st_mode & 0o777 == 0o700)
                // The directory is private: reach the socket as a bind mount would, through an open one.
                chmod(agent.directory.path, 0o711)
                chmod(agent.directory.appending("authvault"), 0o711)
                let replies = try await ask(as: 65534, agent.socketPath, [
                    #"{"v":1,"op":"token","profile":"work"}"#, #"{"v":1,"op":"status"}"#, #"{"v":1,"op":"lock"}"#,
                ])
                #expect(replies.count == 3)
                #expect(replies.first?.contains(#""token":"#) == true, "\(replies)")
                for reply in replies.dropFirst() {
                    #expect(reply.contains("Only the agent's own user may ask for status, lock or unlock"), "\(reply)")
                }
                #expect(try await OffPool.run { try agent.client.status() }.count == 1, "the owner is still served all")

                #expect(try await ask(as: 65533, agent.socketPath, [#"{"v":1,"op":"ping"}"#]).isEmpty)
                #expect(agent.log.contains("refused a connection from uid 65533"))
                #expect(agent.log.contains("serves uids 0 and 65534 only"))
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
                _ = try await OffPool.run { try AgentClient(socketPath: path, agentUid: geteuid()).token(profile: "work") }
                let other = geteuid() == 0 ? UInt32(65534) : 0
                await #expect(throws: AgentClientError.connectionFailed("\(path) is not served by an agent of uid \(other)")) {
                    try await OffPool.run { try AgentClient(socketPath: path, agentUid: other).token(profile: "work") }
                }
            }
        }
    }
}
