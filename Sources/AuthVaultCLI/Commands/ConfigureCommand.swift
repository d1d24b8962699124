import AuthVaultApp

/// `authvault configure`: writes or updates one profile from flags.
struct ConfigureCommand: CLICommand {
    static let region = OptionSpec.value(
        "region", placeholder: "region", help: "AWS region of the user pool (default: the pool id's prefix).")
    static let userPoolId = OptionSpec.value(
        "user-pool-id", placeholder: "id", help: "The user pool id, such as eu-west-1_AbC123xyz.")
    static let clientId = OptionSpec.value("client-id", placeholder: "id", help: "The app client id.")
    static let endpoint = OptionSpec.value(
        "endpoint", placeholder: "url", help: "Cognito API URL override (emulators, VPC endpoints).")
    static let issuer = OptionSpec.value(
        "issuer", placeholder: "url", help: "Expected token issuer (default: derived from region and pool).")
    static let jwksURL = OptionSpec.value(
        "jwks-url", placeholder: "url", help: "Where to fetch signing keys (default: <issuer>/.well-known/jwks.json).")
    static let hostedUI = OptionSpec.value(
        "hosted-ui", placeholder: "url",
        help: "The Hosted UI base URL, such as https://PREFIX.auth.REGION.amazoncognito.com.")
    static let redirectURI = OptionSpec.repeatable(
        "redirect-uri", placeholder: "url", help: "A callback URL registered on the app client; replaces the list.")
    static let scopes = OptionSpec.value(
        "scopes", placeholder: "scopes",
        help:
            "OAuth scopes, space- or comma-separated (default: openid email profile; with --grant client-credentials, the client's own)."
    )
    static let identityProvider = OptionSpec.value(
        "identity-provider", placeholder: "name",
        help:
            "The federated provider a browser sign-in goes straight to, e.g. Google (default: none, the Hosted UI page lists the pool's providers; '' clears)."
    )
    static let oidcDiscovery = OptionSpec.value(
        "oidc-discovery", placeholder: "url",
        help:
            "Read the OAuth endpoints, issuer and JWKS URL from an OpenID provider's discovery document (its issuer or the document's URL)."
    )
    static let authorizeURL = OptionSpec.value(
        "authorize-url", placeholder: "url",
        help: "The authorization endpoint, in place of the Hosted UI's /oauth2/authorize.")
    static let tokenURL = OptionSpec.value(
        "token-url", placeholder: "url", help: "The token endpoint, in place of the Hosted UI's /oauth2/token.")
    static let userInfoURL = OptionSpec.value(
        "userinfo-url", placeholder: "url", help: "The userinfo endpoint, in place of the Hosted UI's /oauth2/userInfo."
    )
    static let revokeURL = OptionSpec.value(
        "revoke-url", placeholder: "url", help: "The revocation endpoint, in place of the Hosted UI's /oauth2/revoke.")
    static let logoutURL = OptionSpec.value(
        "logout-url", placeholder: "url", help: "The logout endpoint, in place of the Hosted UI's /logout.")
    static let deviceAuthorizationURL = OptionSpec.value(
        "device-authorization-url", placeholder: "url",
        help: "The device authorization endpoint (RFC 8628), for 'login --device' where discovery does not name it.")
    static let logoutStyle = TypedOption<ConfiguredValue<OAuthEndpointSettings.LogoutStyleChoice>?>.setting(
        "logout-style",
        help: "The logout endpoint's parameters: Cognito's logout_uri or OpenID's post_logout_redirect_uri.",
        default: .cognito)
    static let signOutURI = OptionSpec.value(
        "sign-out-uri", placeholder: "url",
        help: "A sign-out URL registered on the app client, where 'logout --browser' lands.")
    static let vault = TypedOption<ConfiguredValue<VaultChoice>?>.setting(
        "vault", help: "Where tokens are kept.", default: .auto)
    static let authFlow = TypedOption<ConfiguredValue<AuthFlowChoice>?>.setting(
        "auth-flow", help: "How 'login' signs in without a browser.", default: .srp)
    static let rotateRefreshTokens = TypedOption<ConfiguredValue<Bool>?>.setting(
        "rotate-refresh-tokens", placeholder: "true|false", help: "The app client rotates refresh tokens.",
        expected: "true or false",
        default: "false",
        parse: { ["true": true, "yes": true, "on": true, "false": false, "no": false, "off": false][$0] })
    static let helperSignIn = TypedOption<ConfiguredValue<Bool>?>.setting(
        "helper-sign-in", placeholder: "on|off",
        help:
            "A helper or 'token' without a session signs in on your terminal (/dev/tty) or desktop first, as 'login' would.",
        expected: "on or off", default: "off", completion: .words(["on", "off"]),
        parse: { ["on": true, "true": true, "off": false, "false": false][$0] })
    static let caBundle = OptionSpec.value(
        "ca-bundle", placeholder: "path", help: "PEM file of CAs to trust instead of the system's (a private CA).",
        completion: .file)
    static let helperHost = OptionSpec.repeatable(
        "helper-host", placeholder: "host",
        help:
            "Add a host the helpers (git, docker, kubectl, Vault) hand this profile's token to, over https only: host (any port) or host:port; host[:port]/path-prefix serves git only for repositories under that path (whole segments, with git's credential.useHttpPath); '' clears the list."
    )
    static let removeHelperHost = OptionSpec.repeatable(
        "remove-helper-host", placeholder: "host", help: "Remove a host from the helper hosts.")
    static let identityPoolId = OptionSpec.value(
        "identity-pool-id", placeholder: "id",
        help:
            "A Cognito identity pool (REGION:GUID) that gives AWS credentials for the session ('authvault aws-credentials')."
    )
    static let identityEndpoint = OptionSpec.value(
        "identity-endpoint", placeholder: "url",
        help: "The identity pool's service URL override (emulators, VPC endpoints).")
    static let awsRoleARN = OptionSpec.value(
        "aws-role-arn", placeholder: "arn",
        help: "One of the identity pool's roles to ask for (default: the pool's choice).")
    static let grant = TypedOption<ConfiguredValue<GrantChoice>?>.setting(
        "grant",
        help:
            "Who signs in: a user ('authvault login'), or the app client itself with its secret (machine sign-in: no login).",
        default: .user)
    static let clientSecretStdin = OptionSpec.flag(
        "client-secret-stdin", help: "Read the app client's secret from standard input and keep it in the vault.")
    static let refreshTokenValidity = TypedOption<ConfiguredValue<Int>?>.setting(
        "refresh-token-validity", placeholder: "duration",
        help:
            "The app client's refresh-token validity (such as 30d, 12h or 90m), so status can say when a session ends.",
        expected: "a duration from 60m to 3650d (a number with d, h, m or s)", default: "unknown",
        parse: RefreshTokenValidity.seconds)
    static let fromAmplifyOutputs = OptionSpec.value(
        "from-amplify-outputs", placeholder: "path",
        help:
            "Read the pool, app client, region, OAuth domain, scopes and redirect URIs from an Amplify Gen 2 amplify_outputs.json; other options given win.",
        completion: .file)

