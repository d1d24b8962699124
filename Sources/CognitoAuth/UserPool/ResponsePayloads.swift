import BoundedJSON
import FoundationEssentials

// The parts of Cognito's JSON answers the client reads, by the field names of the API reference.

/// InitiateAuth, RespondToAuthChallenge and GetTokensFromRefreshToken.
struct AuthResponse: Decodable {
    let challengeName: String?
    let session: String?
    let challengeParameters: [String: String]
    let authenticationResult: AuthenticationResult?

    enum CodingKeys: String, CodingKey {
        case challengeName = "ChallengeName"
        case session = "Session"
        case challengeParameters = "ChallengeParameters"
        case authenticationResult = "AuthenticationResult"
        case availableChallenges = "AvailableChallenges"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        challengeName = try container.decodeIfPresent(String.self, forKey: .challengeName)
        session = try container.decodeIfPresent(String.self, forKey: .session)
        authenticationResult = try container.decodeIfPresent(AuthenticationResult.self, forKey: .authenticationResult)
        var parameters = try container.decodeIfPresent([String: JSONValue].self, forKey: .challengeParameters) ?? [:]
        // USER_AUTH's SELECT_CHALLENGE lists the choices beside the parameters: kept with them.
        if let available = try container.decodeIfPresent(JSONValue.self, forKey: .availableChallenges) {
            parameters["AvailableChallenges"] = available
        }
        challengeParameters = parameters.compactMapValues(Self.text)
    }

    /// Cognito sends every parameter as a string (lists as JSON text); emulators send lists as arrays.
    private static func text(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): return text
        case .array(let values):
            let strings = values.compactMap(\.string)
            return (try? JSONEncoder().encode(strings)).map { String(decoding: $0, as: UTF8.self) }
        case .number(let number):
            return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .bool(let flag): return String(flag)
        case .object, .null, .secret: return nil
        }
    }
}

struct AuthenticationResult: Decodable {
    let accessToken: String?
    let idToken: String?
    let refreshToken: String?
    /// A device Cognito tracks and has not seen before: confirm it to remember it.
    let newDeviceMetadata: NewDeviceMetadata?

    enum CodingKeys: String, CodingKey {
        case accessToken = "AccessToken"
        case idToken = "IdToken"
        case refreshToken = "RefreshToken"
        case newDeviceMetadata = "NewDeviceMetadata"
    }
}

/// ConfirmDevice.
struct ConfirmDeviceResponse: Decodable {
    let userConfirmationNecessary: Bool?

    enum CodingKeys: String, CodingKey { case userConfirmationNecessary = "UserConfirmationNecessary" }
}

/// ListDevices.
struct ListDevicesResponse: Decodable {
    struct Device: Decodable {
        let deviceKey: String
        let deviceAttributes: [GetUserResponse.Attribute]?
        let deviceCreateDate: Double?
        let deviceLastAuthenticatedDate: Double?

        enum CodingKeys: String, CodingKey {
            case deviceKey = "DeviceKey"
            case deviceAttributes = "DeviceAttributes"
            case deviceCreateDate = "DeviceCreateDate"
            case deviceLastAuthenticatedDate = "DeviceLastAuthenticatedDate"
        }
    }

    let devices: [Device]
    let paginationToken: String?

    enum CodingKeys: String, CodingKey {
        case devices = "Devices"
        case paginationToken = "PaginationToken"
    }
}

struct CodeDeliveryPayload: Decodable {
    let destination: String?
    let deliveryMedium: String?
    let attributeName: String?

    enum CodingKeys: String, CodingKey {
        case destination = "Destination"
        case deliveryMedium = "DeliveryMedium"
        case attributeName = "AttributeName"
    }

    var details: CodeDeliveryDetails {
        CodeDeliveryDetails(destination: destination, medium: deliveryMedium, attributeName: attributeName)
    }
}

/// ResendConfirmationCode and ForgotPassword.
struct CodeDeliveryResponse: Decodable {
    let codeDeliveryDetails: CodeDeliveryPayload?

    enum CodingKeys: String, CodingKey { case codeDeliveryDetails = "CodeDeliveryDetails" }
}

struct SignUpResponse: Decodable {
    let userConfirmed: Bool
    let userSub: String
    let codeDeliveryDetails: CodeDeliveryPayload?

    enum CodingKeys: String, CodingKey {
        case userConfirmed = "UserConfirmed"
        case userSub = "UserSub"
        case codeDeliveryDetails = "CodeDeliveryDetails"
    }
}

struct GetUserResponse: Decodable {
    struct Attribute: Decodable {
        let name: String
        let value: String?
        enum CodingKeys: String, CodingKey {
            case name = "Name"
            case value = "Value"
        }
    }

    let username: String
    let userAttributes: [Attribute]
    let preferredMfaSetting: String?
    let userMFASettingList: [String]?

    enum CodingKeys: String, CodingKey {
        case username = "Username"
        case userAttributes = "UserAttributes"
        case preferredMfaSetting = "PreferredMfaSetting"
        case userMFASettingList = "UserMFASettingList"
    }
}

struct AssociateSoftwareTokenResponse: Decodable {
    let secretCode: String
    let session: String?

    enum CodingKeys: String, CodingKey {
        case secretCode = "SecretCode"
        case session = "Session"
    }
}

struct VerifySoftwareTokenResponse: Decodable {
    let status: String?
    let session: String?

    enum CodingKeys: String, CodingKey {
        case status = "Status"
        case session = "Session"
    }
}

/// Operations that answer `{}`.
struct EmptyResponse: Decodable {}
