import AuthVaultApp

/// The helpers' side of a token for another tool: which profile may answer a tool, and the fetch in command terms.
extension HelperToken {
    /// A valid token for `profile` (the current one when nil), agent first, without ever prompting to sign in.
    nonisolated(nonsending) static func fetch(
        _ kind: TokenKind, profile: String? = nil, context: CommandContext
    ) async throws(CLIError) -> HelperToken {
        do {
            return try await context.application.helperToken(
                kind, profile: profile ?? context.profileName, isExplicit: profile != nil || context.profileIsExplicit)
        } catch {
            // The tool's log names the exact sign-in: a profile that signs in with a code says so.
            throw CLIErrors.from(error, profile: profile ?? context.profileName) { name in
                try? context.configStore.profile(named: name).authFlow
            }
        }
    }

    /// The token for `target`, nil when no profile may answer. Only https targets get a token, and only from a
    /// profile that lists the target's host with `configure --helper-host`. A profile named explicitly
    /// (--profile, $AUTHVAULT_PROFILE) chooses among those, it never widens them; otherwise the current profile
    /// (`profiles use`, else "default") answers when it lists the host, and the first listing profile by name when
    /// it does not (see `Application.helperProfile`). Where this machine configures no profile (or not the one
    /// named) and an agent socket is set, the agent applies its own configuration's rules (a remote shell).
    nonisolated(nonsending) static func answer(
        _ kind: TokenKind, for target: HelperTarget, context: CommandContext
    ) async throws(CLIError) -> HelperToken? {
        let profile = try application(for: context.profileName) { () throws(ApplicationError) in
            try context.application.helperProfile(
                for: target, current: context.profileName, isExplicit: context.profileIsExplicit)
        }
        if let profile { return try await fetch(kind, profile: profile, context: context) }
        return try fromAgent(kind, for: target, context: context)
    }

    /// For tools that name their server as a URL (kubectl's cluster server, Vault's address; nil or empty when
    /// the tool named none): the token of the listing profile when `Application.helperDecision` lets it go there,
    /// or the agent's when this machine leaves the decision to it; otherwise an error naming the fix.
    nonisolated(nonsending) static func answer(
        _ kind: TokenKind, for tool: URLTool, url: String?, context: CommandContext
    ) async throws(CLIError) -> HelperToken {
        let decision = try application(for: context.profileName) { () throws(ApplicationError) in
            try context.application.helperDecision(
                for: tool, url: url, current: context.profileName, isExplicit: context.profileIsExplicit)
        }
        let profile = context.profileName
        switch decision {
        case .answer(let profile): return try await fetch(kind, profile: profile, context: context)
        case .noServerNamed:
            // Only kubectl has no address of its own to fall back on (`URLTool`).
            throw CLIError(
                "kubectl named no cluster server, so no token is handed over: it names one only to a user with "
                    + "'provideClusterInfo: true' in its exec section. Add it to the kubeconfig user, or write the user again with "
                    + "'authvault setup kubectl --profile \(profile)' (with --context NAME, its server is listed too).")
        case .notAURL:
            throw CLIError("\(tool.rawValue) named a server that is no URL, so no token is handed over.")
        case .notListed(let target):
            if let served = try fromAgent(kind, for: target, context: context) { return served }
            let fix =
                context.application.agentDecidesHelperProfile(named: profile, isExplicit: context.profileIsExplicit)
                ? "The agent serves no profile that lists it: add it with 'authvault configure --profile NAME "
                    + "--helper-host \(target.endpoint)' where the agent runs."
                : "Add it with 'authvault configure --profile \(profile) --helper-host \(target.endpoint)'."
            throw CLIError(
                "No token for \(tool.rawValue)'s server \(target.scheme)://\(target.endpoint): a token goes only over https, "
                    + "to a host its profile lists. \(fix)")
        }
    }

    /// The agent's token for `target` when this machine's configuration cannot decide (see `answer`); nil when it
    /// can, or when the agent serves no profile for the target.
    private static func fromAgent(_ kind: TokenKind, for target: HelperTarget, context: CommandContext)
        throws(CLIError) -> HelperToken?
    {
        let application = context.application
        guard application.agentDecidesHelperProfile(named: context.profileName, isExplicit: context.profileIsExplicit)
        else { return nil }
        do {
            return try application.agentHelperToken(
                kind, for: target, profile: context.profileIsExplicit ? context.profileName : nil)
        } catch {
            throw CLIErrors.from(error, profile: context.profileName)
        }
    }
}
