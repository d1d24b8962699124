import AuthStore
import CognitoAuth
import Loopback
import Testing

@testable import AuthVaultApp

/// Issue 32 item 4: "sign in again" is one case, naming the profile and the flow it signs in by, whichever use of
/// the profile found out, and keeping the library's error for `--debug`.
@Suite struct SignInNeedTests {
    static let need = SignInNeed(profile: "work", flow: .emailOTP)

    /// Every lower error that means "sign in again" becomes the one case, with the need it was translated with.
    @Test(arguments: [
        (ApplicationError(AuthStoreError.signInRequired(nil), need: need), "AuthStoreError.signInRequired"),
        (
            ApplicationError(AuthStoreError.signInRequired(.refreshRejected("Refresh Token has expired")), need: need),
            "AuthStoreError.signInRequired"
        ),
        (
            ApplicationError(AuthStoreError.rejected(.refreshTokenRejected(message: "revoked")), need: need),
            "CognitoError.refreshTokenRejected"
        ),
        (
            ApplicationError(CognitoError.refreshTokenReuse(message: "reused"), need: need),
            "CognitoError.refreshTokenReuse"
        ),
        (
            ApplicationError(
                OAuthError.refused(.invalidGrant, description: "expired", status: 400, operation: .refresh), need: need),
            "OAuthError.refused"
        ),
        (
            ApplicationError(LoopbackError.authorizationDenied(error: "access_denied", description: nil), need: need),
            "LoopbackError.authorizationDenied"
        ),
        (
            ApplicationError(
                tokenCall: CognitoError.notAuthorized(message: "Access Token has been revoked"), need: need),
            "CognitoError.notAuthorized"
        ),
    ])
    func aSignInFailureNamesTheProfileAndItsFlow(error: ApplicationError, underneath: String) {
        guard case .signInRequired(let need, _) = error else {
            Issue.record("\(underneath) became \(error)")
            return
        }
        #expect(need == Self.need && error.requiresSignIn && error.nextStep == nil)
        #expect(error.cause?.name == underneath, "\(String(describing: error.cause?.name))")
    }

    /// What does not call for a sign-in stays what it is: a refusal, or the network.
    @Test func otherFailuresAreNoSignIn() {
        let refused = ApplicationError(CognitoError.notAuthorized(message: "wrong password"), need: Self.need)
        let invalidGrant = ApplicationError(
            OAuthError.refused(.invalidGrant, description: "", status: 400, operation: .codeExchange), need: Self.need)
        let revokedElsewhere = ApplicationError(tokenCall: .userNotFound(message: "gone"), need: Self.need)
        for error in [refused, invalidGrant, revokedElsewhere] {
            #expect(!error.requiresSignIn, "\(error)")
        }
    }

