import Foundation

/// django-oauth-toolkit (PyPI `django`, `django-oauth-toolkit`) as the Hosted UI stand-in:
/// Tests/TestSupport/Scripts/oauth_server/server.py on a free loopback port, with Cognito's paths (`/oauth2/authorize`,
/// `/oauth2/token`, `/oauth2/userInfo`, `/oauth2/revoke`, `/logout`), PKCE required with S256 only, refresh-token
/// rotation with reuse protection, RS256 ID tokens and Cognito-shaped JWT access tokens signed with a key made at
/// start, auto-approval, and Django's login form. One server per test process (`shared()`); tests keep apart by
/// their own cookie jars, and a test that signs a user out everywhere uses a user of its own.
public final class OAuthServer: Sendable {
    /// How the server is set up (Scripts/oauth_server/settings.py).
    public enum Configuration: String, Sendable {
        /// The Hosted UI stand-in described above.
        case cognitoShaped = "cognito"
        /// django-oauth-toolkit as it ships, with OIDC turned on: its own paths under `/o/` (the issuer is
        /// `{base}/o`), its own claims (`sub` is the user's primary key, no e-mail), random access tokens, refresh-token
        /// rotation, RP-initiated logout, and no revocation endpoint in its discovery document.
        case defaultConfiguration = "default"
    }

    public struct User: Sendable {
        public let username: String
        public let password: String
        public let email: String
        /// A federated user's `identities` claim: (providerName, userId) pairs.
        public let identities: [(provider: String, userId: String)]
    }

    public struct Client: Sendable {
        public let clientId: String
        public let clientSecret: String?
        /// Random access tokens, as a generic OAuth server issues them, instead of JWTs.
        public let opaqueAccessTokens: Bool
        /// A machine client: the client-credentials grant only (Cognito-shaped access tokens whose `sub` is the client).
        public var clientCredentials = false
        /// The device authorization grant only (RFC 8628).
        public var deviceCode = false
    }

    /// The loopback listener's two registered ports, chosen once per test process among free ones (a fixed port
    /// can be held by another program, or be an outgoing connection's ephemeral port, when the tests start).
    private static let redirectPorts = FreeLoopbackPorts.run(of: 2)
    public static var redirectPort: UInt16 { redirectPorts[0] }
    public static var secondRedirectPort: UInt16 { redirectPorts[1] }
    /// Registered with every client. Nothing listens there: the scripted browser stops when it is redirected to it.
    public static var redirectURI: String { "http://127.0.0.1:\(redirectPort)/callback" }
    /// Registered too, for the loopback listener's next port when the first is taken.
    public static var secondRedirectURI: String { "http://127.0.0.1:\(secondRedirectPort)/callback" }
    /// The sign-out URL registered with the public client.
    public static var signOutURI: String { "http://127.0.0.1:\(redirectPort)/signed-out" }

    /// A user who signed in through Google, as Cognito shows such a user.
    public static let federatedUser = User(
        username: "Google_1122334455", password: "Fed-user-pw-1", email: "fed@example.com",
        identities: [("Google", "1122334455")])
    public static let poolUser = User(username: "kim", password: "Kim-pw-2", email: "kim@example.com", identities: [])
    /// For the test that signs out (OIDC logout deletes every token of the user).
    public static let signOutUser = User(
        username: "lee", password: "Lee-pw-3", email: "lee@example.com", identities: [])

    public static let publicClient = Client(clientId: "authvault-public", clientSecret: nil, opaqueAccessTokens: false)
    public static let confidentialClient = Client(
        clientId: "authvault-confidential", clientSecret: "conf+secret/with=chars", opaqueAccessTokens: false)
    public static let opaqueClient = Client(clientId: "authvault-opaque", clientSecret: nil, opaqueAccessTokens: true)
    /// For machine sign-in; reserved characters in its secret test the HTTP Basic encoding.
    public static let machineClient = Client(
        clientId: "authvault-machine", clientSecret: "machine+secret/with=chars:and%",
        opaqueAccessTokens: false, clientCredentials: true)
    /// A machine client whose access tokens are opaque, as a generic OAuth server's are.
    public static let opaqueMachineClient = Client(
        clientId: "authvault-machine-opaque", clientSecret: "opaque+machine/secret",
        opaqueAccessTokens: true, clientCredentials: true)
    /// A public client of the device authorization grant (the default configuration serves its verification page).
    public static let deviceClient = Client(
        clientId: "authvault-device", clientSecret: nil, opaqueAccessTokens: true, deviceCode: true)
    /// A resource server's scope the server knows, as Cognito names them.
    public static let machineScope = "authvault-api/read"

    public let server: ScriptServer
    public let configuration: Configuration
    /// The Hosted UI base URL.
    public var baseURL: String { server.baseURL }
    /// The `iss` of every token.
    public var issuer: String { configuration == .cognitoShaped ? server.baseURL : server.baseURL + "/o" }
    public var jwksURL: String { issuer + "/.well-known/jwks.json" }
    public var discoveryURL: String { issuer + "/.well-known/openid-configuration" }
    /// DOT's device authorization endpoint (its discovery document does not name it).
    public var deviceAuthorizationURL: String { issuer + "/device-authorization/" }

    /// The person's part of a device sign-in, in an HTTP session of its own (Scripts/oauth_server/device_approve.py):
    /// signs in as `user` at `verificationURI`, enters `userCode`, then accepts (or denies) the device.
    public func approveDevice(verificationURI: String, userCode: String, as user: User, accept: Bool = true)
        async throws
    {
        let arguments = [
            ScriptServer.scriptPath("oauth_server/device_approve.py"), verificationURI, userCode,
            user.username, user.password, accept ? "accept" : "deny",
        ]
        let output = try await OffPool.run { try ProcessRunner.run(PeerPython.path, arguments, timeout: 60) }
        guard output.status == 0 else {
            throw TestFixtureError("the device approval stopped: \(output.stdoutText) \(output.stderrText)")
        }
    }

