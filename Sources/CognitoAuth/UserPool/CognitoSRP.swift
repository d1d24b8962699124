import AuthCrypto
import FoundationEssentials

/// Cognito's USER_SRP_AUTH arithmetic on its own, for callers that run the sign-in exchange themselves (and for
/// the benchmark that compares it with pycognito): SRP_A for InitiateAuth, then the PASSWORD_CLAIM_SIGNATURE that
/// answers PASSWORD_VERIFIER. `CognitoClient.signIn` does all of this for you.
public struct CognitoSRP: Sendable {
    private let srp: SRPSignIn
    private let poolName: String

    /// - Parameter privateValue: the secret `a`; random (256 bits) unless given (tests, known-answer checks).
    public init(userPoolId: String, privateValue: BigUInt? = nil) throws(CognitoError) {
        guard let underscore = userPoolId.firstIndex(of: "_"), userPoolId.index(after: underscore) < userPoolId.endIndex
        else {
            throw .invalidConfiguration("the user pool id '\(userPoolId)' is not of the form region_name")
        }
        poolName = String(userPoolId[userPoolId.index(after: underscore)...])
        srp = try SRPSignIn(privateValue: privateValue ?? SRPSignIn.randomPrivateValue())
    }

    /// SRP_A, as InitiateAuth sends it.
    public var publicValueHex: String { srp.publicValueHex }

    /// The answer to PASSWORD_VERIFIER from its parameters (USER_ID_FOR_SRP, SALT, SRP_B, SECRET_BLOCK) and the
    /// moment of signing (Unix seconds), which also gives the TIMESTAMP to send beside it.
    public func passwordClaim(
        userIdForSRP: String, password: SecretBytes, saltHex: String, serverPublicValueHex: String,
        secretBlock: String, unixTime: Int64
    ) throws(CognitoError) -> (signature: String, timestamp: String) {
        guard let block = Data(base64Encoded: secretBlock, options: .ignoreUnknownCharacters) else {
            throw .invalidSRPChallenge("SECRET_BLOCK is not base64")
        }
        let timestamp = CognitoTimestamp.format(unixSeconds: unixTime)
        let signature = try srp.passwordClaimSignature(
            poolName: poolName, userIdForSRP: userIdForSRP, password: password, saltHex: saltHex,
            serverPublicValueHex: serverPublicValueHex, secretBlock: Array(block), timestamp: timestamp)
        return (signature, timestamp)
    }
}
