import Foundation
import SystemPlumbing
import TestSupport
import Testing

@testable import AuthVaultApp

/// `exec --token-file` and `exec --aws` choose the profile as plain `exec` does: in a remote shell with no
/// configuration of its own, a profile nobody named is the agent's choice. The agent here is a stand-in that serves
/// no profile by name and "work" when asked for none, as the real agent does for a profile it lacks (the real one
/// choosing is ForwardedAgentTests' and AgentTargetTests').
@Suite struct AgentChosenExecTests {
    static let agent = """
        import json, socket, sys, time
        server = socket.socket(socket.AF_UNIX)
        server.bind(sys.argv[1])
        server.listen()
        while True:
            connection, _ = server.accept()
            for line in connection.makefile():
                request = json.loads(line)
                if request.get("profile") is not None:
                    reply = {"v": 1, "ok": False, "error": {"code": "unknownProfile", "message": "no such profile"}}
                elif request["op"] == "token":
                    reply = {"v": 1, "ok": True, "token": "agent-token", "expiresAt": time.time() + 3600,
                             "username": "erin", "profile": "work"}
                else:
                    reply = {"v": 1, "ok": True, "accessKeyId": "AKIA", "secretAccessKey": "s", "sessionToken": "t",
                             "expiresAt": time.time() + 3600, "identityId": "eu-west-1:1"}
                connection.sendall((json.dumps(reply) + "\\n").encode())
            connection.close()
        """

    @Test func anUnnamedProfileIsTheAgentsChoiceForTheTokenFileAndTheEndpoint() async throws {
        let home = try TemporaryDirectory(prefix: "agent-chosen-exec")
        let socket = home.appending("agent.sock")
        let agent = Process()
        agent.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        agent.arguments = ["-c", Self.agent, socket]
        try agent.run()
        // SIGKILL: the test runner's children inherit a mask that blocks SIGTERM.
        defer {
            kill(agent.processIdentifier, SIGKILL)
            agent.waitUntilExit()
        }
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: socket) {
            try await Task.sleep(for: .milliseconds(10))
        }
        let application = Application(
            environment: EnvironmentVariables([
                "HOME": home.path, "AUTHVAULT_AGENT_SOCKET": socket, "XDG_RUNTIME_DIR": home.path,
            ]))

        let file = try await application.tokenFile(.access, profile: "default", isExplicit: false)
        expectSecret("agent-token", equals: try String(contentsOfFile: file.path, encoding: .utf8))
        file.remove()
        let endpoint = try await application.awsCredentialsEndpoint(profile: "default", isExplicit: false)
        #expect(endpoint.environment.map(\.0).contains("AWS_CONTAINER_CREDENTIALS_FULL_URI"))
        endpoint.close()

        // Named, the profile is the one asked for: the agent has no "default" and says so.
        await #expect(throws: ApplicationError.self) {
            _ = try await application.tokenFile(.access, profile: "default", isExplicit: true)
        }
    }
}
