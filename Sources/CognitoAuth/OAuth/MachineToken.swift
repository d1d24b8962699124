import AuthCrypto

/// An access token the app client got for itself (the client-credentials grant): no user, no ID token, no refresh
/// token. Verified when it is a JWT; an opaque one lasts `expires_in`. Printing shows whose and until when.
public struct MachineToken: Sendable, CustomStringConvertible {
    public let accessToken: SecretBytes
    /// Unix seconds: the token's `exp`, or the time of the answer plus `expires_in`.
    public let expiresAt: Double
    /// Unix seconds: the token's `iat`, or the time of the answer.
    public let issuedAt: Double
    /// The app client the token was issued to.
    public let clientId: String
    /// The scopes granted (those asked for when the answer does not say).
    public let scopes: [String]

    public init(accessToken: SecretBytes, expiresAt: Double, issuedAt: Double, clientId: String, scopes: [String]) {
        self.accessToken = accessToken
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
        self.clientId = clientId
        self.scopes = scopes
    }

    public var description: String {
        "MachineToken(client \(clientId), scopes \(scopes.joined(separator: " ")), until \(Int64(expiresAt)), <redacted>)"
    }
}
