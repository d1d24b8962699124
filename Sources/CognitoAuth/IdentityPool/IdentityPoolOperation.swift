/// The identity-pool operations AuthVault calls (the enhanced flow), by their `X-Amz-Target` names. Both are
/// unsigned: the user's ID token in `Logins` is what authorizes them.
public enum IdentityPoolOperation: String, Sendable, CaseIterable, CognitoServiceOperation {
    case getId = "GetId"
    case getCredentialsForIdentity = "GetCredentialsForIdentity"

    public var target: String { "AWSCognitoIdentityService.\(rawValue)" }
}
