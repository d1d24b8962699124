import AuthCrypto
import NetworkHosts

/// Which user pool and app client a `CognitoClient` talks to, and how patiently. A plain value: the caller reads
/// it from wherever it keeps settings (nothing here reads the environment).
public struct CognitoConfiguration: Sendable {
    /// `us-east-1`, ...
    public var region: String
    /// `{region}_{poolName}`, as the console shows it.
    public var userPoolId: String
    public var clientId: String
    /// The app client's secret, for clients created with one (`SECRET_HASH`, `ClientSecret`).
    public var clientSecret: SecretBytes?
    /// The user-pool API endpoint; overridable for emulators and VPC endpoints.
    public var endpoint: String
    /// The app client rotates refresh tokens: refresh with GetTokensFromRefreshToken and keep the new token.
    public var rotatesRefreshTokens: Bool
    /// How long a challenge's `Session` lives (the app client's AuthSessionValidity: 3 to 15 minutes).
    public var challengeSessionLifetime: Duration
    /// The overall deadline of one operation, retries and back-off included.
    public var operationDeadline: Duration
    public var retryPolicy: RetryPolicy

    /// - Parameter endpoint: nil for `https://cognito-idp.{region}.amazonaws.com/`.
    public init(
        region: String,
        userPoolId: String,
        clientId: String,
        clientSecret: SecretBytes? = nil,
        endpoint: String? = nil,
        rotatesRefreshTokens: Bool = false,
        challengeSessionLifetime: Duration = .seconds(180),
        operationDeadline: Duration = .seconds(20),
        retryPolicy: RetryPolicy = RetryPolicy()
    ) {
        self.region = region
        self.userPoolId = userPoolId
        self.clientId = clientId
        self.clientSecret = clientSecret
        self.endpoint = endpoint ?? "https://cognito-idp.\(region).amazonaws.com/"
        self.rotatesRefreshTokens = rotatesRefreshTokens
        self.challengeSessionLifetime = challengeSessionLifetime
        self.operationDeadline = operationDeadline
        self.retryPolicy = retryPolicy
    }

    /// The part of the pool id after the underscore, which SRP hashes with the user id.
    var poolName: String? {
        guard let separator = userPoolId.firstIndex(of: "_") else { return nil }
        let name = userPoolId[userPoolId.index(after: separator)...]
        return name.isEmpty ? nil : String(name)
    }

    func validated() throws(CognitoError) -> CognitoConfiguration {
        guard poolName != nil, !userPoolId.hasPrefix("_") else {
            throw .invalidConfiguration("the user pool id '\(userPoolId)' is not of the form region_name")
        }
        guard !clientId.isEmpty else { throw .invalidConfiguration("the app client id is empty") }
        guard ServiceURL.isPermitted(endpoint) else {
            throw .invalidConfiguration("the endpoint \(endpoint): \(ServiceURL.rule)")
        }
        guard operationDeadline > .zero else { throw .invalidConfiguration("the operation deadline must be positive") }
        return self
    }
}
