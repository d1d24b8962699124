/// The user-pool API operations AuthVault calls, by their `X-Amz-Target` names (JSON 1.1 protocol).
public enum CognitoOperation: String, Sendable, CaseIterable {
    case initiateAuth = "InitiateAuth"
    case respondToAuthChallenge = "RespondToAuthChallenge"
    case getTokensFromRefreshToken = "GetTokensFromRefreshToken"
    case signUp = "SignUp"
    case confirmSignUp = "ConfirmSignUp"
    case resendConfirmationCode = "ResendConfirmationCode"
    case forgotPassword = "ForgotPassword"
    case confirmForgotPassword = "ConfirmForgotPassword"
    case changePassword = "ChangePassword"
    case getUser = "GetUser"
    case associateSoftwareToken = "AssociateSoftwareToken"
    case verifySoftwareToken = "VerifySoftwareToken"
    case setUserMFAPreference = "SetUserMFAPreference"
    case globalSignOut = "GlobalSignOut"
    case revokeToken = "RevokeToken"
    case confirmDevice = "ConfirmDevice"
    case updateDeviceStatus = "UpdateDeviceStatus"
    case listDevices = "ListDevices"
    case forgetDevice = "ForgetDevice"

    /// The `X-Amz-Target` header value.
    public var target: String { "AWSCognitoIdentityProviderService.\(rawValue)" }
}
