import AuthVaultApp

/// The helpers' side of a token for another tool: which profile may answer a tool, and the fetch in command terms.
extension HelperToken {
    /// A valid token for `profile` (the current one when nil), agent first. Where only a sign-in helps, the helper
    /// signs in on the person's terminal when they turned that on and may be asked (`HelperSignInTerminal`); it
    /// never prompts otherwise.
    nonisolated(nonsending) static func fetch(
        _ kind: TokenKind, profile: String? = nil, context: CommandContext
    ) async throws(CLIError) -> HelperToken {
        do {
            return try await context.application.helperToken(kind, profile: profile ?? context.profileName)
        } catch  where error.requiresSignIn {
            let profile = profile ?? context.profileName
            return try await HelperSignInTerminal.after(error, profile: profile, context: context) {
                () async throws(ApplicationError) in
                try await context.application.helperToken(kind, profile: profile)
            }
        } catch {
            // The tool's log names the exact sign-in: a profile that signs in with a code says so.
            throw CLIErrors.from(error, profile: profile ?? context.profileName)
        }
    }

    /// Which profile's token may go to `target`: `.answer`, `.notListed`, or `.ambiguous` when several profiles
    /// list it and nothing tells them apart (the tool's command says so). Only https targets get a token, and only
    /// from a profile that lists the target's host (and path) with `configure --helper-host`, chosen by
    /// `Application.helperProfile`'s rules.
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
    /// the tool named none): the listing profile when `Application.helperDecision` lets the token go there;
    /// otherwise an error naming the fix.
    nonisolated(nonsending) static func profile(for tool: URLTool, url: String?, context: CommandContext)
        async throws(CLIError) -> String
    {
        let decision = try await application(for: context.profileName) { () async throws(ApplicationError) in
            try await context.application.helperDecision(
                for: tool, url: url, current: context.profileName, isExplicit: context.profileIsExplicit)
        }
        let profile = context.profileName
        switch decision {
        case .answer(let profile): return profile
        case .noServerNamed:
            // Only kubectl has no address of its own to fall back on (`URLTool`).
            throw CLIError(
                "kubectl named no cluster server, so no token is handed over: it names one only to a user with "
                    + "'provideClusterInfo: true' in its exec section. Add it to the kubeconfig user, or write the user again with "
                    + "'authvault setup kubectl --profile \(profile)' (with --context NAME, its server is listed too).")
        case .notAURL:
            throw CLIError("\(tool.rawValue) named a server that is no URL, so no token is handed over.")
        case .notListed(let target):
            throw CLIError(
                "No token for \(tool.rawValue)'s server \(target.scheme)://\(target.endpoint): a token goes only over https, "
                    + "to a host its profile lists. Add it with 'authvault configure --profile \(profile) "
                    + "--helper-host \(target.endpoint)'.")
        case .ambiguous(let target, let candidates):
            throw CLIError(
                "No token for \(tool.rawValue)'s server \(target.scheme)://\(target.endpoint): profiles "
                    + "\(quoted(candidates)) all list it. Name one with --profile in the tool's configuration, or with "
                    + "$AUTHVAULT_PROFILE.")
        }
    }
}
