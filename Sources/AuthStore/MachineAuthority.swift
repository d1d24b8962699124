import CognitoAuth

/// What the store asks of the token endpoint for a machine profile: a new access token for the app client itself
/// (the OAuth client-credentials grant). The application's routes to `ClientCredentialsClient`, its `OAuthError`s
/// mapped with `CognitoError.init(_:)`; tests inject their own. Retryable errors keep a cached token in use while
/// it lasts; the others (a rejected secret or scope) are refusals.
public protocol MachineAuthority: Sendable {
    func machineToken() async throws(CognitoError) -> MachineToken
}
