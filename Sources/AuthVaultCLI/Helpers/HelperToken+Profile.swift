import AuthVaultApp

/// The helpers' side of a token for another tool: which profile may answer a tool, and the fetch in command terms.
extension HelperToken {
    /// A valid token for `profile` (the current one when nil), agent first. Where only a sign-in helps, the helper
    /// signs in on the person's terminal when they turned that on and may be asked (`HelperSignInTerminal`); it
    /// never prompts otherwise.
    nonisolated(nonsending) static func fetch(
        _ kind: TokenKind, profile: String? = nil, context: CommandContext
    ) async throws(CLIError) -> HelperToken {
        let isExplicit = profile != nil || context.profileIsExplicit
        do {
            return try await context.application.helperToken(
                kind, profile: profile ?? context.profileName, isExplicit: isExplicit)
        } catch  where error.requiresSignIn {
            let profile = profile ?? context.profileName
            return try await HelperSignInTerminal.after(error, profile: profile, context: context) {
                () async throws(ApplicationError) in
                try await context.application.helperToken(kind, profile: profile, isExplicit: isExplicit)
            }
        } catch {
            // The tool's log names the exact sign-in: a profile that signs in with a code says so.
            throw CLIErrors.from(error, profile: profile ?? context.profileName)
        }
    }

    /// Which profile's token may go to `target`: `.answer`, `.notListed`, or `.ambiguous` when several profiles
    /// list it and nothing tells them apart (the tool's command says so). Only https targets get a token, and only
    /// from a profile that lists the target's host (and path) with `configure --helper-host`, chosen by
    /// `Application.helperProfile`'s rules. On `.notListed` the tool's command asks `fromAgent`, which answers where
    /// this machine leaves the choice to the agent.
    nonisolated(nonsending) static func choice(for target: HelperTarget, context: CommandContext)
        async throws(CLIError) -> HelperChoice
    {
        do {
            let profile = try await context.application.helperProfile(
                for: target, current: context.profileName, isExplicit: context.profileIsExplicit)
            return profile.map { .answer(profile: $0) } ?? .notListed
        } catch .ambiguousHelperTarget(_, let candidates) {
            return .ambiguous(candidates: candidates)
        } catch {
            throw CLIErrors.from(error, profile: context.profileName)
        }
    }

    /// Profile names quoted and listed, for the line that says none of them was chosen.
    static func quoted(_ candidates: [String]) -> String {
        candidates.map { "'\($0)'" }.joined(separator: ", ")
    }

    /// For tools that name their server as a URL (kubectl's cluster server, Vault's address; nil or empty when
    /// the tool named none): the token of the listing profile when `Application.helperDecision` lets it go there,
    /// or the agent's when this machine leaves the decision to it (`fromAgent`); otherwise an error naming the fix.
    nonisolated(nonsending) static func answer(
        _ kind: TokenKind, for tool: URLTool, url: String?, context: CommandContext
    ) async throws(CLIError) -> HelperToken {
        let decision = try await application(for: context.profileName) { () async throws(ApplicationError) in
            try await context.application.helperDecision(
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
        case .ambiguous(let target, let candidates):
            throw CLIError(
                "No token for \(tool.rawValue)'s server \(target.scheme)://\(target.endpoint): profiles "
                    + "\(quoted(candidates)) all list it. Name one with --profile in the tool's configuration, or with "
                    + "$AUTHVAULT_PROFILE.")
        }
    }

    /// The agent's token for `target` where this machine's configuration cannot decide (it configures no profile,
    /// or not the one named, and an agent socket is set: a remote shell), the agent applying its own
    /// configuration's rules; nil when this machine decides, or when the agent serves no profile for the target.
    static func fromAgent(_ kind: TokenKind, for target: HelperTarget, context: CommandContext)
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
