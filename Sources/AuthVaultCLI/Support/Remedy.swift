import AuthStore
import AuthVaultApp
import CognitoAuth
import HTTPTransport
import TokenVault

/// What the user does next, for the reasons the libraries report: they say what went wrong, only the command line
/// knows its own commands and flags.
enum Remedy {
    /// `description` followed by the remedy, if there is one.
    static func message(_ description: String, _ remedy: String?) -> String {
        remedy.map { "\(description) \($0)" } ?? description
    }

    /// For a tool's log, where no one is at a terminal to be asked: the exact command that signs in, naming the
    /// profile's way of signing in when it is not a password (a code Cognito sends, a choice, custom challenges).
    static func signIn(profile: String, flow: AuthFlowChoice? = nil) -> String {
        let method = flow.map { $0 == .srp || $0 == .password ? "" : " --auth-flow \($0.rawValue)" } ?? ""
        return "Run 'authvault login --profile \(profile)\(method)' in a terminal."
    }

    static func guestWhileSignedIn(profile: String) -> String {
        "Leave out --guest, or sign out first with 'authvault logout --profile \(profile)'."
    }

    /// What the agent's "vault locked" answer leaves to the user, whichever backend it was.
    static let unlockVault = "Unlock it: 'authvault vault unlock' (or log in to the desktop, for the keyring)."

    /// For a sign-in refused because the running agent cannot open the encrypted file vault: the agent takes the key
    /// from the user keyring that 'vault unlock' fills, or from its own passphrase.
    static let agentStaysLocked = "Unlock the agent first with 'authvault vault unlock' (it takes the key from the user keyring, "
        + "so leave AUTHVAULT_KEY_CACHE_TIMEOUT above 0), or restart it with its own AUTHVAULT_VAULT_PASSPHRASE_FILE."

    static func of(_ notice: ApplicationNotice) -> String? {
        switch notice {
        case .fileVaultChosen: "'authvault vault migrate --to secret-service' moves them later."
        }
    }

    static func of(_ error: ConfigError) -> String? {
        switch error {
        case .unsupportedVersion: "Upgrade authvault."
        case .noSuchProfile(let name, _, _): "Create it with 'authvault configure --profile \(name) --user-pool-id ID --client-id ID'."
        case .incomplete(let profile, let missing): "Set it with 'authvault configure --profile \(profile) \(missing) VALUE'."
        default: nil
        }
    }

    static func of(_ error: VaultError) -> String? {
        switch error {
        case .locked:
            "Unlock it (for example by logging in to the desktop, or with 'authvault vault status' in an interactive "
                + "session), or use the encrypted file: --vault file."
        case .unavailable: "On a headless machine use the encrypted file: 'authvault configure --vault file'."
        case .timedOut: "Or use the encrypted file: --vault file."
        case .lockedUntilUnlocked: "Run 'authvault vault unlock' to open it again."
        default: nil
        }
    }

    static func of(_ error: AuthStoreError) -> String? {
        switch error {
        case .signInRequired: "Run 'authvault login'."
        case .noPendingChallenge, .challengeExpired: "Run 'authvault login' again."
        default: nil
        }
    }

    static func of(_ error: HTTPError) -> String? {
        guard case .tlsFailure = error else { return nil }
        return "If the server's certificate comes from a private certificate authority, pass that CA's bundle with --ca-bundle."
    }

    static func of(_ error: CognitoError) -> String? {
        switch error {
        case .identityNotAuthorized:
            "Check that the identity pool lists this profile's user pool and app client as a provider, or run "
                + "'authvault login' if the session is old; a guest needs a pool that allows unauthenticated identities."
        case .identityPoolNotFound:
            "Check the pool id and region with 'authvault configure --identity-pool-id REGION:GUID' (and --identity-endpoint, if set)."
        case .invalidIdentityPoolConfiguration:
            "The pool's role mapping gives no role for this user: ask its administrator, or choose one of its roles with "
                + "'authvault configure --aws-role-arn ARN'."
        case .network(let transport): of(transport)
        case .deadlineExceeded(_, _, let last?): of(last)
        case .clientCredentialsRefused(.invalidClient, _), .missingClientSecret:
            "Store the app client's secret: 'authvault configure --client-secret-stdin' (the secret on standard input)."
        case .clientCredentialsRefused(.invalidScope, _):
            "Set the scopes the app client may have: 'authvault configure --scopes \"SERVER/SCOPE ...\"'."
        case .noUserPool: "Sign in with 'authvault login --browser'."
        default: nil
        }
    }

    /// As for the same reason from the user-pool API (the store's mapping keeps the transport error underneath).
    static func of(_ error: OAuthError) -> String? {
        guard case .invalidConfiguration = error else { return of(CognitoError(error)) }
        return "Set the browser sign-in with 'authvault configure': --hosted-ui URL or --oidc-discovery URL, and "
            + "--redirect-uri http://127.0.0.1:PORT/callback."
    }
}