    static let name = "configure"

    static let spec = CommandSpec(
        name: name,
        abstract: "Create or update a profile.",
        discussion: """
            Only the options given are changed; an empty value ('') resets an option to its default. A change of
            --user-pool-id is refused while --jwks-url, --issuer or --endpoint still names the old pool: give the new
            pool's URL in the same command, or '' for its default.
            A new profile needs at least --user-pool-id and --client-id, or for any other OpenID provider
            --oidc-discovery, --client-id and --redirect-uri. Secrets never go into the
            configuration file: --client-secret-stdin stores the app client's secret in the profile's vault record,
            and an empty line removes it.
            """,
        options: [
            region, userPoolId, clientId, endpoint, issuer, jwksURL, hostedUI, redirectURI, scopes,
            identityProvider, oidcDiscovery, authorizeURL, tokenURL, userInfoURL, revokeURL, logoutURL,
            deviceAuthorizationURL, logoutStyle.spec,
            signOutURI, vault.spec, authFlow.spec, rotateRefreshTokens.spec, caBundle, helperHost, removeHelperHost,
            identityPoolId, identityEndpoint,
            awsRoleARN, grant.spec, clientSecretStdin, refreshTokenValidity.spec, fromAmplifyOutputs, helperSignIn.spec,
        ]
    )

