import AuthStore
import CognitoAuth
import DebugTrace
import HTTPTransport
import TokenVault

/// A configured or embedded profile, ready to use: its settings and the vault backend it is on are public, what it
/// does is in its intents (`ProfileSession+Intents`); its vault, lock, authority and store are the application's own.
/// Built per use; the Cognito client inside is made only when a use first talks to Cognito.
public struct ProfileSession: Sendable {
    public let profile: ResolvedProfile
    let vault: any VaultBackend
    public let backend: VaultBackendKind
    let lock: ProfileLock
    let authority: ProfileAuthority
    let store: AuthStore
    /// Where a browser for a sign-in is, asked only when a failure needs one (`signInNeed`).
    let browserHost: BrowserHost.Source

    /// The Cognito client, for the account operations that go around the store (sign-up, forgotten password, ...).
    func accountClient() async throws(ApplicationError) -> CognitoClient {
        // The client secret lives in the vault: a locked vault is said as such, not discovered later as Cognito
        // refusing a request that lacks SECRET_HASH.
        do { _ = try await vault.load(profile: profile.name) } catch { throw ApplicationError(error) }
        do { return try await authority.cognitoClient() } catch { throw ApplicationError(error, need: signInNeed) }
    }
}

extension Application {
    /// The configured profile `name` (`defaultProfileName` when nil), ready to use: its vault chosen, its store built.
    /// - Parameters:
    ///   - refreshesInBackground: true only for a long-lived process (the agent); see `AuthStore.init`.
    ///   - fileVault: the file vault to use when the profile is on it, so one process unlocks it once.
    ///   - devicePolicy: for a sign-in, how a device Cognito reports as new is remembered; nil: it is not.
    nonisolated(nonsending) public func openProfile(
        named name: String? = nil, refreshesInBackground: Bool = false, fileVault: EncryptedFileVault? = nil,
        devicePolicy: DevicePolicy? = nil
    ) async throws(ApplicationError) -> ProfileSession {
        let configuration: ConfigFile
        let profile: ResolvedProfile
        do {
            configuration = try configStore.load()
            profile = try configStore.profile(named: name ?? defaultProfileName, in: configuration)
        } catch {
            throw .configuration(error)
        }
        let factory = vaults(for: configuration)
        let (selected, backend) = try await factory.selectBackend(for: profile.name)
        let vault: any VaultBackend = backend == .file ? (fileVault ?? selected) : selected
        trace("profile '\(profile.name)' from \(configPath), its tokens in the \(backend.rawValue) vault")
        return ProfileSession(
            profile: profile, vault: vault, backend: backend, lock: factory.lock(for: profile.name),
            connection: connection, refreshesInBackground: refreshesInBackground, devicePolicy: devicePolicy)
    }

    /// How this application's stores reach their provider and keep time: from its environment and clock.
    var connection: ProviderConnection {
        ProviderConnection(
            userAgent: userAgent, proxy: proxySettings, now: now, clock: serverClock(), trace: trace,
            browserHost: browserHostSource)
    }
}

/// How a profile's store reaches its identity provider and keeps time: from the environment for a configured
/// profile, from the embedding program for one built in code.
struct ProviderConnection: Sendable {
    let userAgent: String
    let proxy: HTTPProxySettings
    let now: @Sendable () -> Double
    let clock: ServerClock
    let trace: DebugTrace
    /// Where a browser for a sign-in is: the environment's for a configured profile.
    let browserHost: BrowserHost.Source
}

extension ProfileSession {
    /// The one assembly of a session, for a configured profile and for one built in code: the authority takes the
    /// client secret from the profile's vault, and the store runs on that vault under the profile's lock.
    /// - Parameter refreshesInBackground: true only for a long-lived process; see `AuthStore.init`.
    init(
        profile: ResolvedProfile, vault: any VaultBackend, backend: VaultBackendKind, lock: ProfileLock,
        connection: ProviderConnection, refreshesInBackground: Bool, devicePolicy: DevicePolicy?
    ) {
        let name = profile.name
        let authority = ProfileAuthority(
            profile: profile, userAgent: connection.userAgent, proxy: connection.proxy,
            trace: connection.trace, clock: connection.clock
        ) {
            try? await vault.load(profile: name)?.clientSecret
        }
        let store = AuthStore(
            profile: name, vault: vault, lock: lock, authority: authority,
            machine: profile.grant == .clientCredentials ? authority : nil,
            refreshesInBackground: refreshesInBackground, devicePolicy: devicePolicy,
            now: connection.now, clock: connection.clock, trace: connection.trace)
        self.init(
            profile: profile, vault: vault, backend: backend, lock: lock, authority: authority, store: store,
            browserHost: connection.browserHost)
    }
}
