import AuthCrypto
import BoundedJSON

extension CognitoClient {
    /// New ID and access tokens for a refresh token. Without rotation (REFRESH_TOKEN_AUTH) the refresh token
    /// is kept; with rotation (GetTokensFromRefreshToken) the new one comes back and the old one is dead, so
    /// the caller must persist the result before anything else.
    ///
    /// NotAuthorizedException here means the session is over: it comes back as `.refreshTokenRejected`.
    /// - Parameter username: the internal user name (`identity.username`), for SECRET_HASH.
    public func refresh(refreshToken: SecretBytes, username: String) async throws(CognitoError) -> CognitoTokens {
        do {
            if configuration.rotatesRefreshTokens {
                var body: [String: JSONValue] = [
                    "ClientId": .string(configuration.clientId), "RefreshToken": .secret(refreshToken),
                ]
                body["ClientSecret"] = clientSecretValue
                let response: AuthResponse = try await api.call(.getTokensFromRefreshToken, body)
                return try await tokens(from: response, keeping: refreshToken, operation: .getTokensFromRefreshToken)
            }
            var parameters: [String: JSONValue] = ["REFRESH_TOKEN": .secret(refreshToken)]
            parameters["SECRET_HASH"] = secretHash(username: username)
            let response = try await initiateAuth(flow: "REFRESH_TOKEN_AUTH", parameters)
            return try await tokens(from: response, keeping: refreshToken, operation: .initiateAuth)
        } catch {
            if case .notAuthorized(let message) = error { throw .refreshTokenRejected(message: message) }
            throw error
        }
    }

    private func tokens(
        from response: AuthResponse, keeping refreshToken: SecretBytes, operation: CognitoOperation
    ) async throws(CognitoError) -> CognitoTokens {
        guard let result = response.authenticationResult else {
            throw .invalidResponse(operation: operation.rawValue, reason: "a refresh answered without tokens")
        }
        return try await verifiedTokens(result, keeping: refreshToken, operation: operation)
    }
}
