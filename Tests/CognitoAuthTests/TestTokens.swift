import Foundation
import TestSupport

/// ID and access tokens as Cognito issues them, minted with an RSA key made by the openssl CLI.
enum TestTokens {
    static let key = try! RSATestKey(kid: "test-key")
    static var jwks: Data { try! jwksDocument([key]) }

    static func issuer(poolId: String) -> String { "https://cognito-idp.us-east-1.amazonaws.com/\(poolId)" }

    static func idToken(poolId: String, clientId: String, username: String, subject: String, email: String? = nil)
        throws -> String
    {
        var claims = common(poolId: poolId, subject: subject)
        claims["aud"] = clientId
        claims["token_use"] = "id"
        claims["cognito:username"] = username
        claims["email"] = email
        return try key.mintJWT(claims: claims)
    }

    static func accessToken(poolId: String, clientId: String, username: String, subject: String) throws -> String {
        var claims = common(poolId: poolId, subject: subject)
        claims["client_id"] = clientId
        claims["token_use"] = "access"
        claims["username"] = username
        return try key.mintJWT(claims: claims)
    }

    private static func common(poolId: String, subject: String) -> [String: Any] {
        let now = Int(Date().timeIntervalSince1970)
        return ["iss": issuer(poolId: poolId), "sub": subject, "iat": now, "exp": now + 3600, "jti": UUID().uuidString]
    }
}
