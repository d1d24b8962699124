import AuthVaultApp
import Testing

/// How `login` (and a helper's own sign-in, which is a plain login) reaches the person: decided from what was
/// asked, the profile and the place, with no terminal or process needed.
@Suite struct SignInRouteTests {
    /// How a profile of these tests signs in: a user pool by the API alone, or with a Hosted UI; another OpenID
    /// provider, with or without the device grant.
    enum Kind: CaseIterable { case userPool, hostedUI, openID, openIDWithDevice }

    static func profile(_ kind: Kind, grant: GrantChoice = .user, flow: AuthFlowChoice? = nil) throws
        -> ResolvedProfile
    {
        var settings = ProfileSettings()
        settings.clientId = "cli"
        settings.grant = grant
        settings.authFlow = flow
        switch kind {
        case .userPool, .hostedUI:
            settings.userPoolId = "eu-west-1_abc"
            settings.hostedUI = kind == .hostedUI ? "https://app.auth.eu-west-1.amazoncognito.com" : nil
        case .openID, .openIDWithDevice:
            settings.issuer = "https://idp.example.com"
            var endpoints = OAuthEndpointSettings()
            endpoints.authorization = "https://idp.example.com/authorize"
            endpoints.token = "https://idp.example.com/token"
            endpoints.deviceAuthorization = kind == .openIDWithDevice ? "https://idp.example.com/device" : nil
            settings.oauthEndpoints = endpoints
        }
        return try ResolvedProfile(name: "work", settings: settings)
    }

    static func route(
        _ profile: ResolvedProfile, _ asked: SignInRoute.Asked = .plain, interactive: Bool = true,
        forbidden: Bool = false, host: BrowserHost
    ) -> Result<SignInRoute, SignInRoute.Refusal> {
        Result { () throws(SignInRoute.Refusal) in
            try SignInRoute.choose(
                asked, profile: profile, interactive: interactive, promptsForbidden: forbidden, host: host)
        }
    }

    @Test func aPlainLoginOpensTheBrowserOnADesktopAndUsesACodeWhereNoneCanBeOpened() throws {
        let device = try Self.profile(.openIDWithDevice)
        #expect(try Self.route(device, host: .desktop).get() == .browser(.open(command: nil)))
        #expect(try Self.route(device, host: .none).get() == .device(automatic: true))
        #expect(
            try Self.route(device, host: .ssh(serverAddress: nil, serverPort: nil)).get() == .device(automatic: true))
        let pool = try Self.profile(.hostedUI)
        #expect(try Self.route(pool, host: .ssh(serverAddress: nil, serverPort: nil)).get() == .browser(.printURL))
        guard case .failure(.noDesktop) = Self.route(pool, host: .none) else {
            Issue.record("no desktop, no SSH, no device grant: nothing to open")
            return
        }
    }

    @Test func withoutATerminalAPlainLoginNeverWaitsAndABrowserAskedForByNameIsRefusedWhenForbidden() throws {
        let device = try Self.profile(.openIDWithDevice)
        guard case .failure(.noTerminal) = Self.route(device, interactive: false, host: .desktop) else {
            Issue.record("a plain login without a terminal opens nothing")
            return
        }
        let browser = SignInRoute.Asked(
            mode: .browser, browserCommand: nil, browserOptionGiven: true, userPoolOptionGiven: false)
        #expect(try Self.route(device, browser, interactive: false, host: .none).get() == .browser(.open(command: nil)))
        guard
            case .failure(.browserWhilePromptsForbidden) = Self.route(device, browser, forbidden: true, host: .desktop)
        else {
            Issue.record("--non-interactive never opens a browser")
            return
        }
    }

    @Test func askedModesMachineProfilesAndUserPoolOptionsWin() throws {
        let pool = try Self.profile(.hostedUI)
        let password = SignInRoute.Asked(
            mode: nil, browserCommand: nil, browserOptionGiven: false, userPoolOptionGiven: true)
        #expect(try Self.route(pool, password, host: .desktop).get() == .userPool)
        let deviceAsked = SignInRoute.Asked(
            mode: .device, browserCommand: nil, browserOptionGiven: true, userPoolOptionGiven: false)
        guard case .failure(.device(.cognitoHasNoDeviceGrant)) = Self.route(pool, deviceAsked, host: .none) else {
            Issue.record("Cognito has no device grant")
            return
        }
        let machine = try Self.profile(.openIDWithDevice, grant: .clientCredentials)
        #expect(try Self.route(machine, host: .none).get() == .machine)
        let paste = SignInRoute.Asked(
            mode: .paste, browserCommand: nil, browserOptionGiven: true, userPoolOptionGiven: false)
        #expect(try Self.route(pool, paste, interactive: false, host: .none).get() == .browser(.paste))
    }
}
