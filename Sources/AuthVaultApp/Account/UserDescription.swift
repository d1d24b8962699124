import CognitoAuth
import TokenVault

/// The signed-in user as their identity provider describes them now, beside what the vault recorded at sign-in;
/// `whoami --json` prints it as docs/whoami.schema.json describes it.
public struct UserDescription: Sendable, Encodable {
    /// `schemaVersion`: raised only when a field changes meaning or goes; new fields keep it.
    public static let schemaVersion = 1

    public let schemaVersion = UserDescription.schemaVersion
    public let profile: String
    public let username: String
    public let attributes: [String: String]
    public let preferredMFA: String?
    /// Nil for a browser sign-in: the userinfo endpoint does not tell.
    public let enabledMFA: [String]?
    /// `user-pool-api` (GetUser) or `browser` (userinfo).
    public let source: String
    /// What the vault recorded at sign-in, from the verified ID token.
    public let stored: UserIdentity?
}

extension Application {
    /// GetUser with the session's access token, or for a browser sign-in the authorization server's userinfo
    /// endpoint; the token is refreshed first when it is due.
    func describeUser(_ session: ProfileSession) async throws(ApplicationError) -> UserDescription {
        let accessToken = try await session.accessToken()
        let stored = await session.store.recordFacts()
        let name = session.profile.name
        guard stored?.origin == .browser else {
            let user = try await session.withToken(accessToken) { client, token throws(CognitoError) in
                try await client.user(accessToken: token)
            }
            return UserDescription(
                profile: name, username: user.username, attributes: user.attributes,
                preferredMFA: user.preferredMFA?.rawValue, enabledMFA: user.enabledMFA.map(\.rawValue),
                source: "user-pool-api", stored: stored?.identity)
        }
        let info: OAuthUserInfo
        do {
            info = try await session.authority.oauthClient().userInfo(
                accessToken: accessToken, expectedSubject: stored?.identity?.subject)
        } catch {
            throw ApplicationError(error, need: session.signInNeed)
        }
        return UserDescription(
            profile: name, username: info.username ?? stored?.identity?.username ?? info.subject,
            attributes: info.claims.compactMapValues { $0.string }, preferredMFA: nil, enabledMFA: nil,
            source: "browser", stored: stored?.identity)
    }
}
