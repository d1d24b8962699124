import AuthAgent
import AuthCrypto
import AuthStore
import Foundation
import SystemPlumbing
import TestSupport
import TokenVault

/// A vault whose keyring is locked, to see how the agent reports it.
struct LockedVault: VaultBackend {
    let kind = VaultBackendKind.memory
    func load(profile: String) async throws(VaultError) -> CredentialRecord? {
        throw .locked("collection 'login' is locked")
    }
    func save(_ record: CredentialRecord) async throws(VaultError) { throw .locked("collection 'login' is locked") }
    func delete(profile: String) async throws(VaultError) { throw .locked("collection 'login' is locked") }
    func profiles() async throws(VaultError) -> [String] { [] }
    func status() async -> VaultStatus { VaultStatus(backend: .memory, state: .locked, location: "test") }
}

/// The agent's host, for tests: "work" signed in on a memory vault, "empty" never signed in, "locked" on a
/// locked vault; any other name is unknown. Counts the stores made and the locks.
final class TestProfiles: AgentProfileProvider {
    let vault = MemoryVault()
    let clock: TestClock
    let authority: FakeAuthority
    let lockDirectory: String
    let changeStamps: ChangeStamps
    /// Stands for the settings file: a test rewrites it as `authvault configure` would.
    let configurationPath: String?
    private let counts = Locked<(storesMade: Int, locks: Int, unlocks: Int)>((0, 0, 0))
    private let made = Locked<[AuthStore]>([])

    init(clock: TestClock, authority: FakeAuthority, lockDirectory: String) {
        self.clock = clock
        self.authority = authority
        self.lockDirectory = lockDirectory
        changeStamps = ChangeStamps(directory: lockDirectory + "/revisions")
        configurationPath = lockDirectory + "/config.json"
    }

    var storesMade: Int { counts.withLock { $0.storesMade } }
    var locks: Int { counts.withLock { $0.locks } }
    var unlocks: Int { counts.withLock { $0.unlocks } }
    /// The stores made for the agent, in order.
    var madeStores: [AuthStore] { made.withLock { $0 } }

    func makeStore(profile: String) async throws(AgentFailure) -> AuthStore {
        let backend: any VaultBackend
        switch profile {
        case "work", "empty": backend = vault
        case "locked": backend = LockedVault()
        default: throw AgentFailure(.unknownProfile, "No profile '\(profile)' is configured.")
        }
        counts.withLock { $0.storesMade += 1 }
        let store = AuthStore(
            profile: profile, vault: backend, lock: ProfileLock(directory: lockDirectory, profile: profile),
            authority: authority, now: clock.now)
        made.withLock { $0.append(store) }
        return store
    }

    /// Every profile signs in here by the browser, pasted back (as the application says on a headless machine).
    func signIn(profile: String) async -> AgentSignIn? {
        AgentSignIn(profile: profile, mode: "paste", flow: nil)
    }

    /// Each profile's helper hosts, as `configure --helper-host` would list them; "work" is the current profile.
    static let helperHosts = ["work": ["git.example.com"], "empty": ["git.example.com", "other.example.com"]]

    /// The application's rules in small: a named profile when it lists the target, else the current one when it
    /// does, else the first listing by name; without a target, the current profile or the only one served.
    func chooseProfile(named: String?, for target: AgentTarget?, among served: Set<String>?, stores: ServedStores)
        async throws(AgentFailure) -> String?
    {
        let candidates = (served.map(Array.init) ?? Array(Self.helperHosts.keys)).sorted()
        guard let target else {
            return named ?? (candidates.contains("work") ? "work" : candidates.count == 1 ? candidates[0] : nil)
        }
        let listing = candidates.filter {
            target.scheme == "https" && Self.helperHosts[$0]?.contains(target.host) == true
        }
        if let named { return listing.contains(named) ? named : nil }
        return listing.contains("work") ? "work" : listing.first
    }

    func lockVaults() async {
        counts.withLock { $0.locks += 1 }
    }

    func unlockVaults() async throws(AgentFailure) {
        counts.withLock { $0.unlocks += 1 }
    }

    /// Signs "work" in through a store of its own, as `authvault login` would before the agent starts.
    func signInWork() async throws {
        let store = AuthStore(
            profile: "work", vault: vault, lock: ProfileLock(directory: lockDirectory, profile: "work"),
            authority: authority, now: clock.now)
        _ = try await store.signIn(username: "alice", password: SecretBytes(utf8: "correct horse"))
    }

    /// The access token the vault holds now, as text.
    func storedAccessToken(_ profile: String = "work") async throws -> String? {
        try await vault.load(profile: profile)?.accessToken.map(text)
    }
}

func text(_ secret: SecretBytes) -> String { secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }

/// What the server logged.
final class LogLines: Sendable {
    private let lines = Locked<[String]>([])
    var sink: @Sendable (String) -> Void { { [self] line in lines.withLock { $0.append(line) } } }
    var all: [String] { lines.withLock { $0 } }
    func contains(_ fragment: String) -> Bool { all.contains { $0.contains(fragment) } }
}

/// A signed-in profile and an agent serving it from a socket in a temporary directory.
struct AgentFixture {
    let directory: TemporaryDirectory
    let clock = TestClock()
    let authority: FakeAuthority
    let profiles: TestProfiles
    let log = LogLines()
    let socketPath: String
    let server: AgentServer

    init(
        limits: AgentServer.Limits = AgentServer.Limits(), signedIn: Bool = true,
        alsoServed: [UInt32: Set<String>] = [:],
        restrictedSockets: [AgentServer.RestrictedSocket] = []
    ) async throws {
        directory = try TemporaryDirectory(prefix: "agent")
        authority = FakeAuthority(clock: clock)
        profiles = TestProfiles(clock: clock, authority: authority, lockDirectory: directory.appending("locks"))
        if signedIn { try await profiles.signInWork() }
        socketPath = AgentClient.socketPath(runtimeDirectory: directory.path)
        server = try AgentServer.start(
            socketPath: socketPath, profiles: profiles,
            options: .init(
                version: "9.9.9-test", limits: limits,
                alsoServed: alsoServed, restrictedSockets: restrictedSockets),
            log: log.sink)
    }

    var client: AgentClient { AgentClient(socketPath: socketPath) }
}

/// Runs `body` with a fresh agent, and stops the agent afterwards, whether `body` succeeded or not.
func withAgent(
    limits: AgentServer.Limits = AgentServer.Limits(), signedIn: Bool = true, alsoServed: [UInt32: Set<String>] = [:],
    restrictedSockets: [AgentServer.RestrictedSocket] = [], _ body: (AgentFixture) async throws -> Void
) async throws {
    let agent = try await AgentFixture(
        limits: limits, signedIn: signedIn, alsoServed: alsoServed, restrictedSockets: restrictedSockets)
    do {
        try await body(agent)
    } catch {
        await agent.server.stop()
        throw error
    }
    await agent.server.stop()
}

/// Runs `body` on `count` threads of their own at once (clients block on sockets) and collects the results.
func onThreads<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) async -> [T] {
    await withCheckedContinuation { continuation in
        let results = Locked<[Int: T]>([:])
        for index in 0..<count {
            Thread {
                let value = body(index)
                let all: [T]? = results.withLock { results in
                    results[index] = value
                    return results.count == count ? (0..<count).map { results[$0]! } : nil
                }
                if let all { continuation.resume(returning: all) }
            }.start()
        }
    }
}
