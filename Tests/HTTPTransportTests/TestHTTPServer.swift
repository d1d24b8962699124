import TestSupport

/// Tests/TestSupport/Scripts/http_test_server.py (see the script for its routes), plain HTTP or HTTPS serving the
/// fixture's server certificate, on 127.0.0.1. It stops when released (see ScriptServer).
struct TestHTTPServer: Sendable {
    let server: ScriptServer
    let baseURL: String

    static func start(tls: TLSFixture? = nil) async throws -> TestHTTPServer {
        let arguments = tls.map { ["--cert", $0.serverCertificatePath, "--key", $0.serverKeyPath] } ?? []
        let server = try await ScriptServer.start(script: "http_test_server.py", arguments: arguments)
        return TestHTTPServer(server: server, baseURL: "\(tls == nil ? "http" : "https")://127.0.0.1:\(server.port)")
    }

    func url(_ path: String) -> String { baseURL + path }
}
