import AuthStore
import CognitoAuth

/// A machine profile as `whoami` shows it: its app client signs in as itself (client credentials), so there is no
/// user to describe, only the client, the scopes it asks for and the token the provider gave it.
public struct MachineDescription: Sendable, Encodable {
    /// The same schema as a user's (docs/whoami.schema.json), told apart by `source`.
    public let schemaVersion = UserDescription.schemaVersion
    public let profile: String
    public let clientId: String
    /// The scopes the profile asks for; empty: the app client's own.
    public let scopes: [String]
    /// Unix seconds, this machine's clock; nil for an opaque token whose expiry the provider did not say.
    public let accessTokenExpiresAt: Double?
    public let source = "client-credentials"
}

/// Who a profile's session is: a user, or for a machine profile its app client.
public enum SessionIdentity: Sendable {
    case user(UserDescription)
    case machine(MachineDescription)
}

extension Application {
    /// The user as their identity provider describes them now (`describeUser`), or for a machine profile its app
    /// client with a valid token, fetched when due: that the provider issues one is what the client can prove.
    public func describeIdentity(profile: String) async throws(ApplicationError) -> SessionIdentity {
        let session = try await openProfile(named: profile)
        guard session.profile.grant == .clientCredentials else { return .user(try await describeUser(session)) }
        let served: ServedToken
        do { served = try await session.store.validToken(.access) } catch {
            throw ApplicationError(error, need: session.signInNeed)
        }
        return .machine(
            MachineDescription(
                profile: session.profile.name, clientId: session.profile.clientId, scopes: session.profile.scopes,
                accessTokenExpiresAt: served.expiresAt.map { session.store.clock.localTime(ofProviderTime: $0) }))
    }
}
