import CognitoAuth
import HTTPTransport
import TokenVault

/// What `configure` is asked to do to one profile: where its endpoints come from (an OpenID discovery document, an
/// Amplify outputs file) and the settings given one by one, which win over both.
public struct ProfileConfigurationChange {
    public var profile: String
    /// An OpenID provider's issuer or discovery document URL, read before anything is written.
    public var discoveryURL: String?
    /// The CA bundle to fetch the discovery document with: the one being set, else the profile's.
    public var caBundle: String?
    /// An Amplify Gen 2 `amplify_outputs.json` to take the pool, client and Hosted UI from.
    public var amplifyOutputs: String?
    /// The settings given one by one, checked as they are applied.
    public var edit: (inout ProfileSettings) throws(ConfigError) -> Void

    public init(
        profile: String, discoveryURL: String? = nil, caBundle: String? = nil, amplifyOutputs: String? = nil,
        edit: @escaping (inout ProfileSettings) throws(ConfigError) -> Void
    ) {
        self.profile = profile
        self.discoveryURL = discoveryURL
        self.caBundle = caBundle
        self.amplifyOutputs = amplifyOutputs
        self.edit = edit
    }
}

/// What `configure` did: the profile written, whose issuer the discovery document named, what the Amplify outputs
/// left out, and the vault backend chosen for a profile on `auto` that had none yet.
public struct ProfileConfigured: Sendable {
    public let created: Bool
    public let path: String
    /// The discovery document's issuer (or its URL, when it names none); nil without discovery.
    public let discoveredFrom: String?
    public let amplifyAdoption: AmplifyOutputs.Adoption?
    /// The backend chosen now; nil when the profile names one or had one already.
    public let chosenBackend: VaultBackendKind?
}

extension Application {
    /// Configures a profile: its discovery document fetched first (a wrong URL changes nothing), then the file
    /// updated in one locked rewrite (discovery, then the Amplify outputs, then each setting given), the result
    /// checked as a whole, and a profile on `auto` given its vault backend once, so later runs never probe again.
    public func configure(_ change: ProfileConfigurationChange) async throws(ApplicationError) -> ProfileConfigured {
        let name = change.profile
        let discovered = try await discover(change)
        var created = false
        var adoption: AmplifyOutputs.Adoption?
        do throws(ConfigError) {
            try ProfileValidation.profileName(name)
            let amplify = try change.amplifyOutputs.map(AmplifyOutputs.read)
            try configStore.update { (file: inout ConfigFile) throws(ConfigError) in
                created = file.profiles[name] == nil
                var settings = file.profiles[name] ?? ProfileSettings()
                if let discovered { Self.adopt(discovered, into: &settings) }
                adoption = amplify?.adopt(into: &settings)
                try change.edit(&settings)
                try ProfileValidation.poolChange(from: file.profiles[name], to: settings)
                _ = try ResolvedProfile(name: name, settings: settings)
                file.profiles[name] = settings
            }
        } catch {
            throw .configuration(error)
        }
        return ProfileConfigured(
            created: created, path: configPath,
            discoveredFrom: discovered.map { $0.issuer ?? change.discoveryURL ?? "" },
            amplifyAdoption: adoption, chosenBackend: try await chooseBackendIfUndecided(name))
    }

    /// The provider's discovery document, its URL checked as every URL setting is before anything is fetched.
    private func discover(_ change: ProfileConfigurationChange) async throws(ApplicationError) -> OAuthEndpoints? {
        guard let url = change.discoveryURL, !url.isEmpty else { return nil }
        do { try ProfileValidation.serviceURL(url, option: "oidc-discovery") } catch { throw .configuration(error) }
        let caBundle = change.caBundle ?? (try? configStore.load().profiles[change.profile]?.caBundle) ?? nil
        let transport = CurlTransport(
            configuration: CurlTransportConfiguration(
                caBundlePath: caBundle, userAgent: userAgent,
                proxy: proxySettings, trace: trace))
        do { return try await OAuthEndpoints.discover(url, transport: transport) } catch {
            throw .discovery(url: url, ApplicationError(error, need: SignInNeed(profile: change.profile)))
        }
    }

    /// A discovery document's endpoints, issuer and key URL; the settings given one by one come after and win.
    private static func adopt(_ endpoints: OAuthEndpoints, into settings: inout ProfileSettings) {
        var set = OAuthEndpointSettings()
        set.authorization = endpoints.authorization
        set.token = endpoints.token
        set.userInfo = endpoints.userInfo
        set.revocation = endpoints.revocation
        set.logout = endpoints.logout
        set.deviceAuthorization = endpoints.deviceAuthorization
        set.logoutStyle = endpoints.logoutStyle == .cognito ? .cognito : .oidc
        settings.oauthEndpoints = set
        settings.issuer = endpoints.issuer ?? settings.issuer
        settings.jwksURL = endpoints.jwksURL ?? settings.jwksURL
    }

    /// The backend of a profile on `auto` that has none recorded yet, chosen now; nil when there was nothing to choose.
    private func chooseBackendIfUndecided(_ name: String) async throws(ApplicationError) -> VaultBackendKind? {
        let configuration: ConfigFile
        do { configuration = try configStore.load() } catch { throw .configuration(error) }
        let factory = vaults(for: configuration)
        guard (configuration.profiles[name]?.vault ?? .auto) == .auto, try factory.knownBackend(for: name) == nil else {
            return nil
        }
        return try await factory.selectBackend(for: name).1
    }
}
