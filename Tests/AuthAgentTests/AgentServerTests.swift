import AuthAgent
import AuthStore
import Foundation
import TestSupport
import Testing

extension AgentSuites {
    /// The agent through a real socket, with its client.
    @Suite struct AgentServerTests {
        @Test func servesTokensStatusLockAndVersion() async throws {
            try await withAgent { agent in
                let client = agent.client
                let stored = try #require(try await agent.profiles.storedAccessToken())
                let issuedAt = agent.clock.reading

                let access = try await OffPool.run { try client.token(profile: "work") }
                expectSecret(stored, equals: text(access.token), "the access token")
                #expect(access.expiresAt == issuedAt + 3600)  // the fake authority issues hour-long tokens
                #expect(access.username == "alice-internal")
                let id = try await OffPool.run { try client.token(profile: "work", kind: .id) }
                expectSecret(
                    text(try #require(try await agent.profiles.vault.load(profile: "work")?.idToken)),
                    equals: text(id.token),
                    "the ID token")
                expectNoSecrets(in: "\(access)", [stored], "the reply's description")

                let status = try await OffPool.run { try client.status() }
                #expect(status.map(\.profile) == ["work"])
                #expect(status.first?.state == "signedIn")
                #expect(status.first?.user == "alice@example.com")
                #expect(status.first?.accessTokenExpiresAt == issuedAt + 3600)

                let version = try await OffPool.run { try client.version() }
                #expect(version.version == "9.9.9-test")
                #expect(version.protocolVersion == 1)
                #expect(version.pid == getpid())
                try await OffPool.run { try client.ping() }

                #expect(agent.profiles.storesMade == 1)
                try await OffPool.run { try client.lock() }
                #expect(agent.profiles.locks == 1)
                #expect(try await OffPool.run { try client.status() }.isEmpty)
                // After a lock the agent makes its store again: the vault is read (and unlocked) anew.
                _ = try await OffPool.run { try client.token(profile: "work") }
                #expect(agent.profiles.storesMade == 2)
            }
        }

        @Test func reportsEachFailureWithItsCode() async throws {
            try await withAgent { agent in
                let client = agent.client
                func failure(_ profile: String) async throws -> AgentFailure? {
                    do {
                        _ = try await OffPool.run { try client.token(profile: profile) }
                        return nil
                    } catch let error as AgentClientError {
                        guard case .server(let failure) = error else { return nil }
                        return failure
                    }
                }
                let unknown = try await failure("nope")
                #expect(unknown?.code == .unknownProfile)
                let empty = try #require(try await failure("empty"))
                #expect(empty.code == .signInRequired)
                #expect(empty.message.contains("No usable session for profile 'empty'"))
                #expect(
                    !empty.message.contains("authvault login"), "the agent names no command; its caller adds the remedy"
                )
                #expect(try await failure("locked")?.code == .vaultLocked)

                // Past expiry with Cognito unreachable: a network failure, and the session stays.
                agent.authority.failRefreshes(with: .network(.timedOut))
                agent.clock.advance(by: 3601)
                #expect(try await failure("work")?.code == .network)
                #expect(try await agent.profiles.storedAccessToken() != nil)

                let status = try await OffPool.run { try client.status(profile: "locked") }
                #expect(status.first?.state == "vaultUnavailable")
                await #expect(
                    throws: AgentClientError.server(AgentFailure(.unknownProfile, "No profile 'nope' is configured."))
                ) {
                    try await OffPool.run { try client.status(profile: "nope") }
                }
            }
        }

        @Test func aCachedTokenIsNeverServedOnceTheStoreWouldRefresh() async throws {
            try await withAgent { agent in
                let client = agent.client
                let first = try await OffPool.run { try client.token(profile: "work") }

                // Advisory window (200 s left): still the same token, and the store refreshes in the background.
                agent.clock.advance(by: 3400)
                #expect(try await OffPool.run { try client.token(profile: "work") }.token == first.token)
                for _ in 0..<300 {
                    if try await agent.profiles.storedAccessToken() != text(first.token) { break }
                    try await Task.sleep(for: .milliseconds(10))
                }
                #expect(agent.authority.refreshCount == 1)
                let second = try await OffPool.run { try client.token(profile: "work") }
                expectSecret(
                    try await agent.profiles.storedAccessToken(), equals: text(second.token), "the refreshed token")
                #expect(second.token != first.token)

                // Mandatory window of the new token (10 s left): the caller waits for a new one.
                agent.clock.advance(by: 3590)
                let third = try await OffPool.run { try client.token(profile: "work") }
                #expect(third.token != second.token)
                #expect(agent.authority.refreshCount == 2)
                #expect(third.expiresAt == agent.clock.reading + 3600)
            }
        }

        @Test func theSocketIsPrivate() async throws {
            try await withAgent { agent in
                let socket = try FileManager.default.attributesOfItem(atPath: agent.socketPath)
                #expect(socket[.type] as? FileAttributeType == .typeSocket)
                #expect((socket[.posixPermissions] as? NSNumber)?.intValue == 0o600)
                let directory = try FileManager.default.attributesOfItem(atPath: agent.directory.appending("authvault"))
                #expect((directory[.posixPermissions] as? NSNumber)?.intValue == 0o700)
            }
        }

