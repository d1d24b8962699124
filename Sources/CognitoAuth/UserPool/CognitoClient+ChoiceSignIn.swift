import AuthCrypto
import BoundedJSON

extension CognitoClient {
    /// Choice-based sign-in (USER_AUTH): with a `preferred` first factor Cognito starts it if the user has it
    /// (a password one is proved at once; an e-mail or SMS code is sent and asked for as EMAIL_OTP or SMS_OTP),
    /// otherwise, or with none, it answers SELECT_CHALLENGE with the factors to choose from.
    public func signIn(
        username: String, preferring preferred: FirstFactor?, device: RememberedDevice? = nil
    ) async throws(CognitoError) -> SignInStep {
        var parameters: [String: JSONValue] = ["USERNAME": .string(username)]
        parameters["SECRET_HASH"] = secretHash(username: username)
        parameters["DEVICE_KEY"] = device.map { .string($0.key) }
        var srp: SRPSignIn?
        if let preferred {
            parameters["PREFERRED_CHALLENGE"] = .string(preferred.name)
            srp = try add(preferred, to: &parameters)
        }
        let response = try await initiateAuth(flow: "USER_AUTH", parameters)
        return try await next(
            response, username: username, factor: preferred, srp: srp, device: device, operation: .initiateAuth)
    }

    /// Custom authentication (CUSTOM_AUTH): the pool's Lambda triggers ask CUSTOM_CHALLENGE rounds, answered with
    /// `.customAnswer`, as many as they define.
    public func signInWithCustomChallenge(username: String, device: RememberedDevice? = nil) async throws(CognitoError)
        -> SignInStep
    {
        var parameters: [String: JSONValue] = ["USERNAME": .string(username)]
        parameters["SECRET_HASH"] = secretHash(username: username)
        parameters["DEVICE_KEY"] = device.map { .string($0.key) }
        let response = try await initiateAuth(flow: "CUSTOM_AUTH", parameters)
        return try await step(from: response, username: username, operation: .initiateAuth, device: device)
    }

    /// SELECT_CHALLENGE answered with a first factor.
    func choose(_ factor: FirstFactor, for challenge: AuthChallenge) async throws(CognitoError) -> SignInStep {
        var responses: [String: JSONValue] = ["USERNAME": .string(challenge.username), "ANSWER": .string(factor.name)]
        responses["SECRET_HASH"] = secretHash(username: challenge.username)
        responses["DEVICE_KEY"] = challenge.device.map { .string($0.key) }
        let srp = try add(factor, to: &responses)
        let response = try await respondToAuthChallenge(.selectChallenge, session: challenge.session, responses)
        return try await next(
            response, username: challenge.username, factor: factor, srp: srp, device: challenge.device,
            operation: .respondToAuthChallenge)
    }

    /// What a password factor carries: the password, or SRP_A (the SRP pair is returned to answer PASSWORD_VERIFIER).
    private func add(_ factor: FirstFactor, to parameters: inout [String: JSONValue]) throws(CognitoError) -> SRPSignIn?
    {
        switch factor {
        case .password(let password):
            parameters["PASSWORD"] = .secret(password)
        case .passwordSRP:
            let srp = try SRPSignIn(privateValue: makeSRPPrivateValue())
            parameters["SRP_A"] = .string(srp.publicValueHex)
            return srp
        case .emailOTP, .smsOTP:
            break
        }
        return nil
    }

    /// PASSWORD_VERIFIER of a PASSWORD_SRP factor is answered here; anything else is the next step.
    private func next(
        _ response: AuthResponse, username: String, factor: FirstFactor?, srp: SRPSignIn?, device: RememberedDevice?,
        operation: CognitoOperation
    ) async throws(CognitoError) -> SignInStep {
        if response.challengeName == ChallengeKind.passwordVerifier.name, let srp,
            case .passwordSRP(let password) = factor
        {
            return try await answerPasswordVerifier(
                response, srp: srp, password: password, username: username, device: device)
        }
        return try await step(from: response, username: username, operation: operation, device: device)
    }
}
