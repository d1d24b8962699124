import AuthCrypto
import AuthStore

/// A token handed to another tool, with what the tool's protocol wants beside it.
struct HelperToken {
    let token: String
    let expiresAt: Double
    /// Cognito's user name, for protocols that pair the token with a user name.
    let username: String
    let profile: String

    /// A valid token for `profile` (the current one when nil), without ever prompting to sign in.
    static func fetch(_ kind: TokenKind, profile: String? = nil, context: CommandContext) async throws(CLIError) -> HelperToken {
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
            throw CLIError("No usable session for profile '\(session.profile.name)' (\(why)). "
                           + "Run 'authvault login --profile \(session.profile.name)' in a terminal.", status: .signInRequired)
        }
        let record = await session.store.storedRecord
        return HelperToken(
            token: secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) },
            expiresAt: (kind == .access ? record?.accessTokenExpiresAt : record?.idTokenExpiresAt) ?? 0,
            username: record?.identity?.username ?? session.profile.name,
            profile: session.profile.name)
    }

    /// The profile that answers for `host`: the one named explicitly (--profile, $AUTHVAULT_PROFILE) answers for
    /// every host; otherwise the profile that lists the host with `configure --helper-host`. `nil`: not ours.
    static func profile(forHost host: String, context: CommandContext) throws(CLIError) -> String? {
        if context.profileIsExplicit { return context.profileName }
        let file: ConfigFile
        do { file = try context.configStore.load() } catch { throw CLIError(error.description) }
        let wanted = host.lowercased()
        let bare = wanted.split(separator: ":").first.map(String.init) ?? wanted
        return file.profiles.keys.sorted().first { name in
            let hosts = file.profiles[name]?.helperHosts ?? []
            return hosts.contains(wanted) || hosts.contains(bare)
        }
    }
}
