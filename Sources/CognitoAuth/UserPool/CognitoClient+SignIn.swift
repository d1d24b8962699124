import AuthCrypto
import BoundedJSON
import FoundationEssentials

extension CognitoClient {
    /// Starts a sign-in. SRP answers Cognito's PASSWORD_VERIFIER itself, and a remembered `device` proves itself
    /// when Cognito asks (so the pool may skip MFA), so the step returned is the tokens or the first challenge the
    /// user has to answer.
    public func signIn(
        username: String, password: SecretBytes, flow: AuthFlow = .userSRP, device: RememberedDevice? = nil
    ) async throws(CognitoError) -> SignInStep {
        var parameters: [String: JSONValue] = ["USERNAME": .string(username)]
        parameters["SECRET_HASH"] = secretHash(username: username)
        parameters["DEVICE_KEY"] = device.map { .string($0.key) }
        switch flow {
        case .userPassword:
            parameters["PASSWORD"] = .secret(password)
            let response = try await initiateAuth(flow: flow.rawValue, parameters)
            return try await step(from: response, username: username, operation: .initiateAuth, device: device)
        case .userSRP:
            let srp = try SRPSignIn(privateValue: makeSRPPrivateValue())
            parameters["SRP_A"] = .string(srp.publicValueHex)
            let response = try await initiateAuth(flow: flow.rawValue, parameters)
            guard response.challengeName == ChallengeKind.passwordVerifier.name else {
                return try await step(from: response, username: username, operation: .initiateAuth, device: device)
            }
            return try await answerPasswordVerifier(
                response, srp: srp, password: password, username: username, device: device)
        }
    }

    /// Answers a challenge. The next step may be another challenge (SELECT_MFA_TYPE leads to the chosen factor's).
    /// On CodeMismatchException the same challenge can be answered again.
    public func respond(to challenge: AuthChallenge, with answer: ChallengeAnswer) async throws(CognitoError)
        -> SignInStep
    {
        guard !challenge.isExpired(now: now()) else { throw .challengeExpired(challenge.kind) }
        if challenge.kind == .selectChallenge, case .firstFactor(let factor) = answer {
            return try await choose(factor, for: challenge)
        }
        var responses: [String: JSONValue] = ["USERNAME": .string(challenge.username)]
        var session = challenge.session
        switch (challenge.kind, answer) {
        case (.newPasswordRequired, .newPassword(let password, let attributes)):
            responses["NEW_PASSWORD"] = .secret(password)
            for (name, value) in attributes { responses["userAttributes.\(name)"] = .string(value) }
        case (.smsMFA, .code(let code)), (.softwareTokenMFA, .code(let code)), (.emailOTP, .code(let code)),
            (.smsOTP, .code(let code)):
            responses["\(challenge.kind.name)_CODE"] = .secret(code)
        case (.selectMFAType, .mfaType(let type)):
            responses["ANSWER"] = .string(type.rawValue)
        case (.mfaSetup, .softwareTokenSetupCode(let code, let deviceName)):
            session = try await verifySoftwareToken(
                session: challenge.session, code: code, friendlyDeviceName: deviceName)
        case (.customChallenge, .customAnswer(let value)), (.other, .customAnswer(let value)):
            responses["ANSWER"] = .secret(value)
        default:
            throw .answerDoesNotFitChallenge(challenge.kind)
        }
        responses["SECRET_HASH"] = secretHash(username: challenge.username)
        responses["DEVICE_KEY"] = challenge.device.map { .string($0.key) }
        let response = try await respondToAuthChallenge(challenge.kind, session: session, responses)
        return try await step(
            from: response, username: challenge.username, operation: .respondToAuthChallenge, device: challenge.device)
    }

