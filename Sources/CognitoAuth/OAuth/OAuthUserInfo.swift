import BoundedJSON

/// The userinfo endpoint's claims about the signed-in user (OpenID Connect Core section 5.3.2).
public struct OAuthUserInfo: Sendable, Equatable, CustomStringConvertible {
    public let claims: [String: JSONValue]
    public var subject: String { claims["sub"]?.string ?? "" }
    public var email: String? { claims["email"]?.string }
    /// Cognito's `username` claim.
    public var username: String? { claims["username"]?.string }

    public var description: String { "OAuthUserInfo(sub \(subject), \(claims.count) claims)" }
}
