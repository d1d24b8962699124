import AuthCrypto
import BoundedJSON
import FoundationEssentials

extension CognitoClient {
    /// Remembers the device a sign-in reported as new: registers a fresh random password's SRP verifier for it
    /// (ConfirmDevice) under `name`. Keep the result: later sign-ins pass it to prove the device.
    /// - Returns: the device, and whether the pool leaves remembering it to the user (then `setDeviceRemembered`).
    public func confirmDevice(
        _ newDevice: NewDeviceMetadata, name: String, accessToken: SecretBytes
    ) async throws(CognitoError) -> (device: RememberedDevice, userConfirmationNecessary: Bool) {
        let verifier = DeviceVerifier.random(groupKey: newDevice.deviceGroupKey, deviceKey: newDevice.deviceKey)
        let response: ConfirmDeviceResponse = try await api.call(
            .confirmDevice,
            [
                "AccessToken": .secret(accessToken),
                "DeviceKey": .string(newDevice.deviceKey),
                "DeviceName": .string(name),
                "DeviceSecretVerifierConfig": .object([
                    "PasswordVerifier": .string(verifier.verifier),
                    "Salt": .string(verifier.salt),
                ]),
            ])
        let device = RememberedDevice(
            key: newDevice.deviceKey, groupKey: newDevice.deviceGroupKey, password: verifier.password)
        return (device, response.userConfirmationNecessary ?? false)
    }

    /// Remembers the device or stops remembering it (UpdateDeviceStatus), for pools that leave it to the user.
    public func setDeviceRemembered(_ remembered: Bool, deviceKey: String, accessToken: SecretBytes)
        async throws(CognitoError)
    {
        let _: EmptyResponse = try await api.call(
            .updateDeviceStatus,
            [
                "AccessToken": .secret(accessToken),
                "DeviceKey": .string(deviceKey),
                "DeviceRememberedStatus": .string(remembered ? "remembered" : "not_remembered"),
            ])
    }

    /// The user's devices that Cognito tracks, every page.
    public func listDevices(accessToken: SecretBytes) async throws(CognitoError) -> [DeviceSummary] {
        var devices: [DeviceSummary] = []
        var page: String?
        repeat {
            var body: [String: JSONValue] = ["AccessToken": .secret(accessToken), "Limit": .number(60)]
            body["PaginationToken"] = page.map { .string($0) }
            let response: ListDevicesResponse = try await api.call(.listDevices, body)
            devices += response.devices.map(DeviceSummary.init)
            page = response.paginationToken
        } while page != nil && devices.count < 1000
        return devices
    }

    /// Makes Cognito forget a device (ForgetDevice): the next sign-in from it is a new device again.
    public func forgetDevice(deviceKey: String, accessToken: SecretBytes) async throws(CognitoError) {
        let _: EmptyResponse = try await api.call(
            .forgetDevice, ["AccessToken": .secret(accessToken), "DeviceKey": .string(deviceKey)])
    }

    /// DEVICE_SRP_AUTH, then DEVICE_PASSWORD_VERIFIER: the device's SRP with a new ephemeral pair, its group key
    /// for the pool name and its key for the user.
    func proveDevice(_ device: RememberedDevice, username: String, session: SecretBytes) async throws(CognitoError)
        -> SignInStep
    {
        let srp = try SRPSignIn(privateValue: makeSRPPrivateValue())
        var start: [String: JSONValue] = [
            "USERNAME": .string(username), "DEVICE_KEY": .string(device.key), "SRP_A": .string(srp.publicValueHex),
        ]
        start["SECRET_HASH"] = secretHash(username: username)
        let challenge = try await respondToAuthChallenge(.deviceSRPAuth, session: session, start)
        let parameters = challenge.challengeParameters
        guard challenge.challengeName == ChallengeKind.devicePasswordVerifier.name, let salt = parameters["SALT"],
            let serverPublicValue = parameters["SRP_B"], let secretBlockText = parameters["SECRET_BLOCK"],
            let secretBlock = Data(base64Encoded: secretBlockText, options: .ignoreUnknownCharacters)
        else {
            throw .invalidSRPChallenge(
                "DEVICE_SRP_AUTH was not answered with DEVICE_PASSWORD_VERIFIER and its SALT, SRP_B and SECRET_BLOCK")
        }
        let internalUsername = parameters["USERNAME"] ?? username
        let timestamp = CognitoTimestamp.format(unixSeconds: Int64(now().rounded(.down)))
        let signature = try srp.passwordClaimSignature(
            poolName: device.groupKey, userIdForSRP: device.key, password: device.password, saltHex: salt,
            serverPublicValueHex: serverPublicValue, secretBlock: Array(secretBlock), timestamp: timestamp)
        var proof: [String: JSONValue] = [
            "USERNAME": .string(internalUsername),
            "DEVICE_KEY": .string(device.key),
            "PASSWORD_CLAIM_SECRET_BLOCK": .secret(SecretBytes(utf8: secretBlockText)),
            "PASSWORD_CLAIM_SIGNATURE": .secret(SecretBytes(utf8: signature)),
            "TIMESTAMP": .string(timestamp),
        ]
        proof["SECRET_HASH"] = secretHash(username: internalUsername)
        let response = try await respondToAuthChallenge(
            .devicePasswordVerifier, session: challenge.session.map(SecretBytes.init(utf8:)), proof)
        return try await step(
            from: response, username: internalUsername, operation: .respondToAuthChallenge, device: nil)
    }
}

/// One device of the user's, as ListDevices describes it.
public struct DeviceSummary: Sendable, Equatable {
    public let key: String
    /// `device_name`, as ConfirmDevice named it.
    public let name: String?
    /// `dev:device_remembered_status`: "remembered" or "not_remembered".
    public let rememberedStatus: String?
    /// Unix seconds.
    public let lastAuthenticatedAt: Double?

    init(_ device: ListDevicesResponse.Device) {
        let attributes = device.deviceAttributes ?? []
        func attribute(_ name: String) -> String? { attributes.first { $0.name == name }?.value }
        key = device.deviceKey
        name = attribute("device_name")
        rememberedStatus = attribute("dev:device_remembered_status")
        lastAuthenticatedAt = device.deviceLastAuthenticatedDate
    }
}
