internal import AuthCrypto
import NetworkHosts

/// Judges one request against the registered callback path and the expected `state`.
package struct CallbackMatcher: Sendable {
    let path: String
    let expectedState: String

    package init(path: String, expectedState: String) {
        self.path = path
        self.expectedState = expectedState
    }

    package enum Verdict: Equatable {
        /// The redirect of this sign-in, carrying the code.
        case authorized(code: String)
        /// The redirect of this sign-in, carrying `error=`.
        case denied(error: String, description: String?)
        /// Anything on another path: a favicon, a probe.
        case notFound
        case badRequest(BadRequest)
    }

    package enum BadRequest: Equatable {
        case malformedRequest, notGET, malformedQuery, stateMismatch, missingCode
    }

    package func judge(_ request: RequestLine) -> Verdict {
        let requestPath = request.target.prefix { $0 != "?" }
        guard requestPath == path else { return .notFound }
        guard request.method == "GET" else { return .badRequest(.notGET) }
        let query = request.target.dropFirst(requestPath.count + 1)
        guard let parameters = try? AuthorizationResponseQuery(query) else { return .badRequest(.malformedQuery) }
        guard let state = parameters.state, ConstantTime.equals(state, expectedState) else {
            return .badRequest(.stateMismatch)
        }
        if let error = parameters.error {
            return .denied(
                error: ServerText.escaped(error, limit: 64),
                description: parameters.errorDescription.map { ServerText.escaped($0, limit: 400) })
        }
        guard let code = parameters.code, !code.isEmpty else { return .badRequest(.missingCode) }
        return .authorized(code: code)
    }
}
