import AuthStore

/// How a sign-out went, with the logout page that ends the browser's session too when one was asked for.
public struct SignOut: Sendable {
    public let profile: String
    public let result: SignOutResult
    /// The Hosted UI's (or the provider's) logout URL; it names the client, never the ID token.
    public let logoutPage: String?
    /// Whether the profile signs in at another OpenID provider rather than a Cognito user pool.
    public let atOtherProvider: Bool
    /// What is still to be revoked once it is done (this sign-out's refresh token, if the server could not be reached).
    public let pendingRevocations: [PendingSignOut]
}

extension Application {
    /// Signs the profile out: its tokens go from this machine first, then they are revoked (and with `everywhere`,
    /// every device's refresh token stops working). A remote failure leaves the local sign-out standing.
    /// An earlier sign-out's revocation that could not be done is tried again first.
    /// - Parameter logoutPage: also build the logout URL for the browser, before anything changes, so a profile with no
    ///   logout endpoint changes nothing.
    /// - Parameter forgetPending: drop the revocations still to be done instead of trying them (this one's included).
    public func signOut(profile: String, everywhere: Bool, logoutPage: Bool, forgetPending: Bool = false)
        async throws(ApplicationError) -> SignOut
    {
        let session = try await openProfile(named: profile)
        let otherProvider = session.profile.userPoolId == nil
        if everywhere && otherProvider { throw .globalSignOutWithoutUserPool(profile: session.profile.name) }
        var page: String?
        if logoutPage {
            do {
                page = try await session.authority.oauthClient().logoutURL(
                    postLogoutRedirectURI: session.profile.signOutURI)
            } catch {
                throw .noLogoutPage(Cause(error))
            }
        }
        let result = await session.store.signOut(global: everywhere, forgetPending: forgetPending)
        let profile = session.profile
        let pending = await session.store.pendingRevocations().map { PendingSignOut($0, of: profile) }
        return SignOut(
            profile: profile.name, result: result, logoutPage: page, atOtherProvider: otherProvider,
            pendingRevocations: pending)
    }
}
