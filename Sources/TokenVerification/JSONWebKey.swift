import AuthCrypto
import FoundationEssentials

/// One signing key of a JWKS with the one algorithm it verifies. The algorithm comes from the key's type (`kty`
/// RSA: RS256; `kty` EC on `crv` P-256: ES256), never from a token's header: a header may only agree with it.
public enum JSONWebKey: Sendable {
    case rs256(RSAPublicKey)
    case es256(P256PublicKey)

    /// The JWS `alg` this key verifies.
    public var algorithm: String {
        switch self {
        case .rs256: "RS256"
        case .es256: "ES256"
        }
    }

    public static let supportedAlgorithms: Set<String> = ["RS256", "ES256"]

    public func isValidSignature(_ signature: some DataProtocol, for message: some DataProtocol) -> Bool {
        switch self {
        case .rs256(let key): key.isValidSignature(signature, for: message)
        case .es256(let key): key.isValidSignature(signature, for: message)
        }
    }
}
