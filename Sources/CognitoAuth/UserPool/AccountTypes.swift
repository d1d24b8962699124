import AuthCrypto
import NetworkHosts

/// Where Cognito sent a confirmation or reset code (masked by Cognito, e.g. `a***@e***`).
public struct CodeDeliveryDetails: Sendable, Equatable {
    public let destination: String?
    /// `EMAIL` or `SMS`.
    public let medium: String?
    public let attributeName: String?

    public init(destination: String?, medium: String?, attributeName: String?) {
        self.destination = destination
        self.medium = medium
        self.attributeName = attributeName
    }
}

public struct SignUpResult: Sendable, Equatable {
    /// False until the user confirms with the code that was sent (unless a Lambda trigger confirmed them).
    public let userConfirmed: Bool
    public let userSub: String
    public let codeDelivery: CodeDeliveryDetails?
}

/// GetUser: the user's attributes and MFA settings.
public struct CognitoUser: Sendable, Equatable {
    public let username: String
    public let attributes: [String: String]
    public let preferredMFA: MFAType?
    /// The factors enabled for the user.
    public let enabledMFA: [MFAType]
}

/// One factor's setting for SetUserMFAPreference.
public struct MFAPreference: Sendable, Equatable {
    public var enabled: Bool
    public var preferred: Bool

    public init(enabled: Bool, preferred: Bool = false) {
        self.enabled = enabled
        self.preferred = preferred
    }
}

/// The shared secret of a new authenticator app (TOTP, RFC 6238: SHA-1, 6 digits, 30 s), base32 as Cognito sends it.
public struct SoftwareTokenSecret: Sendable, CustomStringConvertible {
    public let base32: SecretBytes

    /// The `otpauth://totp/...` URI an authenticator app reads from a QR code; it contains the secret.
    public func provisioningURI(accountName: String, issuer: String) -> SecretBytes {
        let label = FormURLEncoding.percentEncoded("\(issuer):\(accountName)")
        return SecretBytes(
            utf8: "otpauth://totp/\(label)?secret=\(base32.utf8String)&issuer=\(FormURLEncoding.percentEncoded(issuer))"
        )
    }

    public var description: String { "SoftwareTokenSecret(<redacted>)" }
}

/// MFA_SETUP in progress: the secret to put in the authenticator, and the challenge to answer with its first code.
public struct SoftwareTokenSetup: Sendable, CustomStringConvertible {
    public let secret: SoftwareTokenSecret
    /// The MFA_SETUP challenge under the session AssociateSoftwareToken returned.
    public let challenge: AuthChallenge

    public var description: String { "SoftwareTokenSetup(\(challenge))" }
}
