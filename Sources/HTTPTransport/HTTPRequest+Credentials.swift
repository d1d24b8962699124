import FoundationEssentials

extension HTTPRequest {
    /// The credentials the request's `Authorization` and `Proxy-Authorization` headers carry, in each form a server
    /// may echo back in an error: the whole value, what follows the scheme (a bearer token, Basic's base64) and
    /// Basic's decoded `id:secret`. Whoever turns a response into an error redacts these, whatever the scheme.
    public var credentials: [String] {
        headers.filter { ["authorization", "proxy-authorization"].contains($0.name.lowercased()) }.flatMap { header in
            let parts = header.value.split(separator: " ", maxSplits: 1)
            guard parts.count == 2 else { return [header.value] }
            let credential = String(parts[1].drop { $0 == " " })
            let decoded = parts[0].lowercased() == "basic"
                ? Data(base64Encoded: credential).flatMap { String(bytes: $0, encoding: .utf8) } : nil
            return [header.value, credential] + (decoded.map { [$0] } ?? [])
        }
    }
}
