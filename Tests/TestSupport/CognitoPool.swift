import Foundation

/// One test's user pool and app client in the shared moto server, and its users, made through moto's admin API.
/// The app client allows SRP, the password flow and refresh; with `withSecret` it has a client secret.
public struct CognitoPool: Sendable {
    public let moto: MotoServer
    public let poolId: String
    public let clientId: String
    public let clientSecret: String?

    public var jwksURL: String { moto.jwksURL(poolId: poolId) }
    public var issuer: String { MotoServer.issuer(poolId: poolId) }

    /// - Parameter server: the emulator to make it in (the shared moto server when nil).
    public static func make(withSecret: Bool = false, on server: MotoServer? = nil) async throws -> CognitoPool {
        let moto = if let server { server } else { try await MotoServer.shared() }
        let pool = try await moto.call("CreateUserPool", ["PoolName": "e2e-\(UUID().uuidString.prefix(8))"])
        guard let poolId = (pool["UserPool"] as? [String: Any])?["Id"] as? String else {
            throw TestFixtureError("CreateUserPool answered no id")
        }
        let created = try await moto.call(
            "CreateUserPoolClient",
            [
                "UserPoolId": poolId, "ClientName": "authvault-e2e", "GenerateSecret": withSecret,
                "ExplicitAuthFlows": ["ALLOW_USER_SRP_AUTH", "ALLOW_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"],
            ])
        guard let client = created["UserPoolClient"] as? [String: Any], let clientId = client["ClientId"] as? String
        else {
            throw TestFixtureError("CreateUserPoolClient answered no client")
        }
        let secret = client["ClientSecret"] as? String
        if withSecret && secret == nil { throw TestFixtureError("moto generated no client secret") }
        return CognitoPool(moto: moto, poolId: poolId, clientId: clientId, clientSecret: secret)
    }

    /// A confirmed user with a permanent password.
    public func createUser(_ username: String, password: String) async throws {
        try await createUser(username, temporaryPassword: password)
        try await moto.call(
            "AdminSetUserPassword",
            ["UserPoolId": poolId, "Username": username, "Password": password, "Permanent": true])
    }

    /// A user as an administrator creates one (FORCE_CHANGE_PASSWORD): sign-in asks for a new password.
    public func createUser(_ username: String, temporaryPassword: String) async throws {
        try await moto.call(
            "AdminCreateUser",
            [
                "UserPoolId": poolId, "Username": username,
                "TemporaryPassword": temporaryPassword, "MessageAction": "SUPPRESS",
            ])
    }

    public func userStatus(_ username: String) async throws -> String? {
        try await moto.call("AdminGetUser", ["UserPoolId": poolId, "Username": username])["UserStatus"] as? String
    }

    /// The user's `sub` attribute, as an administrator reads it (AdminGetUser).
    public func subject(of username: String) async throws -> String? {
        let user = try await moto.call("AdminGetUser", ["UserPoolId": poolId, "Username": username])
        let attributes = user["UserAttributes"] as? [[String: Any]] ?? []
        return attributes.first { $0["Name"] as? String == "sub" }?["Value"] as? String
    }

    /// The user moto issued `accessToken` to: moto answers GetUser only for access tokens it keeps.
    public func owner(ofAccessToken accessToken: String) async throws -> String? {
        try await moto.call("GetUser", ["AccessToken": accessToken])["Username"] as? String
    }

    /// AdminUserGlobalSignOut: moto forgets the user's access tokens and revokes their refresh tokens.
    public func signOutEverywhere(_ username: String) async throws {
        try await moto.call("AdminUserGlobalSignOut", ["UserPoolId": poolId, "Username": username])
    }

    /// Turns on an authenticator app for the user and prefers it, as the user would with their access token.
    /// The codes are RFC 6238's, computed by python (`TOTPCode`).
    public func enableAuthenticator(accessToken: String) async throws {
        let associated = try await moto.call("AssociateSoftwareToken", ["AccessToken": accessToken])
        guard let secret = associated["SecretCode"] as? String else {
            throw TestFixtureError("AssociateSoftwareToken answered no secret")
        }
        try await moto.call(
            "VerifySoftwareToken", ["AccessToken": accessToken, "UserCode": try await TOTPCode.current(secret: secret)])
        try await moto.call(
            "SetUserMFAPreference",
            [
                "AccessToken": accessToken,
                "SoftwareTokenMfaSettings": ["Enabled": true, "PreferredMfa": true],
            ])
    }
}
