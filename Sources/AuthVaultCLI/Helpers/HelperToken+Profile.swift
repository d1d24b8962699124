import AuthVaultApp

/// The helpers' side of a token for another tool: which profile may answer a tool, and the fetch in command terms.
extension HelperToken {
    /// A valid token for `profile` (the current one when nil), agent first, without ever prompting to sign in.
    nonisolated(nonsending) static func fetch(
        _ kind: TokenKind, profile: String? = nil, context: CommandContext
    ) async throws(CLIError) -> HelperToken {
        do {
            return try await context.application.helperToken(kind, profile: profile ?? context.profileName)
        } catch {
            // The tool's log names the exact sign-in: a profile that signs in with a code says so.
            throw CLIErrors.from(error, profile: profile ?? context.profileName) { name in try? context.configStore.profile(named: name).authFlow }
        }
    }

    /// The profile whose token may go to `target`, nil when none may. Only https targets get a token, and only
    /// from a profile that lists the target's host with `configure --helper-host`. A profile named explicitly
    /// (--profile, $AUTHVAULT_PROFILE) chooses among those, it never widens them; otherwise the current profile
    /// (`profiles use`, else "default") answers when it lists the host, and the first listing profile by name when
    /// it does not (see `Application.helperProfile`).
    static func profile(for target: HelperTarget, context: CommandContext) throws(CLIError) -> String? {
        try application(for: context.profileName) { () throws(ApplicationError) in
            try context.application.helperProfile(for: target, current: context.profileName, isExplicit: context.profileIsExplicit)
        }
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