    let arguments: ParsedArguments
    let logoutStyleValue: ConfiguredValue<OAuthEndpointSettings.LogoutStyleChoice>?
    let vaultValue: ConfiguredValue<VaultChoice>?
    let authFlowValue: ConfiguredValue<AuthFlowChoice>?
    let rotationValue: ConfiguredValue<Bool>?
    let grantValue: ConfiguredValue<GrantChoice>?
    let refreshValidityValue: ConfiguredValue<Int>?
    let helperSignInValue: ConfiguredValue<Bool>?

    init(arguments: ParsedArguments) throws(UsageError) {
        self.arguments = arguments
        logoutStyleValue = try arguments.value(Self.logoutStyle)
        vaultValue = try arguments.value(Self.vault)
        authFlowValue = try arguments.value(Self.authFlow)
        rotationValue = try arguments.value(Self.rotateRefreshTokens)
        grantValue = try arguments.value(Self.grant)
        refreshValidityValue = try arguments.value(Self.refreshTokenValidity)
        helperSignInValue = try arguments.value(Self.helperSignIn)
        let given = Self.spec.options.contains { arguments.flag($0) || !arguments.values($0).isEmpty }
        guard given else {
            throw UsageError("Nothing to configure: give at least one option.", commandPath: "authvault configure")
        }
    }

    func run(in context: CommandContext) async throws(CLIError) {
        let name = context.profileName
        let change = ProfileConfigurationChange(
            profile: name, discoveryURL: arguments.value(Self.oidcDiscovery),
            caBundle: arguments.value(Self.caBundle).flatMap { $0.isEmpty ? nil : $0 },
            amplifyOutputs: arguments.value(Self.fromAmplifyOutputs)
        ) { (settings: inout ProfileSettings) throws(ConfigError) in
            try apply(to: &settings)
        }
        let done: ProfileConfigured
        do { done = try await context.application.configure(change) } catch {
            throw CLIErrors.from(error, profile: name)
        }
        if let issuer = done.discoveredFrom {
            context.standardError.line(
                "Read the endpoints of \(ServerText.escaped(issuer)) from its discovery document.")
        }
        context.standardError.line("\(done.created ? "Created" : "Updated") profile '\(name)' in \(done.path).")
        if let adoption = done.amplifyAdoption { explain(adoption, context: context) }
        if done.chosenBackend == .secretService {
            context.standardError.line(
                "Profile '\(name)' keeps its tokens in the Secret Service (the default collection).")
        }
        if arguments.flag(Self.clientSecretStdin) { try await storeClientSecret(context: context) }
    }

    /// What `--from-amplify-outputs` did not take, said once.
    private func explain(_ adoption: AmplifyOutputs.Adoption, context: CommandContext) {
        if !adoption.skippedRedirectURIs.isEmpty {
            context.standardError.line(
                "Not taken from the Amplify outputs (a sign-in here listens on loopback only): "
                    + adoption.skippedRedirectURIs.joined(separator: ", ")
                    + ". Register a loopback callback such as http://127.0.0.1:8400/callback and add it with --redirect-uri."
            )
        }
    }

    /// Keeps the app client's secret in the vault record, beside any session.
    private func storeClientSecret(context: CommandContext) async throws(CLIError) {
        guard var secret = context.standardInput.firstLine() else {
            throw CLIError("--client-secret-stdin was given but standard input is empty.", status: .usage)
        }
        defer { secret.wipe() }
        let session = try await ProfileSession.open(context)
        let profile = session.profile.name
        let value = secret.isEmpty ? nil : SecretBytes(secret)
        try await application(for: profile) { () async throws(ApplicationError) in
            try await session.storeClientSecret(value)
        }
        context.standardError.line(
            value == nil
                ? "Removed the client secret of profile '\(profile)'."
                : "Stored the client secret of profile '\(profile)' in \(session.backend.rawValue).")
    }

