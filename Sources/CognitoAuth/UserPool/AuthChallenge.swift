import AuthCrypto
import BoundedJSON
import FoundationEssentials

/// A sign-in step waiting for the user: what Cognito asks, and the `Session` that ties the answer to this
/// sign-in. A value: a wrong code (CodeMismatchException) leaves the session usable, so the same challenge can
/// be answered again until it expires.
public struct AuthChallenge: Sendable, CustomStringConvertible {
    public let kind: ChallengeKind
    /// Cognito's `Session`: a bearer credential for this sign-in step.
    public let session: SecretBytes
    /// Unix seconds after which Cognito no longer accepts the session.
    public let expiresAt: Double
    /// The USERNAME Cognito returned (its internal name, not the alias typed in): the one every answer and
    /// SECRET_HASH uses from here on.
    public let username: String
    /// Cognito's ChallengeParameters, values as sent (lists as JSON text).
    public let parameters: [String: String]
    /// The remembered device the sign-in goes on with: its key goes with every answer, and it proves itself if
    /// Cognito asks (DEVICE_SRP_AUTH).
    var device: RememberedDevice?

    public init(
        kind: ChallengeKind, session: SecretBytes, expiresAt: Double, username: String, parameters: [String: String]
    ) {
        self.kind = kind
        self.session = session
        self.expiresAt = expiresAt
        self.username = username
        self.parameters = parameters
    }

    /// NEW_PASSWORD_REQUIRED: the attributes the user must supply, without the `userAttributes.` prefix.
    public var requiredAttributes: [String] {
        Self.stringList(parameters["requiredAttributes"]).map { name in
            name.hasPrefix("userAttributes.") ? String(name.dropFirst("userAttributes.".count)) : name
        }
    }

    /// NEW_PASSWORD_REQUIRED: the user's current attributes.
    public var userAttributes: [String: String] {
        guard let text = parameters["userAttributes"],
            let values = JSONValue.parse(text.utf8)?.dictionary
        else { return [:] }
        return values.compactMapValues(\.string)
    }

    /// SELECT_MFA_TYPE: the factors to choose from (MFAS_CAN_CHOOSE); MFA_SETUP: the ones that can be set up
    /// (MFAS_CAN_SETUP).
    public var mfaTypes: [MFAType] {
        let names = Self.stringList(parameters[kind == .mfaSetup ? "MFAS_CAN_SETUP" : "MFAS_CAN_CHOOSE"])
        return names.compactMap(MFAType.init(rawValue:))
    }

    /// SELECT_CHALLENGE: the first factors the user may choose among (PASSWORD, PASSWORD_SRP, EMAIL_OTP, SMS_OTP...).
    public var availableChallenges: [String] { Self.stringList(parameters["AvailableChallenges"]) }

    /// SMS_MFA, EMAIL_OTP and SMS_OTP: where the code went (masked by Cognito).
    public var codeDeliveryDestination: String? { parameters["CODE_DELIVERY_DESTINATION"] }

    public func isExpired(now: Double) -> Bool { now >= expiresAt }

    /// The same challenge under the session a later call handed back.
    func replacingSession(_ session: SecretBytes, expiresAt: Double) -> AuthChallenge {
        var replaced = AuthChallenge(
            kind: kind, session: session, expiresAt: expiresAt, username: username, parameters: parameters)
        replaced.device = device
        return replaced
    }

    public var description: String {
        "AuthChallenge(\(kind), user \(username), expires at Unix time \(Int64(expiresAt)), parameters \(parameters.keys.sorted()))"
    }

    /// Cognito sends lists as JSON text; some emulators send them as JSON arrays, which arrive here re-encoded.
    private static func stringList(_ text: String?) -> [String] {
        guard let text, let list = try? JSONDecoder().decode([String].self, from: Data(text.utf8)) else { return [] }
        return list
    }
}
