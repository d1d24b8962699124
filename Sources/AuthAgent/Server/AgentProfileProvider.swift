import AuthStore
import TokenVault

/// What the agent asks of its host (the CLI): the store of a profile, where its record's revision is, and how to
/// lock and unlock the vaults.
public protocol AgentProfileProvider: Sendable {
    /// A store for `profile`. The agent calls this once per profile and keeps the store for its life (until a
    /// `lock`, or until the profile's record revision changes), so every client shares its tokens and its single
    /// refresh. Throw `.unknownProfile` for a name that is not configured; other failures say what to fix.
    func makeStore(profile: String) async throws(AgentFailure) -> AuthStore

    /// What the profile's store needs to hand out AWS credentials: its identity pool, and unless `guest` the name
    /// its ID tokens go under. Throw `.badRequest` saying why when the profile has none: a client then takes its
    /// direct path, which says what to configure.
    func awsCredentialRequest(profile: String, guest: Bool) async throws(AgentFailure) -> AWSCredentialRequest

    /// The profile that answers a request naming `target` or no profile, among `served` (nil: every profile); nil
    /// when none may, and the request is refused. With `target` (where the client's tool sends the token): `named`
    /// when its helper hosts list the target, else, when none is named, the one the helper hosts' rules choose.
    /// Neither (a remote shell's `token` without a configuration): the current profile, or the only one served.
    /// Throw when the settings cannot be read (the agent logs it).
    /// - Parameter stores: the agent's own store of a profile, for what the rules read from a session (a
    ///   candidate's signed-in user): on the vaults the agent holds, so what `lock` locked tells nothing.
    func chooseProfile(named: String?, for target: AgentTarget?, among served: Set<String>?, stores: ServedStores)
        async throws(AgentFailure) -> String?

    /// Where every backend bumps a profile's change stamp. The agent stats the profile's change stamp on every
    /// request and, when it changed, drops the profile's store and reads the record again.
    var changeStamps: ChangeStamps { get }

    /// The file the profiles' settings are read from, or nil. The agent stats it on every request too: a store
    /// built from settings since changed (another identity pool or role, another app client) is dropped and made
    /// again from the new ones, so nothing cached for the old settings is served.
    var configurationPath: String? { get }

    /// For `lock`: drop the vault keys this process holds unlocked (the file vault's data key), and keep the vaults
    /// locked — no passphrase or key cache is used again — until `unlockVaults()`.
    func lockVaults() async

    /// How `profile` signs in where the agent runs, for a sign-in answer to the agent's own user (a client with no
    /// configuration of the profile names it in its remedy); nil when the host does not say.
    func signIn(profile: String) async -> AgentSignIn?

    /// For `unlock`: open the vaults again, the way they were opened at start (throw `.vaultLocked` saying why not).
    func unlockVaults() async throws(AgentFailure)
}

/// The store the agent serves `profile` from, made as a request naming the profile would make it; nil when it
/// cannot be made.
public typealias ServedStores = @Sendable (_ profile: String) async -> AuthStore?

extension AgentProfileProvider {
    /// A host that does not say how its profiles sign in: clients name a plain login.
    public func signIn(profile: String) async -> AgentSignIn? { nil }

    /// A host that serves tokens only.
    public func awsCredentialRequest(profile: String, guest: Bool) async throws(AgentFailure) -> AWSCredentialRequest {
        throw AgentFailure(.badRequest, "This agent serves no AWS credentials.")
    }
}
