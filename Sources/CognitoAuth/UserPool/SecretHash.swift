import AuthCrypto
import FoundationEssentials

/// SECRET_HASH for app clients with a secret: Base64(HMAC-SHA256(key: clientSecret, message: username | clientId)).
enum SecretHash {
    static func compute(username: String, clientId: String, clientSecret: SecretBytes) -> SecretBytes {
        let code = HMACSHA256.authenticationCode(for: Array((username + clientId).utf8), key: clientSecret)
        return SecretBytes(utf8: Data(code).base64EncodedString())
    }
}
