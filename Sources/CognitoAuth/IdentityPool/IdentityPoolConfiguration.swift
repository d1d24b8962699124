import NetworkHosts

/// Which identity pool an `IdentityPoolClient` asks, for which role, and how patiently. A plain value.
public struct IdentityPoolConfiguration: Sendable {
    public var poolID: IdentityPoolID
    /// The Cognito Identity endpoint; overridable for emulators and VPC endpoints.
    public var endpoint: String
    /// One of the pool's roles to ask for (`CustomRoleArn`), when the pool's rules allow a choice; nil: its default.
    public var roleARN: String?
    /// The overall deadline of one operation, retries and back-off included.
    public var operationDeadline: Duration
    public var retryPolicy: RetryPolicy

    /// - Parameter endpoint: nil for `https://cognito-identity.{region}.amazonaws.com/`, the region from the id.
    public init(
        poolID: IdentityPoolID,
        endpoint: String? = nil,
        roleARN: String? = nil,
        operationDeadline: Duration = .seconds(20),
        retryPolicy: RetryPolicy = RetryPolicy()
    ) {
        self.poolID = poolID
        self.endpoint = endpoint ?? "https://cognito-identity.\(poolID.region).amazonaws.com/"
        self.roleARN = roleARN
        self.operationDeadline = operationDeadline
        self.retryPolicy = retryPolicy
    }

    func validated() throws(CognitoError) -> IdentityPoolConfiguration {
        guard ServiceURL.isPermitted(endpoint) else {
            throw .invalidConfiguration("the identity endpoint \(endpoint): \(ServiceURL.rule)")
        }
        if let roleARN, !roleARN.hasPrefix("arn:") || !roleARN.contains(":role/") {
            throw .invalidConfiguration(
                "the role '\(roleARN.prefix(120))' is not a role ARN (arn:aws:iam::ACCOUNT:role/NAME)")
        }
        guard operationDeadline > .zero else { throw .invalidConfiguration("the operation deadline must be positive") }
        return self
    }
}
