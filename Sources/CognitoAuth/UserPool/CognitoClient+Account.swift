import AuthCrypto
import BoundedJSON

extension CognitoClient {
    /// Registers a user; unless a trigger confirms them, a code goes out to confirm with `confirmSignUp`.
    public func signUp(username: String, password: SecretBytes, attributes: [String: String] = [:])
        async throws(CognitoError) -> SignUpResult
    {
        var body = userBody(username)
        body["Password"] = .secret(password)
        body["UserAttributes"] = .array(
            attributes.sorted { $0.key < $1.key }.map {
                .object(["Name": .string($0.key), "Value": .string($0.value)])
            })
        let response: SignUpResponse = try await api.call(.signUp, body)
        return SignUpResult(
            userConfirmed: response.userConfirmed, userSub: response.userSub,
            codeDelivery: response.codeDeliveryDetails?.details)
    }

    public func confirmSignUp(username: String, code: SecretBytes) async throws(CognitoError) {
        var body = userBody(username)
        body["ConfirmationCode"] = .secret(code)
        let _: EmptyResponse = try await api.call(.confirmSignUp, body)
    }

    public func resendConfirmationCode(username: String) async throws(CognitoError) -> CodeDeliveryDetails? {
        let response: CodeDeliveryResponse = try await api.call(.resendConfirmationCode, userBody(username))
        return response.codeDeliveryDetails?.details
    }

    /// Sends a reset code; `confirmForgotPassword` sets the new password with it.
    public func forgotPassword(username: String) async throws(CognitoError) -> CodeDeliveryDetails? {
        let response: CodeDeliveryResponse = try await api.call(.forgotPassword, userBody(username))
        return response.codeDeliveryDetails?.details
    }

    public func confirmForgotPassword(username: String, code: SecretBytes, newPassword: SecretBytes)
        async throws(CognitoError)
    {
        var body = userBody(username)
        body["ConfirmationCode"] = .secret(code)
        body["Password"] = .secret(newPassword)
        let _: EmptyResponse = try await api.call(.confirmForgotPassword, body)
    }

    public func changePassword(accessToken: SecretBytes, previousPassword: SecretBytes, proposedPassword: SecretBytes)
        async throws(CognitoError)
    {
        let _: EmptyResponse = try await api.call(
            .changePassword,
            [
                "AccessToken": .secret(accessToken),
                "PreviousPassword": .secret(previousPassword),
                "ProposedPassword": .secret(proposedPassword),
            ])
    }

    /// GetUser: the signed-in user's attributes and MFA settings.
    public func user(accessToken: SecretBytes) async throws(CognitoError) -> CognitoUser {
        let response: GetUserResponse = try await api.call(.getUser, ["AccessToken": .secret(accessToken)])
        var attributes: [String: String] = [:]
        for attribute in response.userAttributes { attributes[attribute.name] = attribute.value ?? "" }
        return CognitoUser(
            username: response.username, attributes: attributes,
            preferredMFA: response.preferredMfaSetting.flatMap(MFAType.init(rawValue:)),
            enabledMFA: (response.userMFASettingList ?? []).compactMap(MFAType.init(rawValue:)))
    }

    /// ClientId, Username and, for clients with a secret, SecretHash: what the unauthenticated account
    /// operations share.
    private func userBody(_ username: String) -> [String: JSONValue] {
        var body: [String: JSONValue] = ["ClientId": .string(configuration.clientId), "Username": .string(username)]
        body["SecretHash"] = secretHash(username: username)
        return body
    }
}
