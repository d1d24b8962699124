import FuzzSupport
import TokenVerification

/// The JWKS parser: the key set document and each RSA key's modulus and exponent.
@main enum JWKSFuzz: FuzzTarget {
    static func test(_ input: [UInt8]) {
        _ = try? JSONWebKeySet(json: input)
    }
}
