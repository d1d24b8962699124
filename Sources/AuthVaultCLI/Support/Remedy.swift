import AuthVaultApp

/// What the user does next, for the reasons the application reports: it says what went wrong and what would put it
/// right, only the command line knows its own commands and flags. The one rule: a command that acts on a profile is named with `--profile` and
/// the profile the reason is about (the one a helper served, too), so it fixes that profile whichever is current.
enum Remedy {
    /// `description` followed by the remedy, if there is one.
    static func message(_ description: String, _ remedy: String?) -> String {
        remedy.map { "\(description) \($0)" } ?? description
    }

    /// `command` of `profile` as the user types it, quoted: `'authvault login --profile work --browser'`.
    static func command(_ command: String, profile: String, _ options: String = "") -> String {
        "'authvault \(command) --profile \(profile)\(options.isEmpty ? "" : " " + options)'"
    }

    /// Every "sign in" remedy, a tool's log included (where no one is at a terminal to be asked): the exact command
    /// that signs the profile in here.
    static func signIn(_ need: SignInNeed) -> String {
        "Run \(login(need)) in a terminal."
    }

    /// The `login` that signs the profile in as the application found it would here (`SignInNeed`), quoted: a plain
    /// one, with the way a plain one would refuse asked for by name, and the user-pool flow when it is no password
    /// (a code Cognito sends, a choice, custom challenges).
    static func login(_ need: SignInNeed) -> String {
        let way = need.mode.map { "--" + LoginCommand.option(for: $0).long }
        let flow = need.flow.flatMap { $0 == .srp || $0 == .password ? nil : "--auth-flow \($0.rawValue)" }
        return command("login", profile: need.profile, [way, flow].compactMap { $0 }.joined(separator: " "))
    }

    static func guestWhileSignedIn(profile: String) -> String {
        "Leave out --guest, or sign out first with \(command("logout", profile: profile))."
    }

    /// What the agent's "vault locked" answer leaves to the user, whichever backend it was.
    static let unlockVault = "Unlock it: 'authvault vault unlock' (or log in to the desktop, for the keyring)."

    /// For a sign-in refused because the running agent cannot open the encrypted file vault: the agent takes the key
    /// from the user keyring that 'vault unlock' fills, or from its own passphrase.
    static let agentStaysLocked =
        "Unlock the agent first with 'authvault vault unlock' (it takes the key from the user keyring, "
        + "so leave AUTHVAULT_KEY_CACHE_TIMEOUT above 0), or restart it with its own AUTHVAULT_VAULT_PASSPHRASE_FILE."

    /// For an agent socket named in AUTHVAULT_AGENT_SOCKET that nobody answers on (a remote shell whose `ssh -R`
    /// forwarded nothing, or left a stale socket): forward it again from where the agent runs, or use this machine's
    /// own configuration.
    static func reachAgent(at path: String) -> String {
        "On the machine you connect from, run 'authvault agent' and connect again forwarding its socket here: "
            + "'ssh -R \(path):SOCKET HOST', SOCKET being the agent's ($XDG_RUNTIME_DIR/authvault/agent.sock, or one "
            + "it serves with --also-serve-socket); a socket left by an earlier connection is replaced only with "
            + "'StreamLocalBindUnlink yes' in this server's sshd_config. Or unset AUTHVAULT_AGENT_SOCKET to use a "
            + "profile configured here."
    }

    static func of(_ notice: ApplicationNotice) -> String? {
        switch notice {
        case .fileVaultChosen: "'authvault vault migrate --to secret-service' moves them later."
        }
    }

    static func of(_ error: ConfigError) -> String? {
        switch error {
        case .unsupportedVersion: "Upgrade authvault."
        case .noSuchProfile(let name, _, _):
            "Create it with 'authvault configure --profile \(name) --user-pool-id ID --client-id ID'."
        case .incomplete(let profile, let missing):
            "Set it with 'authvault configure --profile \(profile) \(missing) VALUE'."
        default: nil
        }
    }

    /// The next step the application named, in this command line's commands and flags, for `profile`.
    static func of(_ step: NextStep, profile: String) -> String {
        switch step {
        case .signInAgain: "Run \(command("login", profile: profile)) again."
        case .signInWithoutUserPool(let need): "Sign in with \(login(need))."
        case .askForAccessToken:
            "Ask for its access token: \(command("token", profile: profile)) (for kubectl-credential, --token access)."
        case .trustPrivateCA:
            "If the server's certificate comes from a private certificate authority, pass that CA's bundle with --ca-bundle."
        case .checkIdentityPoolProviders:
            "Check that the identity pool lists this profile's user pool and app client as a provider, or run "
                + "\(command("login", profile: profile)) if the session is old; a guest needs a pool that allows unauthenticated identities."
        case .setIdentityPool:
            "Check the pool id and region with \(command("configure", profile: profile, "--identity-pool-id REGION:GUID")) "
                + "(and --identity-endpoint, if set)."
        case .chooseAWSRole:
            "The pool's role mapping gives no role for this user: ask its administrator, or choose one of its roles with "
                + "\(command("configure", profile: profile, "--aws-role-arn ARN"))."
        case .storeClientSecret:
            "Store the app client's secret: \(command("configure", profile: profile, "--client-secret-stdin")) (the secret on standard input)."
        case .setScopes:
            "Set the scopes the app client may have: \(command("configure", profile: profile, "--scopes \"SERVER/SCOPE ...\""))."
        case .setBrowserSignIn:
            "Set the browser sign-in with \(command("configure", profile: profile)): --hosted-ui URL or --oidc-discovery URL, and "
                + "--redirect-uri http://127.0.0.1:PORT/callback."
        case .unlockKeyringOrUseFile:
            "Unlock it (for example by logging in to the desktop, or with 'authvault vault status' in an interactive "
                + "session), or use the encrypted file: --vault file."
        case .keepInFile:
            "On a headless machine use the encrypted file: \(command("configure", profile: profile, "--vault file"))."
        case .useFileInstead:
            "Try again once it answers, or keep the profile in the encrypted file: "
                + "\(command("configure", profile: profile, "--vault file"))."
        case .unlockVault: "Run 'authvault vault unlock' to open it again."
        case .unlockVaultInTerminal: "Or unlock it in a terminal first: 'authvault vault unlock'."
        }
    }
}
