import AuthAgent
import AuthCrypto
import CognitoAuth
import Foundation
import SystemPlumbing
import TestSupport
import Testing
import TokenVault

@testable import AuthVaultApp

/// The application's uses with the outside world given: a configuration resolved from the environment, a profile
/// opened on the backend its configuration names, a token for a tool from the agent or else the vault.
@Suite struct ApplicationTests {
    /// A home of its own (removed with the value, so a test keeps it while it runs), a configured profile on the file vault, and no agent unless a test names one.
    struct Home {
        let directory: TemporaryDirectory
        let application: Application

        /// - Parameter endpoint: the user-pool API's URL; nil for the region's.
        init(
            variables: [String: String] = [:], vault: VaultChoice = .file, endpoint: String? = nil,
            now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
        ) throws {
            directory = try TemporaryDirectory()
            var environment = [
                "HOME": directory.path, "AUTHVAULT_VAULT_PASSPHRASE": "correct horse",
                "AUTHVAULT_KEY_CACHE_TIMEOUT": "0",
            ]
            environment.merge(variables) { $1 }
            application = Application(environment: EnvironmentVariables(environment), now: now)
            var settings = ProfileSettings()
            settings.userPoolId = "eu-west-1_AbC123"
            settings.clientId = "client1"
            settings.endpoint = endpoint
            settings.vault = vault
            try application.configStore.save(ConfigFile(profiles: ["work": settings]))
        }
    }

    @Test func theConfigurationAndDataFollowXDGAndTheConfigVariable() throws {
        let home = try Home()
        #expect(home.application.configPath == home.directory.path + "/.config/authvault/config.json")
        #expect(home.application.dataDirectory == home.directory.path + "/.local/share/authvault")
        let elsewhere = Application(
            environment: EnvironmentVariables([
                "HOME": "/nowhere", "XDG_DATA_HOME": "/data", "AUTHVAULT_CONFIG": "/etc/av.json",
                "AUTHVAULT_PROFILE": "work",
            ]))
        #expect(elsewhere.configPath == "/etc/av.json")
        #expect(elsewhere.dataDirectory == "/data/authvault")
        #expect(elsewhere.defaultProfileName == "work")
        #expect(Application(environment: EnvironmentVariables([:])).defaultProfileName == "default")
    }

    @Test func aProfileResolvesWhatCognitoDerives() throws {
        let home = try Home()
        let profile = try home.application.configStore.profile(named: "work")
        #expect(profile.region == "eu-west-1")
        #expect(profile.issuer == "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbC123")
        #expect(profile.jwksURL == profile.issuer + "/.well-known/jwks.json")
        #expect(profile.endpoint == "https://cognito-idp.eu-west-1.amazonaws.com/")
    }

