/// The user pool (or, for another OpenID provider, its issuer) and app client a profile signs in to. Backends keep
/// it with the profile's record and match it on load, so a profile reconfigured for another pool or client never
/// picks up the tokens and client secret of the old one.
public struct ProfileBinding: Sendable, Equatable, Codable {
    public var userPoolId: String
    public var clientId: String

    public init(userPoolId: String, clientId: String) {
        self.userPoolId = userPoolId
        self.clientId = clientId
    }
}
