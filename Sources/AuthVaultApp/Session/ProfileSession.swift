import AuthCrypto
import AuthStore
import CognitoAuth
import TokenVault

/// Everything a use needs to act on a profile: its settings, its vault, its lock and its store. Built per use; the
/// Cognito client inside is made only when a use first talks to Cognito.
public struct ProfileSession: Sendable {
    public let profile: ResolvedProfile
    public let vault: any VaultBackend
    public let backend: VaultBackendKind
    public let lock: ProfileLock
    public let authority: ProfileAuthority
    public let store: AuthStore

    /// The Cognito client, for the account operations that go around the store (sign-up, forgotten password, ...).
    func accountClient() async throws(ApplicationError) -> CognitoClient {
        // The client secret lives in the vault: a locked vault is said as such, not discovered later as Cognito
        // refusing a request that lacks SECRET_HASH.
        do { _ = try await vault.load(profile: profile.name) } catch { throw .vault(error) }
        do { return try await authority.cognitoClient() } catch { throw .cognito(error) }
    }
}

extension Application {
    /// The configured profile `name` (`defaultProfileName` when nil), ready to use: its vault chosen, its store built.
    /// - Parameters:
    ///   - refreshesInBackground: true only for a long-lived process (the agent); see `AuthStore.init`.
    ///   - fileVault: the file vault to use when the profile is on it, so one process unlocks it once.
    ///   - devicePolicy: for a sign-in, how a device Cognito reports as new is remembered; nil: it is not.
    public func openProfile(
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
        let lock = factory.lock(for: profile.name)
        let name = profile.name
        trace("profile '\(name)' from \(configPath), its tokens in the \(backend.rawValue) vault")
        let clock = serverClock()
        let authority = ProfileAuthority(profile: profile, userAgent: userAgent, proxy: proxySettings, trace: trace, clock: clock) {
            try? await vault.load(profile: name)?.clientSecret
        }
        // A short-lived use answers and ends: it refreshes before answering, never in a task its end would cut off.
        let store = AuthStore(profile: name, vault: vault, lock: lock, authority: authority,
                              machine: profile.grant == .clientCredentials ? authority : nil,
                              refreshesInBackground: refreshesInBackground, devicePolicy: devicePolicy, now: now, clock: clock,
                              trace: trace)
        return ProfileSession(profile: profile, vault: vault, backend: backend, lock: lock, authority: authority, store: store)
    }
}
