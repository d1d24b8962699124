import Foundation

/// An unsigned JWT with the claims the store and the agent read (`iat`, `exp`): both only decode cached tokens.
/// `marker` (its `jti`) tells one from another.
public func fakeJWT(issuedAt: Double, expiresAt: Double, marker: String) -> String {
    func part(_ object: [String: Any]) -> String {
        Base64URLText.encode(Array(try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])))
    }
    return part(["alg": "RS256", "kid": "test"]) + "." + part(["iat": issuedAt, "exp": expiresAt, "jti": marker])
        + ".c2ln"
}
