import CognitoAuth

/// A first factor of choice-based sign-in (SELECT_CHALLENGE), by the words a person uses.
public enum FirstFactorChoice: String, Sendable, CaseIterable {
    case password
    case passwordSRP = "password-srp"
    case emailOTP = "email-otp"
    case smsOTP = "sms-otp"

    /// Cognito's name for it in AvailableChallenges.
    public var cognitoName: String {
        switch self {
        case .password: "PASSWORD"
        case .passwordSRP: "PASSWORD_SRP"
        case .emailOTP: "EMAIL_OTP"
        case .smsOTP: "SMS_OTP"
        }
    }
}

extension MFAType {
    /// The word a person uses for it: totp, sms, email.
    public var word: String {
        switch self {
        case .softwareToken: "totp"
        case .sms: "sms"
        case .email: "email"
        }
    }

    /// The factor a person names by its word.
    public init?(word: String) {
        guard let type = MFAType.allCases.first(where: { $0.word == word }) else { return nil }
        self = type
    }
}
