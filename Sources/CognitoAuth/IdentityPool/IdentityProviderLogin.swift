import AuthCrypto

/// One entry of an identity-pool call's `Logins` map: the identity provider's name and the user's ID token from it.
public struct IdentityProviderLogin: Sendable {
    /// `cognito-idp.{region}.amazonaws.com/{userPoolId}` for a user pool; the issuer without `https://` otherwise.
    public let providerName: String
    public let idToken: SecretBytes

    public init(providerName: String, idToken: SecretBytes) {
        self.providerName = providerName
        self.idToken = idToken
    }

    /// The user pool's name for the identity pool.
    public static func userPool(region: String, userPoolId: String, idToken: SecretBytes) -> IdentityProviderLogin {
        IdentityProviderLogin(providerName: "cognito-idp.\(region).amazonaws.com/\(userPoolId)", idToken: idToken)
    }

    /// Another OpenID provider's name: its issuer URL without the scheme (and without a trailing slash).
    public static func openIDProvider(issuer: String, idToken: SecretBytes) -> IdentityProviderLogin {
        var name = Substring(issuer)
        if let scheme = name.firstRange(of: "://") { name = name[scheme.upperBound...] }
        while name.hasSuffix("/") { name = name.dropLast() }
        return IdentityProviderLogin(providerName: String(name), idToken: idToken)
    }

    var requestValue: RequestValue { .object([providerName: .secret(idToken)]) }
}
