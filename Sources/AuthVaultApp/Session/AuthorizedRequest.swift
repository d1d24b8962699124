import AuthStore
import HTTPTransport

extension ProfileSession {
    /// Sends `request` to an API with the profile's token as `Authorization: Bearer`, refreshed first when it is
    /// due. An API that answers 401 had a token it no longer takes (revoked, or expired early): the session is
    /// refreshed and the request sent once more, and that answer is final, whatever its status. The transport
    /// refuses plain http except to a loopback address, so the token never crosses a network in clear.
    /// - Parameter token: which token the API takes (an ID token for an API Gateway Cognito authorizer, say).
    public func authorizedRequest(_ request: HTTPRequest, token: TokenKind = .access) async throws(ApplicationError)
        -> HTTPResponse
    {
        let transport = authority.apiTransport()
        let first = try await send(request, with: try await bearer(token), on: transport)
        guard first.status == 401 else { return first }
        do { _ = try await store.refreshNow() } catch { throw ApplicationError(error, need: signInNeed) }
        return try await send(request, with: try await bearer(token), on: transport)
    }

    private func bearer(_ kind: TokenKind) async throws(ApplicationError) -> String {
        do {
            return try await store.validToken(kind).token.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        } catch { throw ApplicationError(error, need: signInNeed) }
    }

    private func send(_ request: HTTPRequest, with token: String, on transport: any HTTPTransport)
        async throws(ApplicationError) -> HTTPResponse
    {
        var authorized = request
        authorized.headers.removeAll { $0.name.lowercased() == "authorization" }
        authorized.headers.append(HTTPHeader(name: "Authorization", value: "Bearer \(token)"))
        do { return try await transport.send(authorized) } catch { throw .apiRequest(ApplicationError(error)) }
    }
}
