import CognitoAuth
import FoundationEssentials
import HTTPTransport
import TokenVault

extension ProfileSession {
    /// A profile's session built in code, for a program that embeds AuthVault: no configuration file, no environment
    /// variable, no prompt. It is assembled as `Application.openProfile` assembles a configured profile's, and its
    /// files stay inside the vault's directory (see `VaultSettings`).
    /// - Parameters:
    ///   - profile: the name the vault keeps the record and the lock file under: 1 to 64 letters, digits, '-', '_'
    ///     or '.', not starting with '.'.
    ///   - settings: the identity provider, as `ProfileSettings.cognito` or `.openIDProvider` make them; each value is
    ///     checked as `authvault configure` checks it. Their `vault` is not read: the vault is `vault`.
    ///   - proxy: the HTTPS proxy to go through; none unless given (no `https_proxy` is read).
    ///   - refreshesInBackground: true for a long-lived process, which then refreshes in the advisory window without
    ///     making a caller wait; false for one that exits after answering (see `AuthStore.init`).
    /// - Throws: `.configuration` for a name, a setting or a directory that cannot be used; nothing is written then.
    public static func open(
        profile: String = "default", settings: ProfileSettings, vault: VaultSettings, userAgent: String = "authvault",
        proxy: HTTPProxySettings = .init(), refreshesInBackground: Bool = false
    ) throws(ApplicationError) -> ProfileSession {
        let resolved: ResolvedProfile
        do {
            try ProfileValidation.profileName(profile)
            try ProfileValidation.check(settings)
            try ProfileValidation.vaultDirectory(vault.directory)
            resolved = try ResolvedProfile(name: profile, settings: settings)
        } catch {
            throw .configuration(error)
        }
        let backend = vault.backend(profile: profile, binding: settings.binding)
        let connection = ProviderConnection(
            userAgent: userAgent, proxy: proxy, now: { Date().timeIntervalSince1970 },
            clock: ServerClock(), trace: .off, browserHost: .unknown)
        return ProfileSession(
            profile: resolved, vault: backend, backend: backend.kind,
            lock: VaultFactory.lock(for: profile, in: vault.directory, trace: .off),
            connection: connection, refreshesInBackground: refreshesInBackground, devicePolicy: nil)
    }
}

extension ProfileSettings {
    /// A Cognito user pool's app client. The region defaults to the pool id's; `endpoint` and `jwksURL` point at an
    /// emulator or a VPC endpoint (default: Cognito's own, and the JWKS under the pool's issuer).
    public static func cognito(
        region: String? = nil, userPoolId: String, clientId: String, endpoint: String? = nil, jwksURL: String? = nil
    ) -> ProfileSettings {
        var settings = ProfileSettings()
        settings.region = region
        settings.userPoolId = userPoolId
        settings.clientId = clientId
        settings.endpoint = endpoint
        settings.jwksURL = jwksURL
        return settings
    }

    /// Another OpenID provider's client, which signs in through a browser (`BrowserSignIn`): its issuer; set the
    /// endpoints its discovery document names (`OAuthEndpoints.discover`) in `oauthEndpoints`, and `redirectURIs`.
    public static func openIDProvider(issuer: String, clientId: String, jwksURL: String? = nil) -> ProfileSettings {
        var settings = ProfileSettings()
        settings.issuer = issuer
        settings.clientId = clientId
        settings.jwksURL = jwksURL
        return settings
    }
}
