import AuthStore

/// What the agent asks of its host (the CLI): the store of a profile, and how to forget unlocked vault keys.
public protocol AgentProfileProvider: Sendable {
    /// A store for `profile`. The agent calls this once per profile and keeps the store for its life (until a
    /// `lock`), so every client shares its tokens and its single refresh. Throw `.unknownProfile` for a name that
    /// is not configured; other failures say what to fix.
    func makeStore(profile: String) async throws(AgentFailure) -> AuthStore

    /// For `lock`: drop the vault keys this process holds unlocked (the file vault's data key), so the next use of
    /// a vault needs its passphrase again.
    func lockVaults() async
}
