import AuthCrypto
import FoundationEssentials

/// The JWKS document: the issuer's public signing keys by `kid`. Only RSA keys (RS256) and P-256 EC keys (ES256)
/// meant for signatures are kept; a key whose `alg` names another algorithm than its type's is skipped.
public struct JSONWebKeySet: Sendable {
    public let keys: [String: JSONWebKey]

    public init(json: some DataProtocol) throws(TokenError) {
        let document: KeySetDocument
        do {
            document = try JSONDecoder().decode(KeySetDocument.self, from: Data(json))
        } catch {
            throw .keySetUnavailable("the key set is not a JWKS document")
        }
        var keys: [String: JSONWebKey] = [:]
        for entry in document.keys where (entry.use ?? "sig") == "sig" {
            guard let kid = entry.kid, let key = entry.signingKey, (entry.alg ?? key.algorithm) == key.algorithm else {
                continue
            }
            keys[kid] = key
        }
        self.keys = keys
    }
}

private struct KeySetDocument: Decodable {
    struct Key: Decodable {
        let kty: String
        let kid: String?
        let use: String?
        let alg: String?
        // RSA
        let n: String?
        let e: String?
        // EC
        let crv: String?
        let x: String?
        let y: String?

        /// The public key this entry describes, when it is one the verifier can use.
        var signingKey: JSONWebKey? {
            switch kty {
            case "RSA":
                guard let n = n.flatMap(Base64URL.decode), let e = e.flatMap(Base64URL.decode),
                    let key = try? RSAPublicKey(modulus: n, exponent: e)
                else { return nil }
                return .rs256(key)
            case "EC":
                guard crv == "P-256", let x = x.flatMap(Base64URL.decode), let y = y.flatMap(Base64URL.decode),
                    let key = try? P256PublicKey(x: x, y: y)
                else { return nil }
                return .es256(key)
            default:
                return nil
            }
        }
    }
    let keys: [Key]
}
