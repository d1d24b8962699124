import AuthCrypto
import BoundedJSON

extension CognitoClient {
    /// A new authenticator secret for a signed-in user; `verifySoftwareToken` with its first code enables it.
    public func associateSoftwareToken(accessToken: SecretBytes) async throws(CognitoError) -> SoftwareTokenSecret {
        let response: AssociateSoftwareTokenResponse = try await api.call(
            .associateSoftwareToken, ["AccessToken": .secret(accessToken)])
        return SoftwareTokenSecret(base32: SecretBytes(utf8: response.secretCode))
    }

    public func verifySoftwareToken(accessToken: SecretBytes, code: SecretBytes, friendlyDeviceName: String? = nil)
        async throws(CognitoError)
    {
        var body: [String: JSONValue] = ["AccessToken": .secret(accessToken), "UserCode": .secret(code)]
        body["FriendlyDeviceName"] = friendlyDeviceName.map { .string($0) }
        let response: VerifySoftwareTokenResponse = try await api.call(.verifySoftwareToken, body)
        try Self.requireSuccess(response)
    }

    /// MFA_SETUP, first half: a new authenticator secret under the sign-in's session. Answer the returned
    /// challenge with `.softwareTokenSetupCode` once the user has a code.
    public func beginSoftwareTokenSetup(for challenge: AuthChallenge) async throws(CognitoError) -> SoftwareTokenSetup {
        guard challenge.kind == .mfaSetup else { throw .answerDoesNotFitChallenge(challenge.kind) }
        guard !challenge.isExpired(now: now()) else { throw .challengeExpired(challenge.kind) }
        let response: AssociateSoftwareTokenResponse = try await api.call(
            .associateSoftwareToken, ["Session": .secret(challenge.session)])
        let continued =
            response.session.map { challenge.replacingSession(SecretBytes(utf8: $0), expiresAt: challengeExpiry()) }
            ?? challenge
        return SoftwareTokenSetup(
            secret: SoftwareTokenSecret(base32: SecretBytes(utf8: response.secretCode)), challenge: continued)
    }

    /// MFA_SETUP, second half: the session that RespondToAuthChallenge takes next.
    func verifySoftwareToken(session: SecretBytes, code: SecretBytes, friendlyDeviceName: String?)
        async throws(CognitoError) -> SecretBytes
    {
        var body: [String: JSONValue] = ["Session": .secret(session), "UserCode": .secret(code)]
        body["FriendlyDeviceName"] = friendlyDeviceName.map { .string($0) }
        let response: VerifySoftwareTokenResponse = try await api.call(.verifySoftwareToken, body)
        try Self.requireSuccess(response)
        return response.session.map(SecretBytes.init(utf8:)) ?? session
    }

    /// Turns factors on or off and picks the preferred one; a factor left nil keeps its setting.
    public func setMFAPreference(
        accessToken: SecretBytes, softwareToken: MFAPreference? = nil, sms: MFAPreference? = nil,
        email: MFAPreference? = nil
    ) async throws(CognitoError) {
        func setting(_ preference: MFAPreference) -> JSONValue {
            .object(["Enabled": .bool(preference.enabled), "PreferredMfa": .bool(preference.preferred)])
        }
        var body: [String: JSONValue] = ["AccessToken": .secret(accessToken)]
        body["SoftwareTokenMfaSettings"] = softwareToken.map(setting)
        body["SMSMfaSettings"] = sms.map(setting)
        body["EmailMfaSettings"] = email.map(setting)
        let _: EmptyResponse = try await api.call(.setUserMFAPreference, body)
    }

    private static func requireSuccess(_ response: VerifySoftwareTokenResponse) throws(CognitoError) {
        guard response.status == nil || response.status == "SUCCESS" else {
            throw .enableSoftwareTokenMFA(message: "verification status \(response.status ?? "")")
        }
    }
}
