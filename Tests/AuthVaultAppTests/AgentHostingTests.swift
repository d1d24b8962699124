import AuthAgent
import Foundation
import SystemPlumbing
import TestSupport
import Testing
import TokenVault

@testable import AuthVaultApp

/// `Application.hostAgent`: the agent hosted in-process on a home of its own, the front end's words injected. It
/// serves on the main socket and the restricted ones until told to stop, reports a file vault it cannot open without
/// asking anyone, answers a profile it cannot open in the front end's words, and refuses what it cannot host.
@Suite struct AgentHostingTests {
    private struct Home {
        let directory: TemporaryDirectory
        let application: Application
        var runtime: String { directory.appending("runtime") }
    }

    /// A home whose file vault holds a record of `work`, sealed with a passphrase the agent is not given.
    private func home(_ variables: [String: String] = [:]) async throws -> Home {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(
            atPath: directory.appending("runtime"), withIntermediateDirectories: false,
            attributes: [.posixPermissions: 0o700])
        var environment = [
            "HOME": directory.path, "XDG_RUNTIME_DIR": directory.appending("runtime"),
            "AUTHVAULT_KEY_CACHE_TIMEOUT": "0",
        ]
        environment.merge(variables) { $1 }
        let application = Application(environment: EnvironmentVariables(environment))
        var settings = ProfileSettings()
        settings.userPoolId = "eu-west-1_AbC123"
        settings.clientId = "client1"
        settings.vault = .file
        try application.configStore.save(ConfigFile(profiles: ["work": settings]))
        let sealing = Application(
            environment: EnvironmentVariables(
                environment.merging(["AUTHVAULT_VAULT_PASSPHRASE": "not the agent's"]) { $1 }))
        try await sealing.vaults(for: sealing.configuration()).fileVault().save(CredentialRecord(profile: "work"))
        return Home(directory: directory, application: application)
    }

    private static let io = AgentHostIO(
        report: { _ in },
        refusal: { error, profile in
            AgentProfileRefusal(message: "worded for \(profile)", vaultLocked: false)
        })

    @Test func itServesOnBothSocketsUntilToldToStop() async throws {
        let home = try await home()
        let restricted = home.directory.appending("container/agent.sock")
        let events = Locked<[AgentHostEvent]>([])
        let io = AgentHostIO(report: { event in events.withLock { $0.append(event) } }, refusal: Self.io.refusal)
        let options = AgentHostOptions(
            restrictedSockets: [.init(path: restricted, profiles: ["work"])], version: "9.9.9-test")
        let (stop, stopNow) = AsyncStream<Void>.makeStream()
        let application = home.application
        let hosted = Task { () async -> AgentHostError? in
            do throws(AgentHostError) {
                try await application.hostAgent(options, io: io) { for await _ in stop { return } }
                return nil
            } catch {
                return error
            }
        }
        let main = try #require(home.application.agentSocketPath)
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: restricted) {
            try await Task.sleep(for: .milliseconds(10))
        }

        let owner = AgentClient(socketPath: main, timeout: .seconds(10))
        #expect(try await OffPool.run { try owner.version() }.version == "9.9.9-test")
        await #expect(
            throws: AgentClientError.server(AgentFailure(.unknownProfile, "worded for ghost")),
            "in the front end's words"
        ) {
            try await OffPool.run { try owner.token(profile: "ghost") }
        }
        await #expect(
            throws: AgentClientError.server(
                AgentFailure(.unknownProfile, "The agent does not serve this profile to this user."))
        ) {
            try await OffPool.run { try AgentClient(socketPath: restricted, timeout: .seconds(10)).status() }
        }
        #expect(
            events.withLock { $0.contains { if case .fileVaultLocked = $0 { true } else { false } } },
            "no passphrase: the file vault stays locked, and nobody is asked")
        #expect(events.withLock { $0.contains(.log("agent listening on \(main)")) })

        stopNow.yield()
        let failure = await hosted.value
        #expect(failure == nil, "\(failure.map { "\($0)" } ?? "")")
        #expect(!FileManager.default.fileExists(atPath: main) && !FileManager.default.fileExists(atPath: restricted))
        #expect(events.withLock { $0.last } == .log("agent stopped"))
    }

    @Test func whatCannotBeHostedIsRefusedBeforeAnySocketExists() async throws {
        let never: @Sendable () async -> Void = { Issue.record("the agent started") }
        let noRuntime = try await home(["XDG_RUNTIME_DIR": ""])
        do throws(AgentHostError) {
            try await noRuntime.application.hostAgent(.init(version: "t"), io: Self.io, until: never)
            Issue.record("started without a socket path")
        } catch {
            guard case .noSocketPath = error else { throw error }
        }

        let home = try await home()
        let main = try #require(home.application.agentSocketPath)
        do throws(AgentHostError) {
            try await home.application.hostAgent(
                .init(restrictedSockets: [.init(path: main, profiles: ["work"])], version: "t"),
                io: Self.io, until: never)
            Issue.record("a restricted socket on the main socket's path was taken")
        } catch {
            guard case .restrictedSocketIsMain(main) = error else { throw error }
        }
        #expect(!FileManager.default.fileExists(atPath: main))

        let activated = try await self.home(["LISTEN_PID": "\(getpid())", "LISTEN_FDS": "many"])
        do throws(AgentHostError) {
            try await activated.application.hostAgent(.init(version: "t"), io: Self.io, until: never)
            Issue.record("a bad LISTEN_FDS was taken")
        } catch {
            guard case .cannotStart(let reason) = error, reason.contains("LISTEN_FDS is 'many'") else { throw error }
        }
    }
}
