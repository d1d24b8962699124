/// The parts of authvault(1) that no option spec declares: what the program is, the environment it reads, its
/// files, examples. The options, commands, helper names and exit statuses come from their declarations.
enum ManPageReference {
    static let description = """
        AuthVault signs you in to an Amazon Cognito user pool or another OpenID provider (a password with SRP, a \
        browser through the Hosted UI, a client secret for machines) and keeps the tokens in the desktop keyring (the \
        Secret Service) or an encrypted file. It hands a valid token, refreshed ahead of expiry, to you, to scripts, \
        and to git, docker, kubectl, Vault and the AWS SDKs, directly or through a token agent on a Unix socket. Every \
        command has --help and a page of its own.
        """

    static let helperNames = """
        Tools run their credential helpers by fixed names; these are links to authvault, which reads the name it \
        was run by:
        """

    static let environment: [(String, String)] = [
        ("AUTHVAULT_PROFILE", "The profile to use when --profile is not given."),
        ("AUTHVAULT_CONFIG", "The configuration file when --config is not given."),
        ("AUTHVAULT_NON_INTERACTIVE", "1 or true: the same as --non-interactive."),
        (
            "GIT_TERMINAL_PROMPT",
            "0: no prompt and no helper sign-in in the commands tools run (helpers, token, exec, aws-credentials)."
        ),
        ("AUTHVAULT_DEBUG", "1 or true: the same as --debug."),
        ("AUTHVAULT_VAULT_PASSPHRASE", "The encrypted file vault's passphrase (else a file, else a prompt)."),
        ("AUTHVAULT_VAULT_PASSPHRASE_FILE", "A file (mode 0600) holding the encrypted file vault's passphrase."),
        ("AUTHVAULT_NEW_VAULT_PASSPHRASE", "The new passphrase for 'vault change-passphrase' (else a prompt)."),
        (
            "AUTHVAULT_KEY_CACHE_TIMEOUT",
            "Seconds the file vault's key, and a fresh token it served, stay in the user keyring (default 3600; 0: neither is cached). A kept token leaves sooner: at the end of its fresh window, or when its record changes or the vault is locked."
        ),
        ("AUTHVAULT_SECRET_SERVICE_TIMEOUT", "Seconds each Secret Service call may take (default 3)."),
        (
            "AUTHVAULT_AGENT_SOCKET",
            "The agent's socket (default $XDG_RUNTIME_DIR/authvault/agent.sock). Set alone, on a host with no configuration (a remote shell with the socket forwarded by ssh -R, a container), token, aws-credentials and the helpers ask that agent, which applies its own profiles' helper hosts; nothing is written there. When nobody answers on it (no socket: ssh ran without -R, or its forwarding failed; a stale one) and no profile is configured, they say so, exit 1, and name the ssh -R to connect again with."
        ),
        ("AUTHVAULT_AGENT_UID", "The user id the agent must run as, when its socket is mounted into a container."),
        (
            "https_proxy, HTTPS_PROXY, all_proxy, no_proxy",
            "The proxy for https requests, as curl reads them; loopback never goes through one."
        ),
        ("BROWSER", "The browser a browser sign-in opens (else xdg-open)."),
        (
            "XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_RUNTIME_DIR",
            "Where the configuration, the encrypted file vault and the agent's socket live."
        ),
    ]

    static let files: [(String, String)] = [
        (
            "$XDG_CONFIG_HOME/authvault/config.json",
            "The profiles (default ~/.config/authvault/config.json); no secret."
        ),
        (
            "$XDG_DATA_HOME/authvault/",
            "The encrypted file vault: vault.key (the wrapped data key), one PROFILE.record a profile, and the profile locks (default ~/.local/share/authvault/)."
        ),
        ("$XDG_RUNTIME_DIR/authvault/agent.sock", "The agent's socket (mode 0600 in a 0700 directory)."),
        (
            "/usr/lib/systemd/user/authvault-agent.socket",
            "The agent as a socket-activated user service: systemctl --user enable --now authvault-agent.socket"
        ),
    ]

    static let examples = """
        Sign in through the browser on a desktop, with a profile for a Hosted UI:
          authvault configure --user-pool-id eu-west-1_AbC123xyz --client-id 1example23456789 \\
              --hosted-ui https://myapp.auth.eu-west-1.amazoncognito.com \\
              --redirect-uri http://127.0.0.1:53682/callback
          authvault login
        Sign in with a password on a headless server, the tokens in the encrypted file vault:
          authvault configure --user-pool-id eu-west-1_AbC123xyz --client-id 1example23456789 --vault file
          authvault login --username alice
        A token for curl, and for git:
          authvault token --format header | curl -H @- https://api.example.com/
          authvault configure --helper-host git.example.com
          git config --global credential.https://git.example.com.helper authvault
        """
}
