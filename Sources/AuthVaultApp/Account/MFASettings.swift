import AuthCrypto
import CognitoAuth

// The signed-in user's second factors, as GetUser reports them and SetUserMFAPreference sets them. Each call is made
// with the session's access token: Cognito refusing it means signing in again.
extension Application {
    /// The user as GetUser describes them: the preferred and the enabled factors among the rest.
    public func mfaStatus(profile: String) async throws(ApplicationError) -> CognitoUser {
        let session = try await openProfile(named: profile)
        return try await session.withToken(try await session.accessToken()) { client, token throws(CognitoError) in
            try await client.user(accessToken: token)
        }
    }

    /// Turns `type` on and prefers it.
    public func enableMFA(_ type: MFAType, profile: String) async throws(ApplicationError) {
        let session = try await openProfile(named: profile)
        try await session.withToken(try await session.accessToken()) { client, token throws(CognitoError) in
            try await Self.set(
                type, to: MFAPreference(enabled: true, preferred: true), accessToken: token, client: client)
        }
    }

    /// Turns `type` off, or every enabled factor when nil, telling each to `disabled` as it goes. Returns the factors
    /// it turned off: none when none was enabled.
    @discardableResult
    public func disableMFA(
        _ type: MFAType?, profile: String,
        disabled: (MFAType) -> Void = { _ in }
    ) async throws(ApplicationError) -> [MFAType] {
        let session = try await openProfile(named: profile)
        let accessToken = try await session.accessToken()
        var types = type.map { [$0] } ?? []
        if type == nil {
            types = try await session.withToken(accessToken) { client, token throws(CognitoError) in
                try await client.user(accessToken: token).enabledMFA
            }
        }
        for type in types {
            try await session.withToken(accessToken) { client, token throws(CognitoError) in
                try await Self.set(type, to: MFAPreference(enabled: false), accessToken: token, client: client)
            }
            disabled(type)
        }
        return types
    }

    /// Adds an authenticator app and makes it the enabled, preferred factor: Cognito makes a secret, `show` gives it
    /// to the user (with the account name their app lists it under), and the app's first code proves it works. A
    /// code asked at the prompt may be wrong twice (`wrongCode` is told), as Cognito takes three in one session.
    public func setUpAuthenticator(
        profile: String, authenticatorName: String, answers: inout Answers,
        show: (SoftwareTokenSecret, _ accountName: String) -> Void, wrongCode: () -> Void
    ) async throws(ApplicationError) {
        let codeGiven = answers.isGiven(.code)
        // Checked before Cognito makes a secret that nobody could then confirm.
        guard codeGiven || answers.isInteractive else { throw .answer(.unanswered(.code)) }
        let session = try await openProfile(named: profile)
        let accessToken = try await session.accessToken()
        let secret = try await session.withToken(accessToken) { client, token throws(CognitoError) in
            try await client.associateSoftwareToken(accessToken: token)
        }
        show(secret, await session.signedInName() ?? session.profile.name)
        var wrongCodes = 0
        while true {
            let code = try asked { () throws(AnswerError) in
                try answers.secret(.code, prompt: "First code from the authenticator app: ")
            }
            do {
                try await session.withToken(accessToken) { client, token throws(CognitoError) in
                    try await client.verifySoftwareToken(
                        accessToken: token, code: code, friendlyDeviceName: authenticatorName)
                }
                break
            } catch {
                guard let reason = error.cause?.underlying as? CognitoError, reason.isWrongCode, !codeGiven,
                    wrongCodes < 2
                else { throw error }
                wrongCodes += 1
                wrongCode()
            }
        }
        try await session.withToken(accessToken) { client, token throws(CognitoError) in
            try await client.setMFAPreference(
                accessToken: token, softwareToken: MFAPreference(enabled: true, preferred: true))
        }
    }

    /// Turns one factor on or off through SetUserMFAPreference.
    private static func set(
        _ type: MFAType, to preference: MFAPreference, accessToken: SecretBytes,
        client: CognitoClient
    ) async throws(CognitoError) {
        switch type {
        case .softwareToken: try await client.setMFAPreference(accessToken: accessToken, softwareToken: preference)
        case .sms: try await client.setMFAPreference(accessToken: accessToken, sms: preference)
        case .email: try await client.setMFAPreference(accessToken: accessToken, email: preference)
        }
    }
}

extension CognitoError {
    /// The authenticator code did not verify: worth another code, not a failure of the set-up.
    fileprivate var isWrongCode: Bool {
        switch self {
        case .codeMismatch, .enableSoftwareTokenMFA: true
        default: false
        }
    }
}
