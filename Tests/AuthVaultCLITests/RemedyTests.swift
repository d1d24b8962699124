@testable import AuthVaultCLI
import AuthAgent
import AuthStore
import AuthVaultApp
import CognitoAuth
import HTTPTransport
import Testing
import TestSupport
import TokenVault

/// Issue 11 item 2: the libraries report reasons and name no command or flag; the command line adds the remedy.
@Suite struct RemedyTests {
    @Test func vaultReasonsGetTheCommandThatHelps() {
        #expect(CLIErrors.from(VaultError.unavailable("no bus")).message.contains("'authvault configure --vault file'"))
        #expect(CLIErrors.from(VaultError.locked("default")).message.contains("--vault file"))
        #expect(CLIErrors.from(VaultError.timedOut(seconds: 5)).message.contains("--vault file"))
        #expect(CLIErrors.from(AuthStoreError.vault(.unavailable("no bus"))).message.contains("--vault file"))
        #expect(CLIErrors.from(VaultError.wrongPassphrase).message == VaultError.wrongPassphrase.description)
    }

    @Test func storeAndLockReasonsGetTheCommandThatHelps() {
        #expect(!AuthStoreError.signInRequired(nil).description.contains("authvault"))
        #expect(CLIErrors.from(AuthStoreError.signInRequired(nil)).message == "Not signed in. Run 'authvault login'.")
        #expect(CLIErrors.from(AuthStoreError.challengeExpired).message.hasSuffix("Run 'authvault login' again."))
        #expect(!VaultError.lockedUntilUnlocked.description.contains("authvault"))
        #expect(CLIErrors.from(VaultError.lockedUntilUnlocked).message.hasSuffix("Run 'authvault vault unlock' to open it again."))
    }

