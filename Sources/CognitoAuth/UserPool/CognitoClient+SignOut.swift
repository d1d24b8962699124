import AuthCrypto
import BoundedJSON

extension CognitoClient {
    /// Ends every session of the user: refresh tokens stop working, and so does the access token with Cognito's
    /// API (JWTs checked locally stay valid until `exp`).
    public func globalSignOut(accessToken: SecretBytes) async throws(CognitoError) {
        let _: EmptyResponse = try await api.call(.globalSignOut, ["AccessToken": .secret(accessToken)])
    }

    /// Revokes a refresh token and the access tokens issued from it.
    public func revoke(refreshToken: SecretBytes) async throws(CognitoError) {
        var body: [String: JSONValue] = ["ClientId": .string(configuration.clientId), "Token": .secret(refreshToken)]
        body["ClientSecret"] = clientSecretValue
        let _: EmptyResponse = try await api.call(.revokeToken, body)
    }
}
