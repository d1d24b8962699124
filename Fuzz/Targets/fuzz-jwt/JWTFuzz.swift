import FuzzSupport
import TokenVerification

/// The JWT decoder: three base64url parts, a JSON header and claims, and the typed claim accessors.
@main enum JWTFuzz: FuzzTarget {
    static func test(_ input: [UInt8]) {
        guard let jwt = try? JWT(compact: String(decoding: input, as: UTF8.self)) else { return }
        _ = (
            jwt.claims.issuer, jwt.claims.subject, jwt.claims.audience, jwt.claims.expiresAt, jwt.claims.username,
            jwt.claims.email, jwt.claims.identities
        )
    }
}
