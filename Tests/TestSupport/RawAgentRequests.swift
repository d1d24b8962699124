import Foundation

/// Agent request lines sent as written, on one connection, by a Python client (as another user through setpriv
/// when `uid` is given), for tests that compare the agent's raw replies byte for byte.
public enum RawAgentRequests {
    static let script = """
        import socket, sys
        s = socket.socket(socket.AF_UNIX)
        s.settimeout(5)
        s.connect(sys.argv[1])
        f = s.makefile("rwb")
        for request in sys.argv[2:]:
            f.write(request.encode() + b"\\n"); f.flush()
            print(f.readline().decode().strip())
        """

    /// Each reply line, in order; none when the agent refuses the connection.
    public static func send(_ requests: [String], to path: String, asUid uid: Int? = nil) async throws -> [String] {
        let python = ["/usr/bin/python3", "-c", script, path] + requests
        let command =
            uid.map { ["/usr/bin/setpriv", "--reuid=\($0)", "--regid=\($0)", "--clear-groups"] + python } ?? python
        let output = try await BoundedProcess.run(
            command[0], Array(command.dropFirst()), environment: ["PATH": "/usr/bin:/bin"], timeout: 20)
        return output.stdoutText.split(separator: "\n").map(String.init)
    }

    /// The one refusal of anything a connection may not ask, byte for byte.
    public static let notServed =
        #"{"v":1,"ok":false,"error":{"code":"unknownProfile","message":"The agent does not serve this profile to this user."}}"#
}
