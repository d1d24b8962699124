import AuthCrypto
import CognitoAuth
import HTTPTransport
import TokenVerification

/// The fixed peers of the client-side targets: one user pool, its issuer, a JWKS with one public key (made for
/// these targets; no private key exists anywhere), and clients that never retry or wait.
public enum FuzzFixtures {
    public static let issuer = "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Fuzz"
    public static let clientId = "fuzzclient"
    static let jwksPath = "/.well-known/jwks.json"
    static let jwks =
        #"{"keys":[{"kty":"RSA","kid":"fuzz-key","alg":"RS256","use":"sig","e":"AQAB","n":"1ws4LIoHu7-OQXCdWlaWATpxusDGPZHs5RlndTdhnTL9btIVgvkAnccNvODglABVgL7P0jaG_R3bqQL1nmJRdlpveDQGWun7USEvTjS5HMZ_k2Lb6k8-ePkBsRDKbWpGzRBr3yja8rgMy90dgXKCLztKHZpKbRp3sJnAqjuA51AlwyU0VvjRolpp1_3FFth8cFrH02qrPbP5jQhsWpTx0Tt-yxF76ghgI1sv5OdCMCWS0H5edw4L5zB0kOJRlxNyZnCowUkouNKbBp0FoHPYOKbilovN8VgpdIPJO3cLA8FAdPa6yuEXWbe14c66YJhPyQmZl5Zdpf7oE03EauhhgQ"}]}"#

    public static func verifier(_ transport: any HTTPTransport) -> TokenVerifier {
        TokenVerifier(issuer: issuer, clientId: clientId, keys: JWKSCache(url: issuer + jwksPath, transport: transport))
    }

    /// One attempt, no back-off: a retried answer is the same input again.
    public static let retryPolicy = RetryPolicy(maximumAttempts: 1, initialBackoff: .zero, maximumBackoff: .zero)
}
