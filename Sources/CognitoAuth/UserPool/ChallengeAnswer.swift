import AuthCrypto

/// What the user answers to an `AuthChallenge`.
public enum ChallengeAnswer: Sendable, CustomStringConvertible {
    /// NEW_PASSWORD_REQUIRED: the new password and the required attributes (names without `userAttributes.`).
    case newPassword(SecretBytes, attributes: [String: String] = [:])
    /// SMS_MFA, SOFTWARE_TOKEN_MFA or EMAIL_OTP: the code the user received or read off the authenticator.
    case code(SecretBytes)
    /// SELECT_MFA_TYPE: the chosen factor; its own challenge comes next.
    case mfaType(MFAType)
    /// MFA_SETUP, after `beginSoftwareTokenSetup(for:)`: a code from the newly set-up authenticator.
    case softwareTokenSetupCode(SecretBytes, friendlyDeviceName: String? = nil)
    /// CUSTOM_CHALLENGE: the ANSWER the Lambda trigger expects.
    case customAnswer(SecretBytes)
    /// SELECT_CHALLENGE: the first factor chosen (a password one carries the password); an OTP's code challenge
    /// comes next.
    case firstFactor(FirstFactor)

    public var description: String {
        switch self {
        case .newPassword(_, let attributes):
            "ChallengeAnswer.newPassword(<redacted>, attributes: \(attributes.keys.sorted()))"
        case .code: "ChallengeAnswer.code(<redacted>)"
        case .mfaType(let type): "ChallengeAnswer.mfaType(\(type.rawValue))"
        case .softwareTokenSetupCode: "ChallengeAnswer.softwareTokenSetupCode(<redacted>)"
        case .customAnswer: "ChallengeAnswer.customAnswer(<redacted>)"
        case .firstFactor(let factor): "ChallengeAnswer.firstFactor(\(factor.name))"
        }
    }
}
