import FuzzSupport
import TokenVerification

/// The verifier on an arbitrary token: decoding, the key by kid from a fixed JWKS, RS256 over whatever signature.
@main enum JWTVerifierFuzz: FuzzTarget {
    static let verifier = FuzzFixtures.verifier(ReplayTransport(status: 404, body: []))

    static func test(_ input: [UInt8]) {
        let token = String(decoding: input, as: UTF8.self)
        runBlocking {
            _ = try? await verifier.verifyIDToken(token, nonce: "fuzz-nonce")
            _ = try? await verifier.verifyAccessToken(token)
        }
    }
}
