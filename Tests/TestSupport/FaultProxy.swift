import Foundation

/// Tests/TestSupport/Scripts/fault_proxy.py between a client and an upstream server: each Cognito API call
/// (a request with X-Amz-Target) takes the next fault from a queue the test sets, and is counted.
public final class FaultProxy: Sendable {
    public enum Fault: Sendable {
        case pass
        /// Answer with this status and body, without forwarding.
        case status(Int, body: String, contentType: String)
        /// Read the request, then reset the connection.
        case reset
        /// Read the request and answer nothing for this long.
        case stall(seconds: Double)
        /// Forward, then send half the body of a response whose Content-Length promises all of it.
        case truncate
        /// Forward, then answer 200 with half the body (consistent length: well-formed HTTP, broken JSON).
        case malformed

        /// An HTML error page, as a load balancer or a crashed server sends.
        public static func htmlPage(status: Int) -> Fault {
            .status(
                status, body: "<!doctype html><html><title>\(status)</title><h1>Server Error</h1></html>",
                contentType: "text/html")
        }

        /// A Cognito error answer.
        public static func cognitoError(_ type: String, status: Int = 400, message: String = "injected") -> Fault {
            let body = try! JSONSerialization.data(withJSONObject: ["__type": type, "message": message])
            return .status(
                status, body: String(decoding: body, as: UTF8.self), contentType: "application/x-amz-json-1.1")
        }

        var json: [String: Any] {
            switch self {
            case .pass: ["kind": "pass"]
            case .status(let status, let body, let contentType):
                ["kind": "status", "status": status, "body": body, "contentType": contentType]
            case .reset: ["kind": "reset"]
            case .stall(let seconds): ["kind": "stall", "seconds": seconds]
            case .truncate: ["kind": "truncate"]
            case .malformed: ["kind": "malformed"]
            }
        }
    }

    /// One call the proxy saw: the operation (X-Amz-Target without the service prefix) and the fault it got.
    public struct Record: Sendable, Equatable {
        public let operation: String
        public let fault: String
    }

    private let server: ScriptServer
    /// Point the client's endpoint here.
    public var endpoint: String { server.baseURL + "/" }

    private init(server: ScriptServer) {
        self.server = server
    }

    public static func start(upstream: String) async throws -> FaultProxy {
        FaultProxy(server: try await ScriptServer.start(script: "fault_proxy.py", arguments: ["--upstream", upstream]))
    }

    /// Replaces the queue: the next calls get these faults in order, later ones pass through.
    public func inject(_ faults: [Fault]) async throws {
        let body = try JSONSerialization.data(withJSONObject: ["faults": faults.map(\.json)])
        let response = try await LoopbackHTTP.send(url: server.baseURL + "/__proxy__/faults", body: body)
        guard response.status == 200 else { throw TestFixtureError("fault proxy answered HTTP \(response.status)") }
    }

    /// Every Cognito call so far, in order.
    public func records() async throws -> [Record] {
        let response = try await LoopbackHTTP.send(method: "GET", url: server.baseURL + "/__proxy__/log")
        let entries = response.json["requests"] as? [[String: Any]] ?? []
        return entries.map { Record(operation: $0["target"] as? String ?? "", fault: $0["fault"] as? String ?? "") }
    }

    /// How many attempts of `operation` reached the proxy.
    public func attempts(of operation: String) async throws -> Int {
        try await records().filter { $0.operation == operation }.count
    }
}
