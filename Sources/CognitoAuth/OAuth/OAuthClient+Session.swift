import AuthCrypto
import BoundedJSON
import FoundationEssentials
import HTTPTransport
import NetworkHosts
import TokenVerification

extension OAuthClient {
    /// Revokes a refresh token (RFC 7009), and with it, at Cognito, the access tokens issued from it. The server
    /// answers 200 for a token it does not know, too.
    public func revoke(refreshToken: SecretBytes) async throws(OAuthError) {
        guard let endpoint = configuration.endpoints.revocation else {
            throw .invalidConfiguration("the authorization server has no revocation endpoint")
        }
        _ = try await postForm(
            .revocation, to: endpoint,
            [
                ("token", refreshToken.utf8String),
                ("token_type_hint", "refresh_token"),
            ], secrets: [refreshToken.utf8String])
    }

    /// What the userinfo endpoint says about the access token's user.
    /// - Parameter expectedSubject: the ID token's `sub`; a different `sub` means the answer is not for this user
    ///   and must not be used (OpenID Connect Core section 5.3.2).
    public func userInfo(accessToken: SecretBytes, expectedSubject: String? = nil) async throws(OAuthError)
        -> OAuthUserInfo
    {
        guard let endpoint = configuration.endpoints.userInfo else {
            throw .invalidConfiguration("the authorization server has no userinfo endpoint")
        }
        let request = HTTPRequest(
            method: "GET", url: endpoint,
            headers: [
                HTTPHeader(name: "Authorization", value: "Bearer " + accessToken.utf8String),
                HTTPHeader(name: "Accept", value: "application/json"),
            ])
        let response = try await sender.send(request, .userInfo)
        guard let claims = JSONValue.parse(response.body)?.dictionary else {
            throw .invalidResponse(operation: OAuthOperation.userInfo.rawValue, reason: "the body is not a JSON object")
        }
        let info = OAuthUserInfo(claims: claims)
        guard !info.subject.isEmpty else {
            throw .invalidResponse(operation: OAuthOperation.userInfo.rawValue, reason: "the answer has no sub")
        }
        if let expectedSubject, info.subject != expectedSubject {
            throw .invalidResponse(
                operation: OAuthOperation.userInfo.rawValue, reason: "the answer is about another user")
        }
        return info
    }

    /// Where to send the browser so the authorization server forgets its session (Cognito's Hosted UI cookie
    /// goes only this way; revoking tokens leaves it).
    /// - Parameters:
    ///   - postLogoutRedirectURI: where the browser lands afterwards: Cognito's `logout_uri` (one of the app
    ///     client's sign-out URLs, required there) or OpenID Connect's `post_logout_redirect_uri`.
    ///
    /// Never with OpenID Connect's optional `id_token_hint`: the URL goes on a browser's command line, which other
    /// local users can read, and may be printed. `client_id` names the client instead (RP-Initiated Logout 1.0,
    /// section 2); the provider may then ask the user to confirm.
    public func logoutURL(postLogoutRedirectURI: String?) throws(OAuthError) -> String {
        guard let endpoint = configuration.endpoints.logout else {
            throw .invalidConfiguration("the authorization server has no logout endpoint")
        }
        var parameters: [(name: String, value: String)] = [("client_id", configuration.clientId)]
        switch configuration.endpoints.logoutStyle {
        case .cognito:
            guard let postLogoutRedirectURI else {
                throw .invalidConfiguration(
                    "Cognito's logout needs a sign-out URL registered with the app client (logout_uri)")
            }
            parameters.append(("logout_uri", postLogoutRedirectURI))
        case .openIDConnect:
            if let postLogoutRedirectURI { parameters.append(("post_logout_redirect_uri", postLogoutRedirectURI)) }
        }
        return endpoint + (endpoint.contains("?") ? "&" : "?") + FormURLEncoding.encode(parameters)
    }
}
