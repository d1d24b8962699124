import AuthCrypto
import FoundationEssentials
import TokenVerification

extension OAuthClient {
    /// Redeems the code of `request`'s callback: sends the PKCE verifier and the same redirect URI, then verifies
    /// the ID token (signature, claims and this sign-in's `nonce`) and a Cognito access token. Nothing is
    /// returned unless every check passed.
    public func exchange(_ code: OAuthAuthorizationCode, for request: OAuthAuthorizationRequest)
        async throws(OAuthError) -> OAuthTokens
    {
        let codeVerifier = request.pkce.verifier.utf8String
        let response = try await postForm(
            .codeExchange, to: configuration.endpoints.token,
            [
                ("grant_type", "authorization_code"),
                ("code", code.code.utf8String),
                ("redirect_uri", request.redirectURI),
                ("code_verifier", codeVerifier),
            ], secrets: [code.code.utf8String, codeVerifier])
        let answer = try OAuthTokenResponse.decoded(from: response.body, .codeExchange)
        guard let idToken = answer.idToken else {
            throw .invalidResponse(
                operation: OAuthOperation.codeExchange.rawValue,
                reason: "the answer has no ID token (is openid among the scopes?)")
        }
        guard let refreshToken = answer.refreshToken else {
            throw .invalidResponse(
                operation: OAuthOperation.codeExchange.rawValue,
                reason: "the answer has no refresh token: allow the refresh-token grant for the app client")
        }
        let id = try await verifiedIDToken(idToken, nonce: request.nonce)
        return try await tokens(
            answer, idToken: (idToken, id), refreshToken: SecretBytes(utf8: refreshToken), rotated: false,
            expectedSubject: nil, .codeExchange)
    }

    /// New tokens for a refresh token (the `refresh_token` grant). A server that rotates refresh tokens answers
    /// with a new one and kills the old one: then `refreshTokenRotated` is true and the result must be persisted
    /// before anything else. Without a new one the old refresh token is kept.
    ///
    /// `invalid_grant` (expired, revoked, or a rotated-out token reused) means the session is over: it comes back
    /// as `.refused(.invalidGrant, ...)`, whose `requiresSignIn` is true.
    /// - Parameter previousIDToken: the ID token of the session, kept when the answer carries none, and whose
    ///   subject a new one must have (OpenID Connect Core section 12.2).
    /// - Parameter previousSubject: the session's user, for a session that never had an ID token (the device grant):
    ///   its identity is then read again from userinfo, which must name this subject.
    public func refresh(
        refreshToken: SecretBytes, previousIDToken: SecretBytes? = nil, previousSubject: String? = nil
    ) async throws(OAuthError) -> OAuthTokens {
        let response = try await postForm(
            .refresh, to: configuration.endpoints.token,
            [
                ("grant_type", "refresh_token"),
                ("refresh_token", refreshToken.utf8String),
            ], secrets: [refreshToken.utf8String])
        let answer = try OAuthTokenResponse.decoded(from: response.body, .refresh)
        let previous: JWT?
        do {
            previous = try previousIDToken.map { token throws(TokenError) in try JWT(compact: token.utf8String) }
        } catch {
            throw .invalidConfiguration("the session's ID token cannot be read: \(error)")
        }
        var idToken: (compact: String, jwt: JWT)?
        if let fresh = answer.idToken {
            idToken = (fresh, try await verifiedIDToken(fresh, nonce: nil))
            let subject = idToken?.jwt.claims.subject
            if previous.map({ $0.claims.subject != subject }) ?? false
                || previousSubject.map({ $0 != subject }) ?? false
            {
                throw .invalidResponse(
                    operation: OAuthOperation.refresh.rawValue, reason: "the new ID token is for another user")
            }
        } else if let previousIDToken, let previous {
            // Verified when it arrived; only its claims are needed here.
            idToken = (previousIDToken.utf8String, previous)
        } else if previousSubject == nil {
            throw .invalidResponse(
                operation: OAuthOperation.refresh.rawValue,
                reason: "the answer has no ID token and no previous one was given")
        }
        let newRefreshToken = answer.refreshToken.map(SecretBytes.init(utf8:))
        let rotated = newRefreshToken.map { $0 != refreshToken } ?? false
        return try await tokens(
            answer, idToken: idToken, refreshToken: newRefreshToken ?? refreshToken, rotated: rotated,
            expectedSubject: previousSubject, .refresh)
    }

