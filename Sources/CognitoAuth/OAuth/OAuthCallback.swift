import AuthCrypto
import NetworkHosts

/// An authorization code from a callback whose `state` matched: what the code exchange redeems.
public struct OAuthAuthorizationCode: Sendable, Equatable, CustomStringConvertible {
    public let code: SecretBytes

    public var description: String { "OAuthAuthorizationCode(<redacted>)" }
}

extension OAuthAuthorizationRequest {
    /// The code from this request's callback, once its `state` matched (compared in constant time).
    /// - Parameter callback: the full redirect URL (which must be this request's redirect URI), its path and query
    ///   as a loopback listener reads them from the request line (`/callback?code=...`), or just the query.
    public func authorizationCode(fromCallback callback: String) throws(OAuthCallbackError) -> OAuthAuthorizationCode {
        let parameters = try Self.parameters(of: callback.trimmingWhitespace(), redirectURI: redirectURI)
        if let error = parameters.error {
            // An error with another sign-in's state is not this sign-in's outcome.
            if let state = parameters.state, !matchesState(state) { throw .stateMismatch }
            let description = parameters.errorDescription.map { ServerText.escaped($0) }
            throw .authorizationFailed(
                OAuthErrorCode(error), description: description?.isEmpty == false ? description : nil)
        }
        guard let state = parameters.state else { throw .missingState }
        guard matchesState(state) else { throw .stateMismatch }
        guard let code = parameters.code, !code.isEmpty else { throw .missingCode }
        return OAuthAuthorizationCode(code: SecretBytes(utf8: code))
    }

    /// What a user pasted from a browser on another machine: the redirect URL it ended on (checked like a callback),
    /// or the code alone, whose `state` cannot be checked — PKCE still ties it to this request's verifier, so
    /// another sign-in's code cannot be redeemed with it.
    public func authorizationCode(pasted text: String) throws(OAuthCallbackError) -> OAuthAuthorizationCode {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { throw .missingCode }
        let isBareCode = trimmed.unicodeScalars.allSatisfy {
            $0.isASCII && (Character($0).isLetter || Character($0).isNumber || "-._~".unicodeScalars.contains($0))
        }
        guard isBareCode else { return try authorizationCode(fromCallback: String(trimmed)) }
        return OAuthAuthorizationCode(code: SecretBytes(utf8: String(trimmed)))
    }

    private func matchesState(_ candidate: String) -> Bool {
        ConstantTime.equals(candidate, state)
    }

    private static func parameters(of callback: Substring, redirectURI: String) throws(OAuthCallbackError)
        -> AuthorizationResponseQuery
    {
        let withoutFragment = callback.prefix { $0 != "#" }
        let query: Substring
        if withoutFragment.contains("://") {
            guard let url = OAuthURL(withoutFragment), let registered = OAuthURL(redirectURI),
                url.withoutQuery == registered.withoutQuery
            else {
                throw .wrongRedirectURI(expected: redirectURI)
            }
            query = Substring(url.query ?? "")
        } else if withoutFragment.hasPrefix("/") {
            let path = withoutFragment.prefix { $0 != "?" }
            guard let registered = OAuthURL(redirectURI), path == registered.path else {
                throw .wrongRedirectURI(expected: redirectURI)
            }
            query = withoutFragment[path.endIndex...].dropFirst()
        } else {
            query = withoutFragment.hasPrefix("?") ? withoutFragment.dropFirst() : withoutFragment
        }
        do throws(AuthorizationResponseQuery.Failure) {
            return try AuthorizationResponseQuery(query)
        } catch {
            switch error {
            case .brokenEscape: throw .malformed("a %-escape is broken")
            case .repeated(let name): throw .malformed("'\(ServerText.escaped(name, limit: 40))' appears twice")
            }
        }
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> Substring {
        let isSpace: (Character) -> Bool = { $0.isWhitespace }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[first...last]
    }
}