    /// A machine profile asks for its client's own scopes and takes its token endpoint from the Hosted UI or a
    /// token URL; without either it is incomplete.
    @Test func aMachineProfileResolvesItsTokenEndpoint() throws {
        var settings = ProfileSettings()
        settings.userPoolId = "eu-west-1_AbC123"
        settings.clientId = "machine1"
        settings.grant = .clientCredentials
        #expect(throws: ConfigError.incomplete(profile: "ci", missing: "--hosted-ui")) {
            try ResolvedProfile(name: "ci", settings: settings)
        }
        settings.hostedUI = "https://ci.auth.eu-west-1.amazoncognito.com"
        let hosted = try ResolvedProfile(name: "ci", settings: settings)
        #expect(hosted.scopes.isEmpty && hosted.grant == .clientCredentials)
        #expect(try hosted.tokenEndpoint() == "https://ci.auth.eu-west-1.amazoncognito.com/oauth2/token")
        var token = OAuthEndpointSettings()
        token.token = "https://idp.example.com/token"
        settings.oauthEndpoints = token
        #expect(try ResolvedProfile(name: "ci", settings: settings).tokenEndpoint() == "https://idp.example.com/token")
    }

    @Test func openingAProfileUsesTheConfiguredBackend() async throws {
        let home = try Home()
        let session = try await home.application.openProfile(named: "work")
        #expect(session.backend == .file)
        #expect(session.profile.name == "work")
    }

    @Test func anUnknownProfileIsAConfigurationReason() async throws {
        let home = try Home()
        await #expect {
            try await home.application.openProfile(named: "play")
        } throws: { error in
            guard case .configuration(.noSuchProfile(let name, _, let known))? = error as? ApplicationError else {
                return false
            }
            return name == "play" && known == ["work"]
        }
    }

    @Test func aBadKeyCacheTimeoutNamesTheVariable() async throws {
        let home = try Home(variables: ["AUTHVAULT_KEY_CACHE_TIMEOUT": "soon"])
        await #expect {
            try await home.application.openProfile(named: "work")
        } throws: { error in
            guard case .invalidVariable(let name, let value, _)? = error as? ApplicationError else { return false }
            return name == "AUTHVAULT_KEY_CACHE_TIMEOUT" && value == "soon"
        }
    }

    /// Numbers that would trap when turned into a time-out (1e300 seconds as Int64 milliseconds) are refused.
    @Test(
        arguments: ["AUTHVAULT_KEY_CACHE_TIMEOUT", "AUTHVAULT_SECRET_SERVICE_TIMEOUT"],
        ["9223372036854775807", "1e300", "1e309", "-1", "nan", "inf"])
    func anOutOfRangeTimeoutNamesTheVariableAndTheRange(variable: String, value: String) async throws {
        let home = try Home(
            variables: [variable: value], vault: variable == "AUTHVAULT_KEY_CACHE_TIMEOUT" ? .file : .secretService)
        await #expect {
            try await home.application.openProfile(named: "work")
        } throws: { error in
            guard case .invalidVariable(let name, let found, let expected)? = error as? ApplicationError else {
                return false
            }
            return name == variable && found == value && expected.hasPrefix("a number of seconds from 0 to ")
        }
    }

    @Test func noAgentAndNoSessionIsNoUsableSession() async throws {
        // The socket names no agent: the fetch goes on to the vault, which holds nothing for the profile.
        let home = try Home()
        let application = Application(
            environment: EnvironmentVariables(
                home.application.environment.all.merging([
                    "AUTHVAULT_AGENT_SOCKET": home.directory.appending("no-agent.sock")
                ]) { $1 }))
        await #expect {
            try await application.helperToken(.access, profile: "work")
        } throws: { error in
            guard case .signInRequired(let need, _)? = error as? ApplicationError else { return false }
            return need.profile == "work" && need.flow == .srp
        }
    }

    @Test func withoutAnAgentTheTokenComesFromTheVault() async throws {
        let home = try Home()
        let expiry = try await Self.storeSession(in: home)
        let token = try await home.application.helperToken(.access, profile: "work")
        expectSecret("access-token-from-the-vault", equals: token.token)
        #expect(token.username == "erin")
        #expect(token.expiresAt == expiry)
    }

    /// The stores decide expiry by the application's clock: two hours ahead, the hour-long token has expired and
    /// its refresh (to an endpoint nobody listens on) fails.
    @Test func theStoresTellTimeByTheApplicationsClock() async throws {
        // Nobody listens on the endpoint: the refresh fails at once, and never leaves the machine.
        let home = try Home(endpoint: "http://127.0.0.1:9/", now: { Date().timeIntervalSince1970 + 7200 })
        _ = try await Self.storeSession(in: home)
        await #expect {
            try await home.application.helperToken(.access, profile: "work")
        } throws: { error in
            guard case .network? = error as? ApplicationError else { return false }
            return true
        }
    }

    /// A session whose tokens expire in an hour (by the real clock), stored in the profile's vault; its expiry.
    private static func storeSession(in home: Home) async throws -> Double {
        let session = try await home.application.openProfile(named: "work")
        var record = CredentialRecord(profile: "work")
        record.accessToken = SecretBytes(utf8: "access-token-from-the-vault")
        record.idToken = SecretBytes(utf8: "id-token")
        record.refreshToken = SecretBytes(utf8: "refresh-token")
        let expiry = Date().timeIntervalSince1970 + 3600
        record.accessTokenExpiresAt = expiry
        record.idTokenExpiresAt = expiry
        record.identity = UserIdentity(username: "erin")
        try await session.vault.save(record)
        return expiry
    }

    @Test func theFirstAutomaticChoiceIsSaidAndRecorded() async throws {
        let home = try Home(vault: .auto)
        let notices = Locked<[String]>([])
        let application = Application(
            environment: home.application.environment,
            notice: { line in
                notices.withLock { $0.append("\(line)") }
            })
        let session = try await application.openProfile(named: "work")
        let factory = application.vaults(for: try application.configStore.load())
        #expect(try factory.knownBackend(for: "work") == session.backend)
        // The file is said once: a second opening neither probes again nor says it again.
        let said = notices.withLock { $0.count }
        #expect(said == (session.backend == .file ? 1 : 0))
        #expect(notices.withLock { $0 }.allSatisfy { !$0.contains("'authvault ") }, "a notice names no command")
        _ = try await application.openProfile(named: "work")
        #expect(notices.withLock { $0.count } == said)
    }

    @Test func aProfileWithoutAHostedUICannotBeginABrowserSignIn() async throws {
        let home = try Home()
        let session = try await home.application.openProfile(named: "work")
        await #expect {
            try await BrowserSignIn(session: session, identityProvider: nil, timeout: .seconds(1)).begin()
        } throws: { error in
            guard case .failed(.failed(_, .setBrowserSignIn))? = error as? BrowserSignInError else { return false }
            return true
        }
    }

    @Test func aMalformedBackendRecordIsAReasonNamingItsFile() async throws {
        let home = try Home(vault: .auto)
        let record = home.application.dataDirectory + "/backends.json"
        try FileManager.default.createDirectory(
            atPath: home.application.dataDirectory, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        try Data("not json".utf8).write(to: URL(fileURLWithPath: record))
        chmod(record, 0o600)
        await #expect {
            try await home.application.openProfile(named: "work")
        } throws: { error in
            guard case .backendRecord(let path, _)? = error as? ApplicationError else { return false }
            return path == record && "\(error)".contains("is malformed")
        }
    }
}