        @Test func refusesADirectoryOthersCanOpen() async throws {
            let directory = try TemporaryDirectory(prefix: "agent")
            let shared = directory.appending("authvault")
            try FileManager.default.createDirectory(
                atPath: shared, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
            let profiles = TestProfiles(
                clock: TestClock(), authority: FakeAuthority(clock: TestClock()),
                lockDirectory: directory.appending("locks"))
            #expect {
                _ = try AgentServer.start(
                    socketPath: shared + "/agent.sock", profiles: profiles, options: .init(version: "t"))
            } throws: { error in
                guard case .unsafeDirectory(let path, _) = error as? AgentServerError else { return false }
                return path == shared
            }
        }

        @Test func refusesALinkedDirectory() async throws {
            let directory = try TemporaryDirectory(prefix: "agent")
            let target = directory.appending("target")
            let linked = directory.appending("authvault")
            try FileManager.default.createDirectory(
                atPath: target, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: target)
            let profiles = TestProfiles(
                clock: TestClock(), authority: FakeAuthority(clock: TestClock()),
                lockDirectory: directory.appending("locks"))
            #expect {
                _ = try AgentServer.start(
                    socketPath: linked + "/agent.sock", profiles: profiles, options: .init(version: "t"))
            } throws: { error in
                guard case .unsafeDirectory(let path, let reason) = error as? AgentServerError else { return false }
                return path == linked && reason.contains("symbolic link")
            }
        }

        @Test func replacesAStaleSocketButNeverALiveAgent() async throws {
            let directory = try TemporaryDirectory(prefix: "agent")
            let path = AgentClient.socketPath(runtimeDirectory: directory.path)
            try FileManager.default.createDirectory(
                atPath: directory.appending("authvault"), withIntermediateDirectories: false,
                attributes: [.posixPermissions: 0o700])
            let clock = TestClock()
            let profiles = TestProfiles(
                clock: clock, authority: FakeAuthority(clock: clock), lockDirectory: directory.appending("locks"))

            // Something that answers on the path without the agent's lock (an older agent, say) is left alone.
            let listener = try boundSocket(at: path)
            try #require(listen(listener, 4) == 0)
            #expect(throws: AgentServerError.alreadyRunning(socketPath: path)) {
                _ = try AgentServer.start(socketPath: path, profiles: profiles, options: .init(version: "first"))
            }
            // Closed, it is a socket left by an agent that died: the file remains and nobody answers.
            close(listener)
            #expect(FileManager.default.fileExists(atPath: path))
            #expect(throws: AgentClientError.notRunning(socketPath: path)) { try AgentClient(socketPath: path).ping() }

            let first = try AgentServer.start(socketPath: path, profiles: profiles, options: .init(version: "first"))
            try await OffPool.run { try AgentClient(socketPath: path).ping() }
            #expect(throws: AgentServerError.alreadyRunning(socketPath: path)) {
                _ = try AgentServer.start(socketPath: path, profiles: profiles, options: .init(version: "second"))
            }
            #expect(try await OffPool.run { try AgentClient(socketPath: path).version() }.version == "first")
            await first.stop()

            // A regular file where the socket goes is not ours to delete.
            _ = FileManager.default.createFile(atPath: path, contents: Data("keep me".utf8))
            #expect(throws: AgentServerError.notASocket(path: path)) {
                _ = try AgentServer.start(socketPath: path, profiles: profiles, options: .init(version: "third"))
            }
            #expect(FileManager.default.contents(atPath: path) == Data("keep me".utf8))
        }

        @Test func stopFinishesTheReplyInFlightRemovesTheSocketAndReturnsPromptly() async throws {
            try await withAgent { agent in
                let client = agent.client
                agent.clock.advance(by: 3590)  // mandatory window: the next token request waits for a 200 ms refresh
                let path = agent.socketPath
                async let inFlight = OffPool.run {
                    try AgentClient(socketPath: path, timeout: .seconds(5)).token(profile: "work")
                }
                for _ in 0..<100 where agent.authority.refreshCount == 0 { try await Task.sleep(for: .milliseconds(5)) }
                try #require(agent.authority.refreshCount == 1)

                let started = ContinuousClock.now
                await agent.server.stop()
                let took = ContinuousClock.now - started
                #expect(took < .seconds(1))
                #expect(!FileManager.default.fileExists(atPath: agent.socketPath))
                let token = try await inFlight
                expectSecret(
                    try await agent.profiles.storedAccessToken(), equals: text(token.token),
                    "the token the caller waited for")
                #expect(throws: AgentClientError.notRunning(socketPath: agent.socketPath)) { try client.ping() }
                await agent.server.stop()  // a second stop is harmless
                await agent.server.waitUntilStopped()
            }
        }
    }
}
