import AuthCrypto
import BoundedJSON

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
        IdentityProviderLogin(providerName: providerName(issuer: issuer), idToken: idToken)
    }

    /// The name an identity pool knows a token issuer by: the issuer URL without its scheme and trailing slash. A
    /// user pool's issuer `https://cognito-idp.{region}.amazonaws.com/{userPoolId}` gives the user pool's name.
    public static func providerName(issuer: String) -> String {
        var name = Substring(issuer)
        if let scheme = name.firstRange(of: "://") { name = name[scheme.upperBound...] }
        while name.hasSuffix("/") { name = name.dropLast() }
        return String(name)
    }

    var requestValue: JSONValue { .object([providerName: .secret(idToken)]) }
}
