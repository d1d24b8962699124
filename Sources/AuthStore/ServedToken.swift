import AuthCrypto
import TokenVault

/// A valid token as the store hands it out, with its expiry and its user, read from the record that holds it.
/// `description` never shows the token (`SecretBytes` redacts itself).
public struct ServedToken: Sendable {
    public let token: SecretBytes
    /// The token's `exp` (the vault's record when the token is opaque), Unix seconds by the identity provider's
    /// clock: `AuthStore.clock` turns it into this machine's time.
    public let expiresAt: Double?
    /// Cognito's user name (a machine profile's: its app client), for protocols that pair one with the token.
    public let username: String?

    /// - Parameter expiresAt: the token's, as `CredentialRecord.lifetime(of:)` reads it.
    /// - Precondition: `record` holds a token of `kind` (the store serves only such a record).
    init(_ record: CredentialRecord, _ kind: TokenKind, expiresAt: Double?) {
        token = (kind == .access ? record.accessToken : record.idToken)!
        self.expiresAt = expiresAt
        username = record.identity?.username
    }
}