    /// Against moto: a user signed out everywhere. The account call Cognito refuses the access token of, the refresh
    /// it refuses, and every intent after it say the profile and its configured flow.
    @Test func everyIntentOfASessionCognitoNoLongerAcceptsNamesTheProfileAndItsFlow() async throws {
        let pool = try await MotoProfile.make()
        try await pool.createUser("ada", password: "Ada-password-1!")
        try await pool.signIn("ada", password: "Ada-password-1!")
        var configuration = try pool.application.configStore.load()
        configuration.profiles["work"]?.authFlow = .emailOTP
        try pool.application.configStore.save(configuration)
        _ = try await pool.moto.call("AdminUserGlobalSignOut", ["UserPoolId": pool.poolId, "Username": "ada"])
        let session = try await pool.application.openProfile(named: "work")

        // The access token is still fresh here: GetUser is what finds the session revoked, then the refresh.
        let uses: [(String, () async throws -> Void)] = [
            ("describeIdentity", { _ = try await pool.application.describeIdentity(profile: "work") }),
            ("refreshNow", { _ = try await session.refreshNow() }),
            ("validAccessToken", { _ = try await session.validAccessToken() }),
            ("validIDToken", { _ = try await session.validIDToken() }),
            ("accessToken", { _ = try await session.accessToken() }),
            (
                "authorizedRequest",
                { _ = try await session.authorizedRequest(HTTPRequest(url: "http://127.0.0.1:9/")) }
            ),
            ("helperToken", { _ = try await pool.application.helperToken(.id, profile: "work") }),
        ]
        for (name, use) in uses {
            do {
                try await use()
                Issue.record("\(name) succeeded with a session signed out everywhere")
            } catch {
                guard case .signInRequired(let need, let cause)? = error as? ApplicationError else {
                    Issue.record("\(name): \(error)")
                    continue
                }
                #expect(
                    need.profile == "work" && need.route == .userPool && need.mode == nil && need.flow == .emailOTP,
                    "\(name): \(need)")
                #expect(!cause.name.isEmpty, "\(name): the library's error stays, for --debug")
            }
        }
    }

    /// How each kind of profile signs in at each kind of host, as the remedy's `login` typed in a terminal there: the
    /// route `SignInRoute.choose` gives a plain login, and where that login would refuse (a browser sign-in with no
    /// browser to open and no device grant) the pasted browser sign-in asked for by name. The user-pool flow goes
    /// along only where the user-pool API is the route.
    @Test(
        arguments: [
            (SignInRouteTests.Kind.userPool, BrowserHost.desktop, SignInRoute.userPool, nil, AuthFlowChoice.emailOTP),
            (.userPool, .none, .userPool, nil, .emailOTP),
            (.hostedUI, .desktop, .browser(.open(command: nil)), nil, nil),
            (.hostedUI, .wsl, .browser(.open(command: nil)), nil, nil),
            (.hostedUI, .ssh(serverAddress: "10.0.0.1", serverPort: "22"), .browser(.printURL), nil, nil),
            (.hostedUI, .none, .browser(.paste), .paste, nil),
            (.openID, .desktop, .browser(.open(command: nil)), nil, nil),
            (.openID, .none, .browser(.paste), .paste, nil),
            (.openIDWithDevice, .desktop, .browser(.open(command: nil)), nil, nil),
            (.openIDWithDevice, .ssh(serverAddress: nil, serverPort: nil), .device(automatic: true), nil, nil),
            (.openIDWithDevice, .none, .device(automatic: true), nil, nil),
        ] as [(SignInRouteTests.Kind, BrowserHost, SignInRoute, SignInRoute.Asked.Mode?, AuthFlowChoice?)])
    func eachProfileSignsInByTheRouteLoginTakesThere(
        kind: SignInRouteTests.Kind, host: BrowserHost, route: SignInRoute, mode: SignInRoute.Asked.Mode?,
        flow: AuthFlowChoice?
    ) throws {
        let need = SignInNeed(try SignInRouteTests.profile(kind, flow: .emailOTP), host: host)
        #expect(need.profile == "work" && need.route == route && need.mode == mode && need.flow == flow, "\(need)")
        // The same route login chooses, asked for as the remedy asks (a plain login, or the mode it names).
        let chosen = SignInRouteTests.route(
            try SignInRouteTests.profile(kind, flow: .emailOTP), .only(mode), interactive: true, host: host)
        #expect(try chosen.get() == route)
    }

    /// A machine profile has no one to sign in: its login fetches a token, wherever it runs; a need known only by
    /// its profile's name (an agent's answer about a profile this machine does not configure) names a plain login.
    @Test func aMachineProfileAndAnUnknownProfileNameAPlainLogin() throws {
        for host in [BrowserHost.desktop, .none] {
            let machine = SignInNeed(try SignInRouteTests.profile(.openID, grant: .clientCredentials), host: host)
            #expect(machine.route == .machine && machine.mode == nil && machine.flow == nil)
        }
        let unknown = SignInNeed(profile: "work", flow: .custom)
        #expect(unknown.route == nil && unknown.mode == nil && unknown.flow == .custom)
    }
}
