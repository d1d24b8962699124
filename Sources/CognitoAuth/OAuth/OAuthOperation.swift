/// The calls the OAuth client makes, by the names its errors and deadlines report.
public enum OAuthOperation: String, Sendable {
    case discovery = "OIDC discovery"
    case codeExchange = "the authorization-code exchange"
    case refresh = "the refresh-token grant"
    case revocation = "token revocation"
    case userInfo = "the userinfo request"
    case clientCredentials = "the client-credentials grant"
    case deviceAuthorization = "the device authorization request"
    case deviceCode = "the device-code grant"
}
