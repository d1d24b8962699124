import CognitoAuth

/// `mfa status --json` as docs/mfa-status.schema.json describes it: the factors under Cognito's names.
public struct MFAStatusReport: Sendable, Encodable {
    /// `schemaVersion`: raised only when a field changes meaning or goes; new fields keep it.
    public static let schemaVersion = 1

    public let schemaVersion = MFAStatusReport.schemaVersion
    /// Left out when no factor is preferred.
    public let preferred: String?
    public let enabled: [String]

    public init(_ user: CognitoUser) {
        preferred = user.preferredMFA?.rawValue
        enabled = user.enabledMFA.map(\.rawValue)
    }
}
