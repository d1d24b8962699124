import AuthAgent
import AuthCrypto
import AuthStore

/// A token handed to another tool, with what the tool's protocol wants beside it.
struct HelperToken {
    let token: String
    let expiresAt: Double
    /// Cognito's user name, for protocols that pair the token with a user name.
    let username: String
    let profile: String

    /// A valid token for `profile` (the current one when nil), without ever prompting to sign in: from the agent
    /// when one runs, else directly from the vault (refreshing first when due).
    nonisolated(nonsending) static func fetch(
        _ kind: TokenKind, profile: String? = nil, context: CommandContext
    ) async throws(CLIError) -> HelperToken {
        if let served = try fromAgent(kind, profile: profile ?? context.profileName, context: context) { return served }
        let session = try await ProfileSession.open(context, profile: profile)
        let secret: SecretBytes
        do {
            secret = kind == .access ? try await session.store.validAccessToken() : try await session.store.validIDToken()
        } catch {
            let failure = CLIErrors.from(error)
            guard failure.status == .signInRequired else { throw failure }
            // Said for the tool's log: which profile, and the exact command that fixes it.
            let why: String
            if case .signInRequired(let reason?) = error { why = "\(reason)" } else { why = "not signed in" }
            throw CLIError(Remedy.message("No usable session for profile '\(session.profile.name)' (\(why)).",
                                          Remedy.signIn(profile: session.profile.name)), status: .signInRequired)
        }
        let record = await session.store.storedRecord
        return HelperToken(
            token: secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) },
            expiresAt: (kind == .access ? record?.accessTokenExpiresAt : record?.idTokenExpiresAt) ?? 0,
            username: record?.identity?.username ?? session.profile.name,
            profile: session.profile.name)
    }

    /// The agent's answer; nil when no agent runs (or it misbehaves), so the caller takes the direct path. What the
    /// agent says about the session itself (sign in, vault locked, network) is final.
    private static func fromAgent(_ kind: TokenKind, profile: String, context: CommandContext) throws(CLIError) -> HelperToken? {
        guard let path = AgentSocket.path(context) else { return nil }
        do {
            // Long enough for a refresh in the mandatory window; an agent that hangs costs this once.
            let token = try AgentClient(socketPath: path, timeout: .seconds(5)).token(profile: profile, kind: kind)
            return HelperToken(token: token.token.withUnsafeBytes { String(decoding: $0, as: UTF8.self) },
                               expiresAt: token.expiresAt ?? 0, username: token.username ?? profile, profile: profile)
        } catch {
            guard case .server(let failure) = error else { return nil }
            switch failure.code {
            case .signInRequired:
                throw CLIError(Remedy.message(failure.message, Remedy.signIn(profile: profile)), status: .signInRequired)
            case .vaultLocked: throw CLIError(Remedy.message(failure.message, Remedy.unlockVault), status: .vaultLocked)
            case .network: throw CLIError(failure.message, status: .networkUnavailable)
            case .unknownProfile, .badRequest, .internal: return nil
            }
        }
    }

    /// The profile whose token may go to `target`, nil when none may. Only https targets get a token, and only
    /// from a profile that lists the target's host with `configure --helper-host`. A profile named explicitly
    /// (--profile, $AUTHVAULT_PROFILE) chooses among those, it never widens them; otherwise the first listing
    /// profile by name answers.
    static func profile(for target: HelperTarget, context: CommandContext) throws(CLIError) -> String? {
        guard target.scheme == "https" else { return nil }
        let profiles: [(profile: String, hosts: [String])]
        do { profiles = try context.configStore.helperHosts() } catch { throw CLIError(error.description) }
        let listing = profiles.filter { $0.hosts.contains { target.isListed(by: $0) } }.map(\.profile)
        if context.profileIsExplicit { return listing.contains(context.profileName) ? context.profileName : nil }
        return listing.first
    }

    /// For tools that may say where the token goes (kubectl's cluster server, Vault's address): nil when the tool
    /// said nothing, so the current profile answers as before; the listing profile when the URL passes
    /// `profile(for:context:)`; otherwise an error naming the fix.
    static func profile(forURL url: String?, tool: String, context: CommandContext) throws(CLIError) -> String? {
        guard let url else { return nil }
        guard let target = HelperTarget(url: url) else {
            throw CLIError("\(tool) named a server that is no URL, so no token is handed over.")
        }
        guard let profile = try profile(for: target, context: context) else {
            throw CLIError("No token for \(tool)'s server \(target.scheme)://\(target.endpoint): a token goes only over https, "
                           + "to a host its profile lists. Add it with 'authvault configure --profile \(context.profileName) "
                           + "--helper-host \(target.endpoint)'.")
        }
        return profile
    }
}
