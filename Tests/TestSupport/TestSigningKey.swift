import Foundation

/// A key pair made and used by the openssl CLI, for minting JWTs that the code under test must verify: no value a
/// test checks comes from the code under test.
public protocol TestSigningKey: Sendable {
    var kid: String { get }
    /// The JWS `alg` of its signatures.
    var algorithm: String { get }
    /// The public key as a JWK with this key's `kid`.
    func jwk() throws -> [String: String]
    /// The JWS signature of `message`, in JWS's encoding for the algorithm.
    func sign(_ message: [UInt8]) throws -> [UInt8]
}

extension TestSigningKey {
    /// A compact JWS with the given claims, signed by this key.
    public func mintJWT(claims: [String: Any], header: [String: Any]? = nil) throws -> String {
        let headerObject = header ?? ["alg": algorithm, "kid": kid, "typ": "JWT"]
        let encodedHeader = Base64URLText.encode(
            Array(try JSONSerialization.data(withJSONObject: headerObject, options: [.sortedKeys])))
        let encodedClaims = Base64URLText.encode(
            Array(try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])))
        let signingInput = "\(encodedHeader).\(encodedClaims)"
        return "\(signingInput).\(Base64URLText.encode(try sign(Array(signingInput.utf8))))"
    }
}
