import AuthCrypto

/// How a user proves who they are in choice-based sign-in (USER_AUTH), by Cognito's challenge names.
public enum FirstFactor: Sendable, CustomStringConvertible {
    /// PASSWORD: the password, sent over TLS.
    case password(SecretBytes)
    /// PASSWORD_SRP: the password, proved by SRP without sending it.
    case passwordSRP(SecretBytes)
    /// EMAIL_OTP: a code Cognito e-mails.
    case emailOTP
    /// SMS_OTP: a code Cognito texts.
    case smsOTP

    /// The challenge name (PREFERRED_CHALLENGE, SELECT_CHALLENGE's ANSWER).
    public var name: String {
        switch self {
        case .password: "PASSWORD"
        case .passwordSRP: "PASSWORD_SRP"
        case .emailOTP: "EMAIL_OTP"
        case .smsOTP: "SMS_OTP"
        }
    }

    public var description: String { "FirstFactor(\(name))" }
}
