import Foundation
import HTTPTransport
import Testing

/// Every transport test, one at a time: several measure time, so they must not compete for the two cores.
@Suite(.serialized) struct HTTPTransportTests {}

/// What the test server's `/echo` saw, decoded from its JSON.
struct Echo: Decodable {
    let method: String
    let path: String
    let headers: [[String]]
    private let body: String

    var bodyBytes: [UInt8] { Data(base64Encoded: body).map { [UInt8]($0) } ?? [] }

    func header(_ name: String) -> String? {
        headers.first { $0[0].lowercased() == name.lowercased() }?[1]
    }

    init(_ response: HTTPResponse) throws {
        self = try JSONDecoder().decode(Echo.self, from: Data(response.body))
    }
}

/// The error a send threw, or nil when it succeeded.
func sendError(_ transport: some HTTPTransport, _ request: HTTPRequest) async -> HTTPError? {
    do {
        _ = try await transport.send(request)
        return nil
    } catch {
        return error
    }
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
