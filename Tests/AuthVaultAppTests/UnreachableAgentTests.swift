import Foundation
import SystemPlumbing
import TestSupport
import Testing

@testable import AuthVaultApp

/// An agent socket the user named (`$AUTHVAULT_AGENT_SOCKET`: a remote shell's forwarded one) that nobody answers
/// on: where this machine has no profile to use instead, every agent-first use (a token, AWS credentials, a
/// helper's token for its target) says the agent could not be reached and why, not "no such profile"; where it has
/// one, the direct path answers as before; the default socket's agent not running stays unsaid.
@Suite struct UnreachableAgentTests {
    /// An empty home: no configuration, no vault.
    private struct EmptyHome {
        let directory: TemporaryDirectory
        var socket: String { directory.appending("forwarded/agent.sock") }

        init() throws { directory = try TemporaryDirectory(prefix: "unreachable-agent") }

        func application(_ variables: [String: String]) -> Application {
            Application(environment: EnvironmentVariables(["HOME": directory.path].merging(variables) { $1 }))
        }
    }

    @Test func aMissingNamedSocketWithoutAProfileIsSaidForEveryAgentFirstUse() async throws {
        let home = try EmptyHome()
        let application = home.application(["AUTHVAULT_AGENT_SOCKET": home.socket])
        let expected = ApplicationError.agentUnreachable(path: home.socket, reason: .noSocket)
        await #expect { try await application.helperToken(.access, isExplicit: false) } throws: {
            "\($0)" == "\(expected)"
        }
        await #expect { try await application.helperToken(.id, profile: "work") } throws: { "\($0)" == "\(expected)" }
        await #expect { try await application.awsCredentials(isExplicit: false) } throws: { "\($0)" == "\(expected)" }
        let target = try #require(HelperTarget(gitProtocol: "https", host: "git.example.com"))
        #expect(application.agentDecidesHelperProfile(named: "default", isExplicit: false))
        #expect { try application.agentHelperToken(.access, for: target, profile: nil) } throws: {
            "\($0)" == "\(expected)"
        }
    }

    /// A socket left by an earlier connection (`ssh -R` without `StreamLocalBindUnlink`), and a file that is no socket.
    @Test func aStaleSocketOrAFileSaysWhatIsThere() async throws {
        let home = try EmptyHome()
        try FileManager.default.createDirectory(
            atPath: home.directory.appending("forwarded"), withIntermediateDirectories: false)
        let bound = try await BoundedProcess.run(
            "/usr/bin/python3",
            ["-c", "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", home.socket])
        #expect(bound.status == 0, "\(bound.stderrText)")
        let application = home.application(["AUTHVAULT_AGENT_SOCKET": home.socket])
        await #expect { try await application.helperToken(.access, isExplicit: false) } throws: {
            guard case .agentUnreachable(let path, .nobodyListening)? = $0 as? ApplicationError else { return false }
            return path == home.socket
        }

        let file = home.directory.appending("not-a-socket")
        try Data().write(to: URL(fileURLWithPath: file))
        await #expect {
            try await home.application(["AUTHVAULT_AGENT_SOCKET": file]).helperToken(.access, isExplicit: false)
        } throws: {
            guard case .agentUnreachable(let path, .notASocket)? = $0 as? ApplicationError else { return false }
            return path == file
        }
    }

    /// A socket served by another user than the one expected (`$AUTHVAULT_AGENT_UID`): the client's words say so.
    @Test func anotherUsersSocketIsSaidInTheClientsWords() async throws {
        let home = try EmptyHome()
        try FileManager.default.createDirectory(
            atPath: home.directory.appending("forwarded"), withIntermediateDirectories: false)
        let listener = Process()
        listener.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        listener.arguments = [
            "-c",
            "import socket,sys,time; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(); time.sleep(60)",
            home.socket,
        ]
        try listener.run()
        // SIGKILL: the test runner's children inherit a mask that blocks SIGTERM.
        defer {
            kill(listener.processIdentifier, SIGKILL)
            listener.waitUntilExit()
        }
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: home.socket) {
            try await Task.sleep(for: .milliseconds(10))
        }
        let other = getuid() == 65534 ? "65533" : "65534"
        let application = home.application(["AUTHVAULT_AGENT_SOCKET": home.socket, "AUTHVAULT_AGENT_UID": other])
        await #expect { try await application.helperToken(.access, isExplicit: false) } throws: {
            guard case .agentUnreachable(let path, .cannotConnect(let detail))? = $0 as? ApplicationError else {
                return false
            }
            return path == home.socket && detail.contains("not served by an agent of uid \(other)")
        }
    }

    /// Where this machine configures the profile, the direct path answers: here, that it has no session.
    @Test func aLocalProfileIsUsedWhenTheNamedAgentCannotBeReached() async throws {
        let home = try EmptyHome()
        let application = home.application([
            "AUTHVAULT_AGENT_SOCKET": home.socket, "AUTHVAULT_VAULT_PASSPHRASE": "correct horse",
            "AUTHVAULT_KEY_CACHE_TIMEOUT": "0",
        ])
        var settings = ProfileSettings()
        settings.userPoolId = "eu-west-1_AbC123"
        settings.clientId = "client1"
        settings.vault = .file
        try application.configStore.save(ConfigFile(profiles: ["default": settings]))
        await #expect { try await application.helperToken(.access, isExplicit: false) } throws: {
            guard case .signInRequired(let need, _)? = $0 as? ApplicationError else { return false }
            return need.profile == "default"
        }
    }

    /// The default socket (under XDG_RUNTIME_DIR) with no agent is ordinary: the missing profile is what is said.
    @Test func theDefaultSocketWithoutAnAgentLeavesTheMissingProfile() async throws {
        let home = try EmptyHome()
        let application = home.application(["XDG_RUNTIME_DIR": home.directory.path])
        #expect(application.agentSocketPath != nil)
        await #expect { try await application.helperToken(.access, isExplicit: false) } throws: {
            guard case .configuration(.noSuchProfile(let name, _, _))? = $0 as? ApplicationError else { return false }
            return name == "default"
        }
        await #expect { try await application.awsCredentials(isExplicit: false) } throws: {
            guard case .configuration(.noSuchProfile)? = $0 as? ApplicationError else { return false }
            return true
        }
    }
}