    func verifiedIDToken(_ token: String, nonce: String?) async throws(OAuthError) -> JWT {
        do {
            return try await verifier.verifyIDToken(token, nonce: nonce)
        } catch {
            throw .tokenRejected(error)
        }
    }

    /// Verifies the access token when the verifier reads access tokens (Cognito's) and it is a JWS (three
    /// dot-separated parts); any other is opaque, the server's business, and expires after `expires_in`.
    /// Without an ID token (the device grant, where it is optional) the user is who userinfo says the access token
    /// belongs to.
    /// - Parameter expectedSubject: the session's user, whom userinfo must name.
    func tokens(
        _ answer: OAuthTokenResponse, idToken: (compact: String, jwt: JWT)?, refreshToken: SecretBytes, rotated: Bool,
        expectedSubject: String?, _ operation: OAuthOperation
    ) async throws(OAuthError) -> OAuthTokens {
        let identity: VerifiedIdentity
        let idExpiry: Double?
        if let id = idToken?.jwt {
            guard let subject = id.claims.subject, let expiry = id.claims.expiresAt else {
                throw .invalidResponse(operation: operation.rawValue, reason: "the ID token has no sub or exp")
            }
            identity = VerifiedIdentity(
                username: id.claims.username ?? id.claims["preferred_username"]?.string ?? subject,
                subject: subject, email: id.claims.email)
            idExpiry = expiry
        } else {
            identity = try await userInfoIdentity(
                SecretBytes(utf8: answer.accessToken), expectedSubject: expectedSubject, operation)
            idExpiry = nil
        }
        let subject = identity.subject
        var access: JWT?
        if verifier.verifiesAccessTokens,
            answer.accessToken.split(separator: ".", omittingEmptySubsequences: false).count == 3
        {
            do {
                access = try await verifier.verifyAccessToken(answer.accessToken)
            } catch {
                throw .tokenRejected(error)
            }
            if let accessSubject = access?.claims.subject, accessSubject != subject {
                throw .invalidResponse(
                    operation: operation.rawValue, reason: "the ID and access tokens do not name the same user")
            }
        }
        guard let accessExpiry = access?.claims.expiresAt ?? answer.expiresIn.map({ now() + $0 }) ?? idExpiry else {
            throw .invalidResponse(operation: operation.rawValue, reason: "the answer says neither exp nor expires_in")
        }
        let claims = idToken?.jwt.claims
        let username =
            claims?.username ?? access?.claims.username ?? claims?["preferred_username"]?.string ?? identity.username
        let tokens = CognitoTokens(
            idToken: idToken.map { SecretBytes(utf8: $0.compact) }, accessToken: SecretBytes(utf8: answer.accessToken),
            refreshToken: refreshToken, idTokenExpiresAt: idExpiry, accessTokenExpiresAt: accessExpiry,
            identity: VerifiedIdentity(username: username, subject: subject, email: identity.email))
        return OAuthTokens(tokens: tokens, identities: claims?.identities ?? [], refreshTokenRotated: rotated)
    }

    /// Who the access token's user is, by userinfo: for tokens that came without an ID token.
    private func userInfoIdentity(
        _ accessToken: SecretBytes, expectedSubject: String?, _ operation: OAuthOperation
    ) async throws(OAuthError) -> VerifiedIdentity {
        guard configuration.endpoints.userInfo != nil else {
            throw .invalidResponse(
                operation: operation.rawValue,
                reason: "the answer has no ID token and the provider has no userinfo endpoint to say who signed in")
        }
        let info = try await userInfo(accessToken: accessToken, expectedSubject: expectedSubject)
        return VerifiedIdentity(
            username: info.claims["preferred_username"]?.string ?? info.username ?? info.subject,
            subject: info.subject, email: info.email)
    }
}