    /// Machine sign-in: the refusals name no command; the command line names the configure option that fixes each,
    /// and a refusal is neither "sign in" nor "the network".
    @Test func machineSignInRefusalsGetTheConfigureOptionThatHelps() {
        let secret = CognitoError.clientCredentialsRefused(.invalidClient, message: "")
        let scope = CognitoError.clientCredentialsRefused(.invalidScope, message: "asked for: api/missing")
        let grant = CognitoError.clientCredentialsRefused(.unauthorizedClient, message: "")
        for reason in [secret, scope, grant] { #expect(!reason.description.contains("authvault")) }
        let rejectedSecret = CLIErrors.from(AuthStoreError.rejected(secret))
        #expect(rejectedSecret.message.contains("'authvault configure --client-secret-stdin'") && rejectedSecret.status == .failure)
        let noSecret = CLIErrors.from(AuthStoreError.rejected(.missingClientSecret))
        #expect(noSecret.message.contains("'authvault configure --client-secret-stdin'"))
        let rejectedScope = CLIErrors.from(AuthStoreError.rejected(scope))
        #expect(rejectedScope.message.contains("api/missing") && rejectedScope.message.contains("'authvault configure --scopes"))
        #expect(CLIErrors.from(AuthStoreError.rejected(grant)).message == grant.description)
    }

    /// The application layer reports reasons; the command line adds the command that helps and the exit status.
    @Test func applicationReasonsGetTheirRemedyAndStatus() {
        let missing = ConfigError.noSuchProfile(name: "work", path: "/c.json", known: [])
        #expect(!missing.description.contains("authvault"), "the reason names no command")
        let noProfile = CLIErrors.from(ApplicationError.configuration(missing))
        #expect(noProfile.message.contains("'authvault configure --profile work --user-pool-id ID --client-id ID'"))
        #expect(noProfile.status == .failure)
        let incomplete = CLIErrors.from(ApplicationError.configuration(.incomplete(profile: "work", missing: "--client-id")))
        #expect(incomplete.message.contains("'authvault configure --profile work --client-id VALUE'") && incomplete.status == .usage)
        let noSession = CLIErrors.from(ApplicationError.noUsableSession(profile: "work", reason: "not signed in"))
        #expect(noSession.message.contains("'authvault login --profile work'") && noSession.status == .signInRequired)
        for (flow, named) in [(AuthFlowChoice.srp, ""), (.password, ""), (.emailOTP, " --auth-flow email-otp"), (.smsOTP, " --auth-flow sms-otp"),
                              (.choice, " --auth-flow choice"), (.custom, " --auth-flow custom")] {
            let byCode = CLIErrors.from(ApplicationError.noUsableSession(profile: "work", reason: "not signed in")) { $0 == "work" ? flow : nil }
            #expect(byCode.message.contains("'authvault login --profile work\(named)' in a terminal"), "\(byCode.message)")
        }
        let fromAgent = CLIErrors.from(ApplicationError.agent(profile: "work", failure: AgentFailure(.signInRequired, "No usable session."))) { _ in .custom }
        #expect(fromAgent.message.hasSuffix("Run 'authvault login --profile work --auth-flow custom' in a terminal.") && fromAgent.status == .signInRequired)
        #expect(CLIErrors.from(ApplicationError.vault(.locked("work"))).status == .vaultLocked)
        let variable = CLIErrors.from(ApplicationError.invalidVariable(name: "AUTHVAULT_KEY_CACHE_TIMEOUT", value: "soon", expected: "a number"))
        #expect(variable.status == .usage && variable.message.contains("AUTHVAULT_KEY_CACHE_TIMEOUT"))
    }

    @Test func theFileVaultNoticeGetsTheMigrateCommand() {
        let notice = ApplicationNotice.fileVaultChosen(profile: "work", directory: "/d", reason: "no session bus")
        #expect(!notice.description.contains("'authvault "))
        #expect(Remedy.message(notice.description, Remedy.of(notice)).hasSuffix("'authvault vault migrate --to secret-service' moves them later."))
    }

    @Test func aProfileWithoutBrowserSettingsGetsTheConfigureOptions() {
        let reason = OAuthError.invalidConfiguration("profile 'work' has no Hosted UI or OAuth endpoints to sign in through a browser")
        #expect(!reason.description.contains("authvault"))
        #expect(CLIErrors.from(reason).message.contains("'authvault configure': --hosted-ui URL or --oidc-discovery URL"))
    }

    @Test func aTLSFailureGetsTheCABundleFlagHoweverDeepItIs() {
        let tls = CognitoError.network(.tlsFailure("unknown issuer"))
        #expect(CLIErrors.from(tls).message.contains("--ca-bundle"))
        let retried = CognitoError.deadlineExceeded(operation: "InitiateAuth", attempts: 3, lastError: tls)
        #expect(CLIErrors.from(AuthStoreError.network(retried)).message.contains("--ca-bundle"))
        #expect(!CLIErrors.from(CognitoError.network(.timedOut)).message.contains("--ca-bundle"))
        let oauthTLS = OAuthError.network(.tlsFailure("unknown issuer"))
        #expect(CLIErrors.from(oauthTLS).message.contains("--ca-bundle"))
        let oauthRetried = OAuthError.deadlineExceeded(operation: "the refresh-token grant", attempts: 2, lastError: oauthTLS)
        #expect(CLIErrors.from(oauthRetried).message.contains("--ca-bundle"))
        #expect(CLIErrors.from(oauthRetried).status == .networkUnavailable)
    }

    /// The OAuth client's reasons get the exit status their meaning asks for; nothing sent shows in the message.
    @Test func oauthReasonsGetTheirExitStatus() {
        let over = OAuthError.refused(.invalidGrant, description: "token <redacted> is dead", status: 400, operation: .refresh)
        #expect(CLIErrors.from(over).status == .signInRequired)
        #expect(CLIErrors.from(over).message.contains("sign in again"))
        #expect(CLIErrors.from(OAuthError.refused(.temporarilyUnavailable, description: "", status: 400, operation: .refresh)).status == .networkUnavailable)
        #expect(CLIErrors.from(OAuthError.invalidConfiguration("no userinfo endpoint")).status == .failure)
    }

    /// A discovery document behind a private certificate authority.
    @Test func aPrivateCAAtDiscoveryNamesTheCABundleFlag() async throws {
        let tls = try TLSFixture()
        let server = try await ScriptServer.start(
            script: "http_test_server.py", arguments: ["--cert", tls.serverCertificatePath, "--key", tls.serverKeyPath])
        let cli = try HeadlessCLI()
        let configure = await cli.runInProcess(["configure", "--oidc-discovery", "https://127.0.0.1:\(server.port)/"])
        #expect(configure.status == 1, "\(configure.stderrText)")
        #expect(configure.stderrText.contains("TLS failure"), "\(configure.stderrText)")
        #expect(configure.stderrText.contains("pass that CA's bundle with --ca-bundle"), "\(configure.stderrText)")
    }
}
