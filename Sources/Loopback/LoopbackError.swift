/// Why the loopback listener delivered no authorization code. Nothing secret (the code) is ever carried here.
public enum LoopbackError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A registered redirect URI that a loopback listener cannot serve.
    case invalidRedirectURI(String, problem: RedirectURIProblem)
    /// Every registered port is taken by another program (each port listed once, in registration order).
    case allPortsBusy([Int])
    /// The ports could not be bound for another reason (permissions, no such address, no thread), by `listener`.
    case bindFailed(String, listener: Listener)
    /// No callback arrived within the overall time-out.
    case timedOut
    /// `cancel()` was called, or the waiting task was cancelled.
    case cancelled
    /// The authorization server redirected back with `error=` (and the matching state).
    case authorizationDenied(error: String, description: String?)

    /// What the listener that failed was for, which its message names.
    public enum Listener: Sendable, Equatable {
        /// `LoopbackListener`: the browser sign-in's redirect.
        case signInRedirect
        /// `LoopbackEndpoint`: a local program's requests (`exec --aws`'s credentials endpoint).
        case endpoint
    }

    public enum RedirectURIProblem: Sendable, Equatable, CustomStringConvertible {
        case noneRegistered, malformed, notHTTP, notLoopback, missingPort, hasFragment

        public var description: String {
            switch self {
            case .noneRegistered: "no redirect URI is registered for this profile"
            case .malformed: "it is not a well-formed http://host:port/path URL"
            case .notHTTP: "a loopback listener serves plain http:// only"
            case .notLoopback:
                "its host is not 127.0.0.1, [::1] or localhost, so a listener there would not be loopback-only"
            case .missingPort:
                "it names no port; register the URI with an explicit port, e.g. http://127.0.0.1:8400/callback"
            case .hasFragment: "a redirect URI must not contain a fragment (#...)"
            }
        }
    }

    public var description: String {
        switch self {
        case .invalidRedirectURI(let uri, let problem):
            return uri.isEmpty
                ? "Cannot listen for the sign-in redirect: \(problem)."
                : "Cannot listen on redirect URI \(uri): \(problem)."
        case .allPortsBusy(let ports):
            let list = ports.map(String.init).joined(separator: ", ")
            return "Every registered redirect port is in use by another program (\(list)). Close the program holding "
                + "one of them (perhaps another sign-in in progress), or register another loopback redirect URI."
        case .bindFailed(let reason, .signInRedirect):
            return "Cannot listen for the sign-in redirect: \(reason)."
        case .bindFailed(let reason, .endpoint):
            return "Cannot open the local endpoint on 127.0.0.1: \(reason)."
        case .timedOut:
            return "No sign-in response arrived from the browser in time. Run the command again to retry."
        case .cancelled:
            return "Sign-in was cancelled."
        case .authorizationDenied(let error, let detail):
            let explanation = AuthorizationErrorCode.explanation(of: error)
            guard let detail, !detail.isEmpty else { return explanation }
            return explanation + " The server said: \(detail)"
        }
    }
}

/// Words for the `error` codes of RFC 6749 section 4.1.2.1 and OpenID Connect Core section 3.1.2.6.
enum AuthorizationErrorCode {
    static func explanation(of code: String) -> String {
        let words =
            switch code {
            case "access_denied":
                "the sign-in was refused: it was cancelled in the browser, or the identity provider or the user pool turned it down"
            case "invalid_request": "the authorization request was malformed or missing a parameter"
            case "unauthorized_client": "this app client may not use the authorization-code flow"
            case "unsupported_response_type": "the server does not issue authorization codes to this client"
            case "invalid_scope": "a requested scope is not allowed for this app client"
            case "server_error": "the authorization server failed while handling the sign-in"
            case "temporarily_unavailable":
                "the authorization server is overloaded or down for maintenance; try again shortly"
            case "login_required", "interaction_required", "consent_required":
                "the server needs the user to sign in or consent interactively"
            default: "the authorization server reported an error"
            }
        return "Sign-in did not complete: \(words) (\(code))."
    }
}
