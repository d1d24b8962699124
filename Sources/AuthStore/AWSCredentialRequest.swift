import CognitoAuth
import TokenVault

/// Where a profile's AWS credentials come from: its identity pool (`IdentityPoolClient`), or a fake in tests.
public protocol IdentityPoolAuthority: Sendable {
    /// The pool and role every credential from here is issued for: a cached set is served only for the same.
    var scope: AWSCredentialScope { get }
    func identityId(login: IdentityProviderLogin?) async throws(CognitoError) -> String
    func credentials(identityId: String, login: IdentityProviderLogin?) async throws(CognitoError) -> AWSCredentials
}

extension IdentityPoolClient: IdentityPoolAuthority {
    public var scope: AWSCredentialScope {
        AWSCredentialScope(identityPoolId: configuration.poolID.rawValue, roleARN: configuration.roleARN)
    }
}

/// What `AuthStore.validAWSCredentials` is asked for: which pool, as whom, and how long the answer must last.
public struct AWSCredentialRequest: Sendable {
    public var pool: any IdentityPoolAuthority
    /// The `Logins` key the profile's ID tokens go under (`IdentityProviderLogin`'s names); nil for a guest, who
    /// needs no session.
    public var providerName: String?
    /// Seconds the credentials handed out must still last. botocore calls a `credential_process` again once less
    /// than 15 minutes are left, so anything shorter would make every AWS call start AuthVault again.
    public var minimumValidity: Double

    /// botocore's 15 minutes and one more.
    public static let defaultMinimumValidity: Double = 15 * 60 + 60

    public init(
        pool: any IdentityPoolAuthority, providerName: String?, minimumValidity: Double = defaultMinimumValidity
    ) {
        self.pool = pool
        self.providerName = providerName
        self.minimumValidity = minimumValidity
    }
}
