/// The kind of a sign-in challenge, by Cognito's `ChallengeName`.
public enum ChallengeKind: Sendable, Hashable, CustomStringConvertible {
    /// SRP's proof of the password: answered inside `signIn`, never handed to the caller.
    case passwordVerifier
    /// An administrator created the user with a temporary password: a new one (and any required attributes).
    case newPasswordRequired
    case smsMFA
    case softwareTokenMFA
    case emailOTP
    /// Several MFA methods are enabled: the user picks one.
    case selectMFAType
    /// MFA is required but none is set up: set up an authenticator app, then answer.
    case mfaSetup
    /// A Lambda-defined challenge.
    case customChallenge
    /// Choice-based sign-in (USER_AUTH): the user picks a first factor among `AuthChallenge.availableChallenges`.
    case selectChallenge
    /// Choice-based sign-in: a code Cognito sent by SMS instead of a password.
    case smsOTP
    /// A remembered device's SRP, in two steps: answered inside the sign-in, never handed to the caller.
    case deviceSRPAuth
    case devicePasswordVerifier
    /// A challenge this client does not know by name.
    case other(String)

    public init(name: String) {
        self = Self.known.first { $0.name == name } ?? .other(name)
    }

    /// Cognito's `ChallengeName`.
    public var name: String {
        switch self {
        case .passwordVerifier: "PASSWORD_VERIFIER"
        case .newPasswordRequired: "NEW_PASSWORD_REQUIRED"
        case .smsMFA: "SMS_MFA"
        case .softwareTokenMFA: "SOFTWARE_TOKEN_MFA"
        case .emailOTP: "EMAIL_OTP"
        case .selectMFAType: "SELECT_MFA_TYPE"
        case .mfaSetup: "MFA_SETUP"
        case .customChallenge: "CUSTOM_CHALLENGE"
        case .selectChallenge: "SELECT_CHALLENGE"
        case .smsOTP: "SMS_OTP"
        case .deviceSRPAuth: "DEVICE_SRP_AUTH"
        case .devicePasswordVerifier: "DEVICE_PASSWORD_VERIFIER"
        case .other(let name): name
        }
    }

    public var description: String { name }

    private static let known: [ChallengeKind] = [
        .passwordVerifier, .newPasswordRequired, .smsMFA, .softwareTokenMFA, .emailOTP, .selectMFAType, .mfaSetup,
        .customChallenge,
        .deviceSRPAuth, .devicePasswordVerifier, .selectChallenge, .smsOTP,
    ]
}

/// A second factor, by the names Cognito uses in SELECT_MFA_TYPE and MFAS_CAN_SETUP.
public enum MFAType: String, Sendable, CaseIterable {
    case sms = "SMS_MFA"
    case softwareToken = "SOFTWARE_TOKEN_MFA"
    case email = "EMAIL_OTP"
}