    private init(server: ScriptServer, configuration: Configuration) {
        self.server = server
        self.configuration = configuration
    }

    /// A server of the test's own (most tests share one: `shared()`), stopped when the last reference goes.
    /// - Parameter accessTokenLifetime: the access tokens' lifetime in seconds (Cognito-shaped only; an hour when nil),
    ///   for a test that watches renewals across several lifetimes.
    public static func start(_ configuration: Configuration = .cognitoShaped, accessTokenLifetime: Int? = nil)
        async throws -> OAuthServer
    {
        let directory = try TemporaryDirectory(prefix: "authvault-oauth")
        let users = [federatedUser, poolUser, signOutUser].map { user -> [String: Any] in
            [
                "username": user.username, "password": user.password, "email": user.email,
                "identities": user.identities.map {
                    [
                        "providerName": $0.provider, "providerType": $0.provider, "userId": $0.userId,
                        "primary": "true", "issuer": NSNull(), "dateCreated": "1700000000000",
                    ]
                },
            ]
        }
        let applications = [
            publicClient, confidentialClient, opaqueClient, machineClient, opaqueMachineClient, deviceClient,
        ].map { client -> [String: Any] in
            var application: [String: Any] = [
                "name": client.clientId, "clientId": client.clientId, "redirectURIs": [redirectURI, secondRedirectURI],
                "postLogoutRedirectURIs": [signOutURI], "opaqueAccessTokens": client.opaqueAccessTokens,
                "clientCredentials": client.clientCredentials, "deviceCode": client.deviceCode,
            ]
            application["clientSecret"] = client.clientSecret
            return application
        }
        var config: [String: Any] = ["mode": configuration.rawValue, "users": users, "applications": applications]
        config["accessTokenSeconds"] = accessTokenLifetime
        let path = directory.appending("config.json")
        try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: path))
        // The script reads its configuration before printing its port, so the file may go once it has started.
        let server = try await ScriptServer.start(script: "oauth_server/server.py", arguments: [path])
        return OAuthServer(server: server, configuration: configuration)
    }

    private static let sharedServer = SharedOAuthServer(.cognitoShaped)
    private static let sharedDefaultServer = SharedOAuthServer(.defaultConfiguration)

    public static func shared() async throws -> OAuthServer {
        try await sharedServer.value()
    }

    /// How many client-credentials requests the server has had from `clientId` (answered or refused).
    public func clientCredentialsRequests(clientId: String) async throws -> Int {
        let query = clientId.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? clientId
        let response = try await LoopbackHTTP.send(
            method: "GET", url: baseURL + "/test/client-credentials-count?client_id=" + query)
        guard let count = response.json["count"] as? Int else {
            throw TestFixtureError("no count from the OAuth server")
        }
        return count
    }

    /// The server in its default configuration, started once per test process like `shared()`.
    public static func sharedDefault() async throws -> OAuthServer {
        try await sharedDefaultServer.value()
    }

    /// Where the scripted browser ended up.
    public struct BrowserOutcome: Sendable {
        /// The redirect to the loopback redirect or sign-out URI, with its query.
        public let redirect: String
        /// The login form was shown and filled in (false: the session cookie was still good).
        public let submittedLoginForm: Bool
    }

    /// The browser's part of a sign-in or sign-out, without a browser (Scripts/oauth_server/browser.py): follows the
    /// redirects from `url` with the cookies of `session`, fills in the login form as `user` when it is shown, and
    /// stops at the redirect to the loopback URIs above.
    /// - Parameter stopAt: where the browse ends: the first redirect to a URL with this prefix.
    public func browse(
        _ url: String, as user: User?, session: BrowserSession,
        stopAt: String = "http://127.0.0.1:\(OAuthServer.redirectPort)/"
    ) async throws -> BrowserOutcome {
        let arguments =
            [ScriptServer.scriptPath("oauth_server/browser.py"), url, stopAt, session.cookieFile]
            + (user.map { [$0.username, $0.password] } ?? [])
        let output = try await OffPool.run { try ProcessRunner.run(PeerPython.path, arguments, timeout: 60) }
        let result = (try? JSONSerialization.jsonObject(with: output.stdout)) as? [String: Any] ?? [:]
        guard output.status == 0, let redirect = result["redirect"] as? String else {
            throw TestFixtureError("the scripted browser stopped: \(output.stdoutText) \(output.stderrText)")
        }
        return BrowserOutcome(redirect: redirect, submittedLoginForm: result["signedIn"] as? Bool ?? false)
    }
}

/// One browser's cookies (the Hosted UI session), kept in a file between `browse` calls.
public final class BrowserSession: Sendable {
    private let directory: TemporaryDirectory
    var cookieFile: String { directory.appending("cookies.txt") }

    public init() throws {
        directory = try TemporaryDirectory(prefix: "authvault-browser")
    }
}

/// Starts the shared server once, whoever asks first; later callers await the same start.
private actor SharedOAuthServer {
    private let configuration: OAuthServer.Configuration
    private var task: Task<OAuthServer, any Error>?

    init(_ configuration: OAuthServer.Configuration) {
        self.configuration = configuration
    }

    func value() async throws -> OAuthServer {
        if let task { return try await task.value }
        let started = Task { [configuration] in try await OAuthServer.start(configuration) }
        task = started
        return try await started.value
    }
}