    private func apply(to settings: inout ProfileSettings) throws(ConfigError) {
        try set(&settings.region, Self.region, check: ProfileValidation.region)
        try set(&settings.userPoolId, Self.userPoolId, check: ProfileValidation.userPoolId)
        try set(&settings.clientId, Self.clientId, check: ProfileValidation.clientId)
        try set(&settings.endpoint, Self.endpoint) { (value: String) throws(ConfigError) in
            try ProfileValidation.serviceURL(value, option: "endpoint")
        }
        try set(&settings.issuer, Self.issuer) { (value: String) throws(ConfigError) in
            try ProfileValidation.serviceURL(value, option: "issuer")
        }
        try set(&settings.jwksURL, Self.jwksURL) { (value: String) throws(ConfigError) in
            try ProfileValidation.serviceURL(value, option: "jwks-url")
        }
        try set(&settings.hostedUI, Self.hostedUI, check: ProfileValidation.hostedUI)
        var endpoints = settings.oauthEndpoints ?? OAuthEndpointSettings()
        for (field, option) in [
            (\OAuthEndpointSettings.authorization, Self.authorizeURL), (\.token, Self.tokenURL),
            (\.userInfo, Self.userInfoURL), (\.revocation, Self.revokeURL), (\.logout, Self.logoutURL),
            (\.deviceAuthorization, Self.deviceAuthorizationURL),
        ] {
            try set(&endpoints[keyPath: field], option) { (value: String) throws(ConfigError) in
                try ProfileValidation.serviceURL(value, option: option.long)
            }
        }
        logoutStyleValue?.apply(to: &endpoints.logoutStyle)
        settings.oauthEndpoints = endpoints == OAuthEndpointSettings() ? nil : endpoints
        try set(&settings.signOutURI, Self.signOutURI) { (value: String) throws(ConfigError) in
            try ProfileValidation.serviceURL(value, option: "sign-out-uri")
        }
        if let provider = arguments.value(Self.identityProvider) {
            settings.identityProvider = provider
        }
        let redirects = arguments.values(Self.redirectURI)
        if !redirects.isEmpty {
            let kept = redirects.filter { !$0.isEmpty }
            for uri in kept { try ProfileValidation.redirectURI(uri) }
            settings.redirectURIs = kept.isEmpty ? nil : kept
        }
        try settings.editHelperHosts(
            adding: arguments.values(Self.helperHost), removing: arguments.values(Self.removeHelperHost))
        if let scopes = arguments.value(Self.scopes) {
            let list = scopes.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
            for scope in list { try ProfileValidation.scope(scope) }
            settings.scopes = list.isEmpty ? nil : list
        }
        try set(&settings.caBundle, Self.caBundle, check: ProfileValidation.caBundle)
        try set(&settings.identityPoolId, Self.identityPoolId, check: ProfileValidation.identityPoolId)
        try set(&settings.identityEndpoint, Self.identityEndpoint) { (value: String) throws(ConfigError) in
            try ProfileValidation.serviceURL(value, option: "identity-endpoint")
        }
        try set(&settings.awsRoleARN, Self.awsRoleARN, check: ProfileValidation.roleARN)
        authFlowValue?.apply(to: &settings.authFlow)
        rotationValue?.apply(to: &settings.rotateRefreshTokens)
        refreshValidityValue?.apply(to: &settings.refreshTokenValidity)
        vaultValue?.apply(to: &settings.vault)
        grantValue?.apply(to: &settings.grant)
        helperSignInValue?.apply(to: &settings.helperSignIn)
    }

    /// Sets a field from its option when given: '' clears it, anything else is checked first.
    private func set(
        _ field: inout String?, _ option: OptionSpec, check: (String) throws(ConfigError) -> Void
    ) throws(ConfigError) {
        guard let value = arguments.value(option) else { return }
        if value.isEmpty {
            field = nil
        } else {
            try check(value)
            field = value
        }
    }
}
