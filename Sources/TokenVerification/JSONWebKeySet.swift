import AuthCrypto
import FoundationEssentials

/// The JWKS document: the issuer's public signing keys by `kid`. Only RSA keys are kept.
public struct JSONWebKeySet: Sendable {
    public let keys: [String: RSAPublicKey]

    public init(json: some DataProtocol) throws(TokenError) {
        let document: KeySetDocument
        do {
            document = try JSONDecoder().decode(KeySetDocument.self, from: Data(json))
        } catch {
            throw .keySetUnavailable("the key set is not a JWKS document")
        }
        var keys: [String: RSAPublicKey] = [:]
        for key in document.keys where key.kty == "RSA" && (key.use ?? "sig") == "sig" && (key.alg ?? "RS256") == "RS256" {
            guard let kid = key.kid, let n = key.n.flatMap(Base64URL.decode), let e = key.e.flatMap(Base64URL.decode),
                  let publicKey = try? RSAPublicKey(modulus: n, exponent: e) else { continue }
            keys[kid] = publicKey
        }
        self.keys = keys
    }
}

private struct KeySetDocument: Decodable {
    struct Key: Decodable {
        let kty: String
        let kid: String?
        let n: String?
        let e: String?
        let use: String?
        let alg: String?
    }
    let keys: [Key]
}
