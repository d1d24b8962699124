internal import AuthCrypto

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
        guard let parameters = QueryParameters(query) else { return .badRequest(.malformedQuery) }
        // RFC 6749 section 3.1: a parameter sent more than once makes the request invalid.
        let states = parameters.values(named: "state"), codes = parameters.values(named: "code")
        let errors = parameters.values(named: "error"), descriptions = parameters.values(named: "error_description")
        guard states.count == 1, codes.count <= 1, errors.count <= 1, descriptions.count <= 1 else {
            return states.isEmpty ? .badRequest(.stateMismatch) : .badRequest(.malformedQuery)
        }
        guard ConstantTime.equals(states[0], expectedState) else { return .badRequest(.stateMismatch) }
        if let error = errors.first {
            return .denied(error: Self.printable(error, limit: 64), description: descriptions.first.map { Self.printable($0, limit: 400) })
        }
        guard let code = codes.first, !code.isEmpty else { return .badRequest(.missingCode) }
        return .authorized(code: code)
    }

    /// Text from the redirect, made safe to show on a terminal: control characters (escape sequences) become
    /// spaces, and the length is bounded.
    private static func printable(_ text: String, limit: Int) -> String {
        let scalars = text.unicodeScalars.prefix(limit).map { $0.properties.generalCategory == .control ? " " : $0 }
        return String(String.UnicodeScalarView(scalars))
    }
}
