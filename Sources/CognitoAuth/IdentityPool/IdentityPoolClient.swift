import AuthCrypto
import BoundedJSON
import FoundationEssentials
import HTTPTransport

/// Cognito identity pools' enhanced flow: an identity id for a user (GetId, once: it is stable, keep it), then
/// temporary AWS credentials for it (GetCredentialsForIdentity), each call carrying the user's ID token in `Logins`.
/// Without a login, the same calls give a guest identity, where the pool allows unauthenticated identities.
/// A value with no mutable state: share it freely.
public struct IdentityPoolClient: Sendable {
    public let configuration: IdentityPoolConfiguration
    let api: CognitoAPI

    public init(configuration: IdentityPoolConfiguration, transport: any HTTPTransport) throws(CognitoError) {
        try self.init(configuration: configuration, transport: transport, jitter: { Double.random(in: 0...1) })
    }

    /// With the back-off jitter fixed, for tests.
    init(
        configuration: IdentityPoolConfiguration, transport: any HTTPTransport,
        jitter: @escaping @Sendable () -> Double
    ) throws(CognitoError) {
        self.configuration = try configuration.validated()
        api = CognitoAPI(
            endpoint: configuration.endpoint, transport: transport, deadline: configuration.operationDeadline,
            retryPolicy: configuration.retryPolicy, jitter: jitter)
    }

    /// The identity id of the user `login` proves (GetId); a new guest identity when `login` is nil.
    public func identityId(login: IdentityProviderLogin?) async throws(CognitoError) -> String {
        var body: [String: JSONValue] = ["IdentityPoolId": .string(configuration.poolID.rawValue)]
        body["Logins"] = login?.requestValue
        let response: IdentityIdResponse = try await call(.getId, body)
        guard let identityId = response.identityId, !identityId.isEmpty else {
            throw .invalidResponse(
                operation: IdentityPoolOperation.getId.rawValue, reason: "the answer names no identity")
        }
        return identityId
    }

    /// Credentials for `identityId` (GetCredentialsForIdentity), with the pool's role for it or the configured one.
    /// - Parameter login: the same provider's current ID token; nil for a guest identity.
    public func credentials(identityId: String, login: IdentityProviderLogin?) async throws(CognitoError)
        -> AWSCredentials
    {
        var body: [String: JSONValue] = ["IdentityId": .string(identityId)]
        body["Logins"] = login?.requestValue
        body["CustomRoleArn"] = configuration.roleARN.map { .string($0) }
        let response: CredentialsResponse = try await call(.getCredentialsForIdentity, body)
        guard let credentials = response.credentials, let keyId = credentials.accessKeyId, !keyId.isEmpty,
            let secretKey = credentials.secretKey, let sessionToken = credentials.sessionToken,
            let expiration = credentials.expiration
        else {
            throw .invalidResponse(
                operation: IdentityPoolOperation.getCredentialsForIdentity.rawValue,
                reason: "the answer lacks the credentials or their expiry")
        }
        guard ServerTime.unixSeconds.contains(expiration) else {
            throw .invalidResponse(
                operation: IdentityPoolOperation.getCredentialsForIdentity.rawValue,
                reason: "the credentials' expiry is not a time between 1970 and 9999")
        }
        return AWSCredentials(
            accessKeyId: keyId, secretAccessKey: SecretBytes(utf8: secretKey),
            sessionToken: SecretBytes(utf8: sessionToken), expiresAt: expiration,
            identityId: response.identityId ?? identityId)
    }

    /// One call, with the identity service's meanings for the error types the user-pool API shares.
    private func call<Response: Decodable>(
        _ operation: IdentityPoolOperation, _ body: [String: JSONValue]
    ) async throws(CognitoError) -> Response {
        do {
            return try await api.call(operation, body)
        } catch {
            switch error {
            case .notAuthorized(let message): throw .identityNotAuthorized(message: message)
            case .resourceNotFound(let message): throw .identityPoolNotFound(message: message)
            default: throw error
            }
        }
    }
}

private struct IdentityIdResponse: Decodable {
    let identityId: String?

    enum CodingKeys: String, CodingKey { case identityId = "IdentityId" }
}

private struct CredentialsResponse: Decodable {
    let identityId: String?
    let credentials: Credentials?

    enum CodingKeys: String, CodingKey {
        case identityId = "IdentityId"
        case credentials = "Credentials"
    }

    struct Credentials: Decodable {
        let accessKeyId: String?
        let secretKey: String?
        let sessionToken: String?
        /// Epoch seconds, possibly with a fraction.
        let expiration: Double?

        enum CodingKeys: String, CodingKey {
            case accessKeyId = "AccessKeyId"
            case secretKey = "SecretKey"
            case sessionToken = "SessionToken"
            case expiration = "Expiration"
        }
    }
}