    func answerPasswordVerifier(
        _ challenge: AuthResponse, srp: SRPSignIn, password: SecretBytes, username: String, device: RememberedDevice?
    ) async throws(CognitoError) -> SignInStep {
        let parameters = challenge.challengeParameters
        guard let userIdForSRP = parameters["USER_ID_FOR_SRP"], let salt = parameters["SALT"],
            let serverPublicValue = parameters["SRP_B"],
            let secretBlockText = parameters["SECRET_BLOCK"], let poolName = configuration.poolName
        else {
            throw .invalidSRPChallenge("PASSWORD_VERIFIER lacks USER_ID_FOR_SRP, SALT, SRP_B or SECRET_BLOCK")
        }
        // Lenient like the SDKs' decoders (RFC 4648 section 3.3 allows skipping foreign characters): moto sends
        // a UUID here, Cognito plain base64.
        guard let secretBlock = Data(base64Encoded: secretBlockText, options: .ignoreUnknownCharacters) else {
            throw .invalidSRPChallenge("SECRET_BLOCK is not base64")
        }
        let internalUsername = parameters["USERNAME"] ?? username
        let timestamp = CognitoTimestamp.format(unixSeconds: Int64(now().rounded(.down)))
        let signature = try srp.passwordClaimSignature(
            poolName: poolName, userIdForSRP: userIdForSRP, password: password, saltHex: salt,
            serverPublicValueHex: serverPublicValue, secretBlock: Array(secretBlock), timestamp: timestamp)
        var responses: [String: JSONValue] = [
            "USERNAME": .string(internalUsername),
            "PASSWORD_CLAIM_SECRET_BLOCK": .secret(SecretBytes(utf8: secretBlockText)),
            "PASSWORD_CLAIM_SIGNATURE": .secret(SecretBytes(utf8: signature)),
            "TIMESTAMP": .string(timestamp),
        ]
        responses["SECRET_HASH"] = secretHash(username: internalUsername)
        responses["DEVICE_KEY"] = device.map { .string($0.key) }
        let response = try await respondToAuthChallenge(
            .passwordVerifier, session: challenge.session.map(SecretBytes.init(utf8:)),
            responses)
        return try await step(
            from: response, username: internalUsername, operation: .respondToAuthChallenge, device: device)
    }

    func initiateAuth(flow: String, _ parameters: [String: JSONValue]) async throws(CognitoError) -> AuthResponse {
        try await api.call(
            .initiateAuth,
            [
                "AuthFlow": .string(flow),
                "ClientId": .string(configuration.clientId),
                "AuthParameters": .object(parameters),
            ])
    }

    func respondToAuthChallenge(
        _ kind: ChallengeKind, session: SecretBytes?, _ responses: [String: JSONValue]
    ) async throws(CognitoError) -> AuthResponse {
        var body: [String: JSONValue] = [
            "ChallengeName": .string(kind.name),
            "ClientId": .string(configuration.clientId),
            "ChallengeResponses": .object(responses),
        ]
        body["Session"] = session.map { .secret($0) }
        return try await api.call(.respondToAuthChallenge, body)
    }

    /// Tokens, or the next challenge under its new session; a remembered device's proof is given here. A
    /// challenge without USERNAME (moto's MFA challenges) keeps the name of the step before.
    func step(
        from response: AuthResponse, username: String, operation: CognitoOperation, device: RememberedDevice?
    ) async throws(CognitoError) -> SignInStep {
        if let result = response.authenticationResult {
            return .signedIn(try await verifiedTokens(result, keeping: nil, operation: operation))
        }
        guard let name = response.challengeName, let session = response.session else {
            throw .invalidResponse(
                operation: operation.rawValue, reason: "the answer has neither tokens nor a challenge with a session")
        }
        let internalUsername = response.challengeParameters["USERNAME"] ?? username
        if let device, name == ChallengeKind.deviceSRPAuth.name {
            return try await proveDevice(device, username: internalUsername, session: SecretBytes(utf8: session))
        }
        var challenge = AuthChallenge(
            kind: ChallengeKind(name: name), session: SecretBytes(utf8: session), expiresAt: challengeExpiry(),
            username: internalUsername, parameters: response.challengeParameters)
        challenge.device = device
        return .challenge(challenge)
    }

    func challengeExpiry() -> Double {
        let lifetime = configuration.challengeSessionLifetime.components
        return now() + Double(lifetime.seconds) + Double(lifetime.attoseconds) / 1e18
    }
}
