import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Plain HTTP calls from test support to its own loopback peers (control endpoints, emulator admin APIs),
/// independent of the transport under test.
public enum LoopbackHTTP {
    public struct Response: Sendable {
        public let status: Int
        public let headers: [String: String]
        public let body: Data

        /// The JSON object in the body (empty when the body is not one).
        public var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
        }
    }

    public static func send(method: String = "POST", url: String, headers: [String: String] = [:], body: Data = Data())
        async throws -> Response
    {
        var request = URLRequest(url: URL(string: url)!, timeoutInterval: 30)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if !body.isEmpty { request.httpBody = body }
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw TestFixtureError("no HTTP response from \(url)") }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            fields[String(describing: name).lowercased()] = String(describing: value)
        }
        return Response(status: http.statusCode, headers: fields, body: data)
    }
}
