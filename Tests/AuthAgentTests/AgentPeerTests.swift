import AuthAgent
import Foundation
import TestSupport
import Testing

extension AgentSuites {
    /// The peer's uid is checked on every connection, even when the socket's permissions would let another user in.
    @Suite struct AgentPeerTests {
        static let canSwitchUser =
            geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")

        @Test(.enabled(if: canSwitchUser, "needs root, setpriv and python3 to connect as nobody"))
        func aConnectionFromAnotherUidIsRefused() async throws {
            try await withAgent { agent in
                // Open the path to everyone, as a careless user might: only the uid check stands in the way now.
                for path in [agent.directory.path, agent.directory.appending("authvault")] { chmod(path, 0o711) }
                chmod(agent.socketPath, 0o666)
                let script = """
                    import socket, sys
                    s = socket.socket(socket.AF_UNIX)
                    s.settimeout(3)
                    s.connect(sys.argv[1])
                    try:
                        s.sendall(b'{"v":1,"op":"token","profile":"work"}\\n')
                        data = s.recv(65536)
                    except (BrokenPipeError, ConnectionResetError):
                        data = b''
                    print("connected", "reply" if data else "closed")
                    """
                let path = agent.socketPath
                let output = try await OffPool.run {
                    try ProcessRunner.run(
                        "/usr/bin/setpriv",
                        [
                            "--reuid=65534", "--regid=65534", "--clear-groups",
                            "/usr/bin/python3", "-c", script, path,
                        ], timeout: 20)
                }
                #expect(output.status == 0, "\(output.stderrText)")
                #expect(output.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "connected closed")
                #expect(agent.log.contains("refused a connection from uid 65534"))
                // The owner is still served.
                _ = try await OffPool.run { try AgentClient(socketPath: path).token(profile: "work") }
            }
        }

        @Test(.enabled(if: canSwitchUser, "needs root, setpriv and python3 to listen as nobody"))
        func theClientTakesNoTokenFromAnotherUsersSocket() async throws {
            let directory = try TemporaryDirectory(prefix: "agent")
            chmod(directory.path, 0o711)
            let theirs = directory.appending("nobody")
            try FileManager.default.createDirectory(atPath: theirs, withIntermediateDirectories: false)
            try #require(chown(theirs, 65534, 65534) == 0)
            let path = theirs + "/agent.sock"
            // An impostor that answers every request with a token of its own.
            let script = """
                import os, socket, sys
                s = socket.socket(socket.AF_UNIX)
                s.bind(sys.argv[1])
                os.chmod(sys.argv[1], 0o666)
                s.listen(1)
                s.settimeout(10)
                c, _ = s.accept()
                c.recv(4096)
                c.sendall(b'{"v":1,"ok":true,"token":"planted","expiresAt":1}\\n')
                """
            async let impostor = OffPool.run {
                try ProcessRunner.run(
                    "/usr/bin/setpriv",
                    [
                        "--reuid=65534", "--regid=65534", "--clear-groups",
                        "/usr/bin/python3", "-c", script, path,
                    ], timeout: 20)
            }
            for _ in 0..<500 where !FileManager.default.fileExists(atPath: path) {
                try await Task.sleep(for: .milliseconds(10))
            }
            await #expect(throws: AgentClientError.connectionFailed("\(path) is not served by an agent of uid 0")) {
                try await OffPool.run { try AgentClient(socketPath: path).token(profile: "work") }
            }
            // The impostor got its connection and no request: let it finish.
            _ = try? RawConnection(path: path).send(#"{"v":1,"op":"ping"}"# + "\n")
            _ = try await impostor
        }
    }
}
