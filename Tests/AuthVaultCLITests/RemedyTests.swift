import AuthAgent
import AuthStore
import AuthVaultApp
import CognitoAuth
import HTTPTransport
import TestSupport
import Testing
import TokenVault

@testable import AuthVaultCLI

/// Issue 11 item 2: the libraries report reasons and name no command or flag; the command line adds the remedy.
@Suite struct RemedyTests {
    @Test func vaultReasonsGetTheCommandThatHelps() {
        #expect(
            CLIErrors.from(ApplicationError(VaultError.unavailable("no bus")), profile: "work").message.contains(
                "'authvault configure --profile work --vault file'"))
        #expect(
            CLIErrors.from(ApplicationError(VaultError.locked("default")), profile: "work").message.contains(
                "--vault file"))
        #expect(
            CLIErrors.from(ApplicationError(VaultError.timedOut(seconds: 5)), profile: "work").message.contains(
                "--vault file"))
        #expect(
            CLIErrors.from(ApplicationError(AuthStoreError.vault(.unavailable("no bus")), need: .work), profile: "work")
                .message
                .contains("--vault file"))
        #expect(
            CLIErrors.from(ApplicationError(VaultError.wrongPassphrase), profile: "work").message
                == VaultError.wrongPassphrase.description)
        #expect(
            CLIErrors.from(ApplicationError(VaultError.passphraseRequired("no terminal")), profile: "work").message
                .hasSuffix("'authvault vault unlock'."))
    }

    /// A sign-in whose vault did not answer is said as the vault's failure with what to do, never as another sign-in
    /// in progress, which stays for an operation in flight.
    @Test func aVaultThatDidNotAnswerIsNotAnotherSignInInProgress() {
        let silent = CLIErrors.from(
            ApplicationError(AuthStoreError.vault(.timedOut(seconds: 3)), need: .work), profile: "work")
        #expect(
            silent.message
                == "The Secret Service did not answer within 3.0 s. Check the keyring daemon. Try again once it "
                + "answers, or keep the profile in the encrypted file: 'authvault configure --profile work --vault file'."
        )
        #expect(silent.status == .failure)
        let busy = CLIErrors.from(
            ApplicationError(AuthStoreError.busy("sign-in, refresh or sign-out"), need: .work), profile: "work")
        #expect(busy.message == "Another sign-in, refresh or sign-out is in progress for this profile.")
    }

    @Test func storeAndLockReasonsGetTheCommandThatHelps() {
        #expect(!AuthStoreError.signInRequired(nil).description.contains("authvault"))
        #expect(
            CLIErrors.from(ApplicationError(AuthStoreError.signInRequired(nil), need: .work), profile: "work").message
                == "Not signed in. Run 'authvault login --profile work' in a terminal.")
        #expect(
            CLIErrors.from(ApplicationError(AuthStoreError.challengeExpired, need: .work), profile: "work").message
                .hasSuffix(
                    "Run 'authvault login --profile work' again."))
        #expect(!VaultError.lockedUntilUnlocked.description.contains("authvault"))
        #expect(
            CLIErrors.from(ApplicationError(VaultError.lockedUntilUnlocked), profile: "work").message.hasSuffix(
                "Run 'authvault vault unlock' to open it again."))
    }

    /// Machine sign-in: the refusals name no command; the command line names the configure option that fixes each,
    /// and a refusal is neither "sign in" nor "the network".
    @Test func machineSignInRefusalsGetTheConfigureOptionThatHelps() {
        let secret = CognitoError.clientCredentialsRefused(.invalidClient, message: "")
        let scope = CognitoError.clientCredentialsRefused(.invalidScope, message: "asked for: api/missing")
        let grant = CognitoError.clientCredentialsRefused(.unauthorizedClient, message: "")
        for reason in [secret, scope, grant] { #expect(!reason.description.contains("authvault")) }
        let rejectedSecret = CLIErrors.from(ApplicationError(AuthStoreError.rejected(secret), need: .ci), profile: "ci")
        #expect(
            rejectedSecret.message.contains("'authvault configure --profile ci --client-secret-stdin'")
                && rejectedSecret.status == .failure)
        let noSecret = CLIErrors.from(
            ApplicationError(AuthStoreError.rejected(.missingClientSecret), need: .ci), profile: "ci")
        #expect(noSecret.message.contains("'authvault configure --profile ci --client-secret-stdin'"))
        let rejectedScope = CLIErrors.from(ApplicationError(AuthStoreError.rejected(scope), need: .ci), profile: "ci")
        #expect(
            rejectedScope.message.contains("api/missing")
                && rejectedScope.message.contains("'authvault configure --profile ci --scopes"))
        #expect(
            CLIErrors.from(ApplicationError(AuthStoreError.rejected(grant), need: .ci), profile: "ci").message
                == grant.description
        )
        // A user's things asked of a machine profile: said as such, never as invalid Cognito settings.
        let idToken = CLIErrors.from(ApplicationError(AuthStoreError.noIDTokenForMachine, need: .ci), profile: "ci")
        #expect(
            !AuthStoreError.noIDTokenForMachine.description.contains("authvault")
                && !idToken.message.contains("settings are invalid"))
        #expect(
            idToken.message.contains("'authvault token --profile ci' (for kubectl-credential, --token access)")
                && idToken.status == .usage, "\(idToken.message)")
        let noUser = CLIErrors.from(ApplicationError.machineHasNoUser(profile: "ci"), profile: "ci")
        #expect(
            noUser.message.contains("machine profile") && noUser.message.contains("'authvault whoami --profile ci'")
                && noUser.status == .usage)
    }

    /// The error underneath goes along for --debug by type and case, nested ones within, never with the text it carries.
    @Test func theErrorUnderneathGoesAlongByNameOnly() {
        let refused = CLIErrors.from(
            ApplicationError(AuthStoreError.rejected(.notAuthorized(message: "user alice may not")), need: .work),
            profile: "work")
        #expect(refused.underlying == "CognitoError.notAuthorized" && refused.status == .failure)
        #expect(refused.message.contains("user alice may not") && refused.underlying?.contains("alice") == false)
        let slow = CLIErrors.from(
            ApplicationError(
                AuthStoreError.network(.deadlineExceeded(operation: "InitiateAuth", attempts: 3, lastError: nil)),
                need: .work),
            profile: "work")
        #expect(
            slow.underlying == "AuthStoreError.network(CognitoError.deadlineExceeded)"
                && slow.status == .networkUnavailable)
        #expect(
            CLIErrors.from(ApplicationError(VaultError.lockedUntilUnlocked), profile: "work").underlying == "VaultError"
        )
        #expect(CLIErrors.from(ApplicationError.machineHasNoUser(profile: "ci"), profile: "ci").underlying == nil)
    }

    /// The application layer reports reasons; the command line adds the command that helps and the exit status.
    @Test func applicationReasonsGetTheirRemedyAndStatus() {
        let missing = ConfigError.noSuchProfile(name: "work", path: "/c.json", known: [])
        #expect(!missing.description.contains("authvault"), "the reason names no command")
        let noProfile = CLIErrors.from(ApplicationError.configuration(missing), profile: "work")
        #expect(noProfile.message.contains("'authvault configure --profile work --user-pool-id ID --client-id ID'"))
        #expect(noProfile.status == .failure)
        let incomplete = CLIErrors.from(
            ApplicationError.configuration(.incomplete(profile: "work", missing: "--client-id")), profile: "work")
        #expect(
            incomplete.message.contains("'authvault configure --profile work --client-id VALUE'")
                && incomplete.status == .usage)
        let noSession = CLIErrors.from(
            ApplicationError(AuthStoreError.signInRequired(nil), need: .work), profile: "default")
        #expect(noSession.message.contains("'authvault login --profile work'") && noSession.status == .signInRequired)
        for (flow, named) in [
            (AuthFlowChoice.srp, ""), (.password, ""), (.emailOTP, " --auth-flow email-otp"),
            (.smsOTP, " --auth-flow sms-otp"),
            (.choice, " --auth-flow choice"), (.custom, " --auth-flow custom"),
        ] {
            let byCode = CLIErrors.from(
                ApplicationError(AuthStoreError.signInRequired(nil), need: SignInNeed(profile: "work", flow: flow)),
                profile: "default")
            #expect(
                byCode.message.contains("'authvault login --profile work\(named)' in a terminal"), "\(byCode.message)")
        }
        let fromAgent = CLIErrors.from(
            ApplicationError.agent(
                SignInNeed(profile: "work", flow: .custom), failure: AgentFailure(.signInRequired, "No usable session.")
            ),
            profile: "default")
        #expect(
            fromAgent.message.hasSuffix("Run 'authvault login --profile work --auth-flow custom' in a terminal.")
                && fromAgent.status == .signInRequired)
        #expect(CLIErrors.from(ApplicationError(VaultError.locked("work")), profile: "work").status == .vaultLocked)
        let variable = CLIErrors.from(
            ApplicationError.invalidVariable(name: "AUTHVAULT_KEY_CACHE_TIMEOUT", value: "soon", expected: "a number"),
            profile: "work")
        #expect(variable.status == .usage && variable.message.contains("AUTHVAULT_KEY_CACHE_TIMEOUT"))
    }

    @Test func theFileVaultNoticeGetsTheMigrateCommand() {
        let notice = ApplicationNotice.fileVaultChosen(profile: "work", directory: "/d", reason: "no session bus")
        #expect(!notice.description.contains("'authvault "))
        #expect(
            Remedy.message(notice.description, Remedy.of(notice)).hasSuffix(
                "'authvault vault migrate --to secret-service' moves them later."))
    }

    @Test func aProfileWithoutBrowserSettingsGetsTheConfigureOptions() {
        let reason = OAuthError.invalidConfiguration(
            "profile 'work' has no Hosted UI or OAuth endpoints to sign in through a browser")
        #expect(!reason.description.contains("authvault"))
        #expect(
            CLIErrors.from(ApplicationError(reason, need: .work), profile: "work").message.contains(
                "'authvault configure --profile work': --hosted-ui URL or --oidc-discovery URL"))
    }

    @Test func aTLSFailureGetsTheCABundleFlagHoweverDeepItIs() {
        let tls = CognitoError.network(.tlsFailure("unknown issuer"))
        #expect(CLIErrors.from(ApplicationError(tls, need: .work), profile: "work").message.contains("--ca-bundle"))
        let retried = CognitoError.deadlineExceeded(operation: "InitiateAuth", attempts: 3, lastError: tls)
        #expect(
            CLIErrors.from(ApplicationError(AuthStoreError.network(retried), need: .work), profile: "work").message
                .contains(
                    "--ca-bundle"))
        #expect(
            !CLIErrors.from(ApplicationError(CognitoError.network(.timedOut), need: .work), profile: "work").message
                .contains(
                    "--ca-bundle"))
        let oauthTLS = OAuthError.network(.tlsFailure("unknown issuer"))
        #expect(
            CLIErrors.from(ApplicationError(oauthTLS, need: .work), profile: "work").message.contains("--ca-bundle"))
        let oauthRetried = OAuthError.deadlineExceeded(
            operation: "the refresh-token grant", attempts: 2, lastError: oauthTLS)
        #expect(
            CLIErrors.from(ApplicationError(oauthRetried, need: .work), profile: "work").message.contains("--ca-bundle")
        )
        #expect(
            CLIErrors.from(ApplicationError(oauthRetried, need: .work), profile: "work").status == .networkUnavailable)
    }

    /// The OAuth client's reasons get the exit status their meaning asks for; nothing sent shows in the message.
    @Test func oauthReasonsGetTheirExitStatus() {
        let over = OAuthError.refused(
            .invalidGrant, description: "token <redacted> is dead", status: 400, operation: .refresh)
        #expect(CLIErrors.from(ApplicationError(over, need: .work), profile: "work").status == .signInRequired)
        #expect(CLIErrors.from(ApplicationError(over, need: .work), profile: "work").message.contains("sign in again"))
        #expect(
            CLIErrors.from(
                ApplicationError(
                    OAuthError.refused(.temporarilyUnavailable, description: "", status: 400, operation: .refresh),
                    need: .work),
                profile: "work"
            ).status == .networkUnavailable)
        #expect(
            CLIErrors.from(
                ApplicationError(OAuthError.invalidConfiguration("no userinfo endpoint"), need: .work), profile: "work"
            )
            .status == .failure)
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

extension SignInNeed {
    /// The profiles these reasons are about, signing in by password.
    fileprivate static let work = SignInNeed(profile: "work")
    fileprivate static let ci = SignInNeed(profile: "ci")
}
