/// What a set of AWS credentials was issued for: the identity pool and the role asked for (nil: the pool's
/// choice). Kept with the credentials, so that a profile re-pointed at another pool or role never serves the old
/// set.
public struct AWSCredentialScope: Sendable, Hashable {
    public var identityPoolId: String
    public var roleARN: String?

    public init(identityPoolId: String, roleARN: String?) {
        self.identityPoolId = identityPoolId
        self.roleARN = roleARN
    }
}
