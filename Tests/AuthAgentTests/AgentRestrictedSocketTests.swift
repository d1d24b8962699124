import AuthAgent
import Foundation
import TestSupport
import Testing

extension AgentSuites {
    /// `AgentServer.Options.restrictedSockets`: a second socket that serves its profiles' tokens to the agent's own
    /// user (a same-uid container) and answers everything else with the one fixed "not served", while the main
    /// socket serves as before; it is born 0600 in a private directory, never replaces a file that is not a socket,
    /// and a user of `alsoServed` gets there only what both lists allow.
    @Suite struct AgentRestrictedSocketTests {
        static let everythingElse = [
            #"{"v":1,"op":"token","profile":"empty"}"#, #"{"v":1,"op":"token","profile":"ghost"}"#,
            #"{"v":1,"op":"token","profile":"locked","kind":"id"}"#,
            #"{"v":1,"op":"awsCredentials","profile":"empty"}"#, #"{"v":1,"op":"status"}"#,
            #"{"v":1,"op":"status","profile":"work"}"#, #"{"v":1,"op":"lock"}"#, #"{"v":1,"op":"unlock"}"#,
            #"{"v":1,"op":"version"}"#,
        ]

        @Test func theRestrictedSocketServesItsProfilesAndRefusesEverythingElseAlike() async throws {
            let directory = try TemporaryDirectory(prefix: "restricted")
            let path = directory.appending("container/agent.sock")
            try await withAgent(restrictedSockets: [.init(path: path, profiles: ["work"])]) { agent in
                var status = stat()
                #expect(
                    lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK && status.st_mode & 0o777 == 0o600)
                #expect(lstat(directory.appending("container"), &status) == 0 && status.st_mode & 0o777 == 0o700)
                let token = try #require(try await agent.profiles.storedAccessToken())
                let restricted = AgentClient(socketPath: path, timeout: .seconds(10))
                expectSecret(token, equals: text(try await OffPool.run { try restricted.token(profile: "work") }.token))

                let connection = try RawConnection(path: path)
                var replies: [String] = []
                for request in Self.everythingElse {
                    connection.send(request + "\n")
                    replies.append(try connection.readLine())
                }
                #expect(
                    replies == Array(repeating: RawAgentRequests.notServed, count: Self.everythingElse.count),
                    "one refusal, byte for byte, for every request it may not make")
                #expect(!replies.joined().contains(token))
                #expect(
                    agent.profiles.locks == 0 && agent.profiles.unlocks == 0, "lock and unlock never reached the host")
                connection.send(#"{"v":1,"op":"ping"}"# + "\n")
                #expect(try connection.readLine() == #"{"v":1,"ok":true}"#)

                // The main socket is unchanged: the owner sees all.
                #expect(try await OffPool.run { try agent.client.status() }.map(\.profile) == ["work"])
                #expect(try await OffPool.run { try agent.client.version() }.version == "9.9.9-test")
                await agent.server.stop()
                #expect(lstat(path, &status) != 0, "the restricted socket goes with the agent")
            }
        }

        @Test func aRestrictedSocketIsRefusedWhereItCouldBeReplacedOrWouldReplaceAFile() async throws {
            let directory = try TemporaryDirectory(prefix: "restricted")
            let file = directory.appending("plain")
            try Data("keep me".utf8).write(to: URL(fileURLWithPath: file))
            await #expect(throws: AgentServerError.notASocket(path: file)) {
                try await withAgent(restrictedSockets: [.init(path: file, profiles: ["work"])]) { _ in }
            }
            #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep me", "never unlinked")

            let open = directory.appending("open")
            mkdir(open, 0o700)
            chmod(open, 0o777)
            await #expect(
                throws: AgentServerError.unsafeDirectory(path: open, reason: "is open to other users (mode 777)")
            ) {
                try await withAgent(restrictedSockets: [.init(path: open + "/agent.sock", profiles: ["work"])]) { _ in }
            }
            var status = stat()
            #expect(lstat(open + "/agent.sock", &status) != 0)
        }

        /// Another user reaches the restricted socket only when `alsoServed` lists it, and then only for the
        /// profiles both lists name.
        @Test(.enabled(if: AgentPeerTests.canSwitchUser, "needs root, setpriv and python3 to connect as another user"))
        func anotherUserGetsWhatBothListsAllowOrNothing() async throws {
            let directory = try TemporaryDirectory(prefix: "restricted")
            chmod(directory.path, 0o711)
            let path = directory.appending("container/agent.sock")
            let sockets = [AgentServer.RestrictedSocket(path: path, profiles: ["work", "empty"])]
            try await withAgent(restrictedSockets: sockets) { agent in
                chmod(directory.appending("container"), 0o711)
                chmod(path, 0o666)
                let replies = try await RawAgentRequests.send([#"{"v":1,"op":"ping"}"#], to: path, asUid: 65534)
                #expect(replies.isEmpty)
                #expect(agent.log.contains("refused a connection from uid 65534"))
            }
            chmod(directory.appending("container"), 0o700)
            try await withAgent(alsoServed: [65534: ["work", "locked"]], restrictedSockets: sockets) { agent in
                chmod(directory.appending("container"), 0o711)
                var status = stat()
                #expect(lstat(path, &status) == 0 && status.st_mode & 0o777 == 0o666, "reachable through a bind mount")
                let replies = try await RawAgentRequests.send(
                    [
                        #"{"v":1,"op":"token","profile":"work"}"#, #"{"v":1,"op":"token","profile":"empty"}"#,
                        #"{"v":1,"op":"token","profile":"locked"}"#, #"{"v":1,"op":"status"}"#,
                    ], to: path, asUid: 65534)
                #expect(replies.count == 4)
                #expect(replies.first?.contains(#""token":"#) == true, "\(replies)")
                #expect(Array(replies[1...]) == Array(repeating: RawAgentRequests.notServed, count: 3))
            }
        }
    }
}
