internal import AuthCrypto

/// The endpoint's router: judges path, method and token; hands the authorized requests on.
final class EndpointRouter: RequestRouter {
    private let path: String
    private let token: String
    private let requests: AsyncStream<EndpointRequest>.Continuation

    init(path: String, token: String, requests: AsyncStream<EndpointRequest>.Continuation) {
        self.path = path
        self.token = token
        self.requests = requests
    }

    func route(_ request: RequestHead, on descriptor: Int32) -> Route {
        guard request.line.target.prefix(while: { $0 != "?" }) == path else {
            return .respond(.notFound, Self.message("Not found."))
        }
        guard request.line.method == "GET" else { return .respond(.methodNotAllowed, Self.message("GET only.")) }
        guard let authorization = request.authorization else {
            return .respond(.unauthorized, Self.message("The Authorization header is missing."))
        }
        guard ConstantTime.equals(authorization, token) else {
            return .respond(.forbidden, Self.message("The Authorization header is wrong."))
        }
        // Answered by whoever takes it; if nobody does (the stream has ended), its release sends 503.
        requests.yield(EndpointRequest(connection: HeldConnection(descriptor)))
        return .takenOver
    }

    func servingEnded() {
        requests.finish()
    }

    static func message(_ text: String) -> HTTPResponse.Body {
        .json(Array("{\"message\":\"\(text)\"}".utf8))
    }
}
