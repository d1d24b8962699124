/// `login --challenge`: a first factor of choice-based sign-in (SELECT_CHALLENGE), by the words a person uses.
enum FirstFactorChoice: String, Sendable, CaseIterable, OptionChoice {
    case password
    case passwordSRP = "password-srp"
    case emailOTP = "email-otp"
    case smsOTP = "sms-otp"

    /// Cognito's name for it in AvailableChallenges.
    var cognitoName: String {
        switch self {
        case .password: "PASSWORD"
        case .passwordSRP: "PASSWORD_SRP"
        case .emailOTP: "EMAIL_OTP"
        case .smsOTP: "SMS_OTP"
        }
    }
}
