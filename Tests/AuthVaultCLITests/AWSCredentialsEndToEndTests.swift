import Foundation
import TestSupport
import Testing

/// `authvault aws-credentials` and `exec --aws` through the binary: a signed-in profile whose identity pool is moto's,
/// behind the proxy that checks `Logins` as Cognito does (and sets how long credentials last), used by the real AWS
/// CLI (`credential_process`, from Examples/aws/config) and boto3 against moto's STS and S3.
@Suite struct AWSCredentialsEndToEndTests {
    struct Fixture {
        let profile: SignedInProfile
        let identity: IdentityPoolProxy
        let poolId: String
        /// The `Logins` key of the profile's user pool.
        let provider: String
        var cli: HeadlessCLI { profile.cli }
        var moto: MotoServer { profile.pool.moto }

        /// Signed in, the identity pool configured; credentials from it last `lifetime` seconds (an hour).
        static func make(allowGuests: Bool = false, lifetime: Double = 3600) async throws -> Fixture {
            let profile = try await SignedInProfile.make()
            let pool = profile.pool
            let provider = "cognito-idp.us-east-1.amazonaws.com/\(pool.poolId)"
            let created = try await pool.moto.call(
                "CreateIdentityPool",
                [
                    "IdentityPoolName": "e2e\(UUID().uuidString.prefix(8))",
                    "AllowUnauthenticatedIdentities": allowGuests,
                    "CognitoIdentityProviders": [["ProviderName": provider, "ClientId": pool.clientId]],
                ], service: "AWSCognitoIdentityService")
            let poolId = try #require(created["IdentityPoolId"] as? String)
            let identity = try await IdentityPoolProxy.start(
                moto: pool.moto, provider: provider, clientId: pool.clientId,
                jwksURL: pool.jwksURL, lifetime: lifetime)
            let configured = try await profile.cli.run([
                "configure", "--identity-pool-id", poolId, "--identity-endpoint", identity.endpoint,
            ])
            guard configured.status == 0 else {
                throw TestFixtureError("configure exited \(configured.status): \(configured.stderrText)")
            }
            return Fixture(profile: profile, identity: identity, poolId: poolId, provider: provider)
        }

        /// A profile "second" on the same user pool (`configure` with `extra` too), signed in as the same user.
        func signInSecondProfile(_ extra: [String] = []) async throws {
            let pool = profile.pool
            let configured = try await cli.run(
                [
                    "configure", "--profile", "second", "--user-pool-id", pool.poolId, "--client-id", pool.clientId,
                    "--endpoint", profile.proxy.endpoint, "--jwks-url", pool.jwksURL,
                ] + extra)
            guard configured.status == 0 else {
                throw TestFixtureError("configure exited \(configured.status): \(configured.stderrText)")
            }
            let login = try await cli.login(
                SignedInProfile.username, lines: [SignedInProfile.password], ["--profile", "second"])
            guard login.status == 0 else { throw TestFixtureError("login exited \(login.status): \(login.stderrText)") }
        }

        /// Examples/aws/config as a user would copy it, with the built binary and this test's profile in it.
        func writeAWSConfig() throws -> String {
            let example = try PackageFiles.text("Examples/aws/config")
            let config =
                example
                .replacingOccurrences(
                    of: "= authvault --profile work", with: "= \(cli.authvault) --profile \(HeadlessCLI.profile)"
                )
                .replacingOccurrences(of: "region = eu-west-1", with: "region = us-east-1")
            #expect(
                config.contains(
                    "credential_process = \(cli.authvault) --profile \(HeadlessCLI.profile) aws-credentials\n"))
            let path = cli.root + "/aws-config"
            try config.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }

        /// What the AWS CLI and boto3 run with: the example's profile "work", every call to moto.
        func awsEnvironment(config: String) -> [String: String] {
            cli.environment.merging([
                "AWS_CONFIG_FILE": config, "AWS_SHARED_CREDENTIALS_FILE": cli.root + "/no-aws-credentials",
                "AWS_PROFILE": "work",
                "AWS_ENDPOINT_URL": moto.baseURL, "AWS_EC2_METADATA_DISABLED": "true",
            ]) { $1 }
        }

        func aws(_ arguments: [String], environment: [String: String]) async throws -> ProcessOutput {
            try await BoundedProcess.run(
                PeerPython.path, ["-m", "awscli"] + arguments + ["--output", "json"],
                environment: environment, timeout: 120)
        }

        /// The identity-pool calls so far, as (operation, passed) with the provider checked.
        func identityCalls() async throws -> [String] {
            try await identity.records().map { record in
                "\(record.operation) \(record.refused == nil && record.provider == provider ? "ok" : "\(record.provider ?? "guest"): \(record.refused ?? "passed")")"
            }
        }
    }

    /// Twenty AWS CLI processes at once on a profile with no credentials yet make one GetId and one
    /// GetCredentialsForIdentity; STS and S3 calls of the AWS CLI and boto3 that follow, and `exec --aws` running
    /// Examples/aws/sync-to-s3.sh, reuse those credentials. No secret shows in any output.
    @Test func theAWSCLIAndBoto3TakeTheCredentialsFromOneFetch() async throws {
        let fixture = try await Fixture.make()
        let environment = fixture.awsEnvironment(config: try fixture.writeAWSConfig())
        let identities = try await withThrowingTaskGroup(of: ProcessOutput.self) { group in
            for _ in 0..<20 {
                group.addTask { try await fixture.aws(["sts", "get-caller-identity"], environment: environment) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(identities.allSatisfy { $0.status == 0 }, "\(Set(identities.map(\.stderrText)))")
        let accounts = Set(identities.map { (Self.json($0.stdoutText)["Account"] as? String) ?? "-" })
        #expect(accounts.count == 1 && !accounts.contains("-"), "\(accounts)")
        #expect(
            try await fixture.identityCalls() == ["GetId ok", "GetCredentialsForIdentity ok"],
            "one fetch for twenty processes")

        let bucket = "authvault-e2e-\(UUID().uuidString.prefix(8).lowercased())"
        let made = try await fixture.aws(["s3", "mb", "s3://\(bucket)"], environment: environment)
        #expect(made.status == 0, "\(made.stderrText)")
        let site = try TemporaryDirectory(prefix: "aws-site")
        try "hello from authvault\n".write(toFile: site.appending("index.html"), atomically: true, encoding: .utf8)
        var scriptEnvironment = fixture.cli.environment
        scriptEnvironment["PATH"] =
            "\(URL(fileURLWithPath: fixture.cli.authvault).deletingLastPathComponent().path):"
            + "\(URL(fileURLWithPath: PeerPython.path).deletingLastPathComponent().path):\(scriptEnvironment["PATH"] ?? "/usr/bin:/bin")"
        scriptEnvironment.merge([
            "AWS_ENDPOINT_URL": fixture.moto.baseURL, "AWS_DEFAULT_REGION": "us-east-1",
            "AWS_CONFIG_FILE": fixture.cli.root + "/no-aws-config", "AWS_EC2_METADATA_DISABLED": "true",
        ]) { $1 }
        let synced = try await BoundedProcess.run(
            PackageFiles.path("Examples/aws/sync-to-s3.sh"), [site.path, "s3://\(bucket)/site"],
            environment: scriptEnvironment, timeout: 120)
        #expect(synced.status == 0, "\(synced.stderrText)")
        let listed = try await fixture.aws(["s3", "ls", "s3://\(bucket)/site/"], environment: environment)
        #expect(
            listed.status == 0 && listed.stdoutText.contains("index.html"), "\(listed.stdoutText) \(listed.stderrText)")

        let boto3 = try await BoundedProcess.run(
            PeerPython.path,
            [
                "-c",
                """
                import boto3
                session = boto3.Session(profile_name="work")
                print(session.client("sts").get_caller_identity()["Account"])
                print(" ".join(bucket["Name"] for bucket in session.client("s3").list_buckets()["Buckets"]))
                """,
            ], environment: environment, timeout: 120)
        #expect(boto3.status == 0, "\(boto3.stderrText)")
        #expect(
            boto3.stdoutText.contains(accounts.first ?? "-") && boto3.stdoutText.contains(bucket), "\(boto3.stdoutText)"
        )
        #expect(try await fixture.identityCalls().count == 2, "later calls reuse the vault's credentials")

        _ = try await fixture.cli.storedRecord()
        #expect(SecretScan.names(of: fixture.cli.knownSecrets, in: identities + [made, synced, listed, boto3]).isEmpty)
        fixture.cli.expectNoSecretLeaks()
    }

    /// Credentials with less than the 15 minutes botocore insists on are replaced (for the same identity: no second
    /// GetId), with the ID token refreshed first when it has expired; `status` shows the identity and the expiry.
    @Test func credentialsNearExpiryAreReplacedUsingARefreshedIDToken() async throws {
        let fixture = try await Fixture.make()
        let cli = fixture.cli
        let first = try await cli.run(["aws-credentials", "--format", "json"])
        #expect(first.status == 0, "\(first.stderrText)")
        let issued = Self.json(first.stdoutText)
        let identityId = try #require(issued["identityId"] as? String)
        #expect(identityId.hasPrefix("us-east-1:") && issued["profile"] as? String == HeadlessCLI.profile)
        #expect((issued["expiresAtUnix"] as? Double ?? 0) > Date().timeIntervalSince1970 + 3500)

        let status = try await cli.run(["status", "--json"])
        let report = Self.json(status.stdoutText)
        #expect(report["identityId"] as? String == identityId)
        #expect(report["awsCredentialsExpireAt"] as? String == issued["expiration"] as? String)
        let text = try await cli.run(["status"])
        #expect(
            text.stdoutText.contains("Identity:   \(identityId)")
                && text.stdoutText.contains("AWS keys:   valid until"), "\(text.stdoutText)")

        var record = try await cli.ageTokens(expiringIn: -120)
        let stub = record["idToken"] as? String
        record["awsExpiresAt"] = Date().timeIntervalSince1970 + 14 * 60
        record["revision"] = (record["revision"] as? Int ?? 0) + 1
        try await cli.saveRecord(record)
        let baseline = try await fixture.profile.proxy.records().count
        let second = try await cli.run(["aws-credentials"])
        #expect(second.status == 0, "\(second.stderrText)")
        let process = Self.json(second.stdoutText)
        #expect(process["Version"] as? Int == 1 && (process["AccessKeyId"] as? String)?.isEmpty == false)
        #expect(process["SecretAccessKey"] is String && process["SessionToken"] is String)
        let expiration = try #require(ISO8601DateFormatter().date(from: process["Expiration"] as? String ?? ""))
        #expect(expiration.timeIntervalSinceNow > 15 * 60, "handed out with at least 15 minutes left")
        #expect(
            try await fixture.profile.operations(after: baseline) == ["InitiateAuth"],
            "the ID token was refreshed first")
        #expect(
            try await fixture.identityCalls() == [
                "GetId ok", "GetCredentialsForIdentity ok", "GetCredentialsForIdentity ok",
            ])
        let stored = try await cli.storedRecord()
        expectSecret(stored?["idToken"] as? String, differsFrom: stub, "the refreshed ID token is stored")
        #expect(stored?["identityId"] as? String == identityId)
        cli.expectNoSecretLeaks()
    }

    /// `--format env` and `--format ini` print the vault's credentials, and `exec --aws` gives the same to its
    /// command (and no AUTHVAULT_* variable); `--aws` with a token option is a usage error.
    @Test func everyFormatAndExecGiveTheSameCredentials() async throws {
        let fixture = try await Fixture.make()
        let cli = fixture.cli
        let json = Self.json(try await cli.run(["aws-credentials", "--format", "json"]).stdoutText)
        let keyId = try #require(json["accessKeyId"] as? String)
        let secret = try #require(json["secretAccessKey"] as? String)
        let token = try #require(json["sessionToken"] as? String)

        let env = try await cli.run(["aws-credentials", "--format", "env"])
        #expect(env.status == 0)
        expectSecret(
            "export AWS_ACCESS_KEY_ID='\(keyId)'\nexport AWS_SECRET_ACCESS_KEY='\(secret)'\n"
                + "export AWS_SESSION_TOKEN='\(token)'\nexport AWS_CREDENTIAL_EXPIRATION='\(json["expiration"] as? String ?? "")'\n",
            equals: env.stdoutText, "the export lines")
        let ini = try await cli.run(["aws-credentials", "--format", "ini"])
        expectSecret(
            "[\(HeadlessCLI.profile)]\naws_access_key_id = \(keyId)\naws_secret_access_key = \(secret)\n"
                + "aws_session_token = \(token)\n", equals: ini.stdoutText, "the credentials file section")

        let check =
            #"[ "$AWS_SECRET_ACCESS_KEY" = "$EXPECTED_SECRET" ] && [ "$AWS_SESSION_TOKEN" = "$EXPECTED_TOKEN" ] && "#
            + #"[ -z "$AUTHVAULT_VAULT_PASSPHRASE" ] && echo "$AWS_ACCESS_KEY_ID""#
        let exec = try await cli.run(
            ["exec", "--aws", "--env-credentials", "--", "/bin/sh", "-c", check],
            extraEnvironment: ["EXPECTED_SECRET": secret, "EXPECTED_TOKEN": token])
        #expect(exec.status == 0 && exec.stdoutText == keyId + "\n", "\(exec.stderrText)")
        let mixed = try await cli.run(["exec", "--aws", "--env", "API_TOKEN", "--", "/bin/true"])
        #expect(mixed.status == 2 && mixed.stderrText.contains("--aws passes AWS credentials"), "\(mixed.stderrText)")
        #expect(try await fixture.identityCalls().count == 2, "one fetch for all of them")
        cli.expectNoSecretLeaks()
    }

    /// What the user is told: the service down (exit 5), guest credentials asked while signed in (exit 2), no
    /// session (exit 3, the login to run, also through the AWS CLI), no identity pool (exit 2, the configure option);
    /// after the sign-out, guest credentials need no session (and a chosen role changes nothing of that).
    @Test func eachFailureSaysWhatToDoAndAGuestNeedsNoSession() async throws {
        let fixture = try await Fixture.make(allowGuests: true)
        let cli = fixture.cli
        let withRole = try await cli.run(["configure", "--aws-role-arn", "arn:aws:iam::123456789012:role/Reader"])
        #expect(withRole.status == 0, "\(withRole.stderrText)")

        let down = try await cli.run(["configure", "--identity-endpoint", "http://127.0.0.1:9/"])
        #expect(down.status == 0)
        let unreachable = try await cli.run(["aws-credentials"])
        #expect(
            unreachable.status == 5 && unreachable.stdout.isEmpty, "\(unreachable.status): \(unreachable.stderrText)")
        _ = try await cli.run(["configure", "--identity-endpoint", fixture.identity.endpoint])

        let guestWhileSignedIn = try await cli.run(["aws-credentials", "--guest"])
        #expect(
            guestWhileSignedIn.status == 2
                && guestWhileSignedIn.stderrText.contains("authvault logout --profile default"),
            "\(guestWhileSignedIn.stderrText)")

        // moto has no RevokeToken, so the remote half fails (status 5) after the local sign-out.
        let logout = try await cli.run(["logout"])
        #expect(
            logout.status == 0
                || (logout.status == 5 && logout.stderrText.contains("The tokens are gone from this machine")),
            "\(logout.stderrText)")
        let signedOut = try await cli.run(["aws-credentials"])
        #expect(
            signedOut.status == 3 && signedOut.stderrText.contains("authvault login --profile default"),
            "\(signedOut.stderrText)")
        let environment = fixture.awsEnvironment(config: try fixture.writeAWSConfig())
        let awsSignedOut = try await fixture.aws(["sts", "get-caller-identity"], environment: environment)
        #expect(
            awsSignedOut.status != 0 && awsSignedOut.stderrText.contains("authvault login --profile default"),
            "\(awsSignedOut.stderrText)")

        let guest = try await cli.run(["aws-credentials", "--guest", "--format", "json"])
        #expect(guest.status == 0, "\(guest.stderrText)")
        let guestKeyId = try #require(Self.json(guest.stdoutText)["accessKeyId"] as? String)
        let guestExec = try await cli.run([
            "exec", "--aws", "--env-credentials", "--guest", "--", "/bin/sh", "-c", #"echo "$AWS_ACCESS_KEY_ID""#,
        ])
        #expect(guestExec.status == 0 && guestExec.stdoutText == guestKeyId + "\n", "\(guestExec.stderrText)")
        let guestWithoutAWS = try await cli.run(["exec", "--guest", "--", "/bin/true"])
        #expect(guestWithoutAWS.status == 2, "\(guestWithoutAWS.stderrText)")
        let records = try await fixture.identity.records()
        #expect(
            records.map(\.operation) == ["GetId", "GetCredentialsForIdentity"]
                && records.allSatisfy { $0.provider == nil },
            "only the guest's calls reached the pool: \(records)")
        #expect(records.last?.role == "arn:aws:iam::123456789012:role/Reader", "the configured role is asked for")

        let unconfigured = try await cli.run(["configure", "--identity-pool-id", ""])
        #expect(unconfigured.status == 0)
        let noPool = try await cli.run(["aws-credentials", "--guest"])
        #expect(
            noPool.status == 2
                && noPool.stderrText.contains("authvault configure --profile default --identity-pool-id"),
            "\(noPool.stderrText)")
        #expect(SecretScan.names(of: cli.knownSecrets, in: [awsSignedOut]).isEmpty)
        cli.expectNoSecretLeaks()
    }

    /// A browser session from another OpenID provider (the Hosted UI stand-in, at its own issuer) gets credentials
    /// too: its ID token goes under the issuer's host and path.
    @Test func aBrowserSessionsIDTokenGoesUnderItsIssuersName() async throws {
        let browser = try await BrowserProfile.make()
        let login = try await browser.login(script: "scripted_browser.py", as: OAuthServer.poolUser, mode: "plain")
        #expect(login.status == 0, "\(login.stderrText)")
        let moto = try await MotoServer.shared()
        let created = try await moto.call(
            "CreateIdentityPool",
            [
                "IdentityPoolName": "e2e\(UUID().uuidString.prefix(8))", "AllowUnauthenticatedIdentities": false,
            ], service: "AWSCognitoIdentityService")
        let poolId = try #require(created["IdentityPoolId"] as? String)
        let provider = String(browser.server.issuer.dropFirst("http://".count))
        let identity = try await IdentityPoolProxy.start(
            moto: moto, provider: provider, clientId: browser.client.clientId,
            jwksURL: browser.server.jwksURL, lifetime: 3600, issuer: browser.server.issuer)
        let cli = browser.cli
        #expect(
            try await cli.run(["configure", "--identity-pool-id", poolId, "--identity-endpoint", identity.endpoint])
                .status == 0)
        let served = try await cli.run(["aws-credentials"])
        #expect(served.status == 0, "\(served.stderrText)")
        #expect(
            try await identity.records() == [
                .init(operation: "GetId", provider: provider, refused: nil),
                .init(operation: "GetCredentialsForIdentity", provider: provider, refused: nil),
            ])
        _ = try await cli.storedRecord()
        cli.expectNoSecretLeaks()
    }

    /// The identity pool's refusals name what to fix (exit 1): an id it does not have (ResourceNotFound), a role
    /// mapping that gives no role (InvalidIdentityPoolConfiguration), a login it does not trust (NotAuthorized).
    @Test func thePoolsRefusalsSayWhatToFix() async throws {
        let fixture = try await Fixture.make()
        let cli = fixture.cli
        // Injected in front of the checking proxy: moto answers an unknown pool id with HTTP 500, not ResourceNotFound.
        let faults = try await FaultProxy.start(upstream: String(fixture.identity.endpoint.dropLast()))
        let configured = try await cli.run(["configure", "--identity-endpoint", faults.endpoint])
        #expect(configured.status == 0)
        for (type, remedy) in [
            ("ResourceNotFoundException", "authvault configure --profile default --identity-pool-id REGION:GUID"),
            ("InvalidIdentityPoolConfigurationException", "authvault configure --profile default --aws-role-arn ARN"),
            ("NotAuthorizedException", "lists this profile's user pool and app client"),
        ] {
            try await faults.inject([.cognitoError(type)])
            let refused = try await cli.run(["aws-credentials"])
            #expect(
                refused.status == 1 && refused.stderrText.contains(remedy) && refused.stdout.isEmpty,
                "\(type): \(refused.stderrText)")
        }
        #expect(try await faults.records().map(\.operation) == ["GetId", "GetId", "GetId"], "refusals are not retried")
        #expect(try await cli.run(["aws-credentials"]).status == 0, "nothing was left broken")
        cli.expectNoSecretLeaks()
    }

    /// With the agent running, processes that cannot open the vault themselves (no passphrase) get the credentials
    /// from it: ten at once, one fetch, the same credentials.
    @Test func theAgentServesThemToProcessesWithoutThePassphrase() async throws {
        let fixture = try await Fixture.make()
        let cli = fixture.cli
        let agent = try AgentProcess.start(cli.authvault, environment: cli.environment, log: cli.root + "/agent.log")
        defer { agent.kill() }
        try await agent.waitForSocket(cli.environment["XDG_RUNTIME_DIR"]! + "/authvault/agent.sock")
        let clientEnvironment = cli.environment.filter { $0.key != "AUTHVAULT_VAULT_PASSPHRASE" }
        let outputs = try await withThrowingTaskGroup(of: ProcessOutput.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    try await BoundedProcess.run(
                        cli.authvault, ["aws-credentials", "--format", "json"], environment: clientEnvironment,
                        timeout: 30)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(
            outputs.allSatisfy { $0.status == 0 },
            "\(outputs.map(\.status)) \(Set(outputs.map(\.stderrText))); agent: \(agent.log)")
        let served = Set(
            outputs.map { output in
                let answer = Self.json(output.stdoutText)
                return "\(answer["accessKeyId"] ?? "-") \(answer["identityId"] ?? "-") \(answer["expiration"] ?? "-")"
            })
        #expect(served.count == 1)
        #expect(try await fixture.identityCalls() == ["GetId ok", "GetCredentialsForIdentity ok"])
        _ = try await cli.storedRecord()
        #expect(
            SecretScan.names(
                of: cli.knownSecrets, in: [ProcessOutput(status: 0, stdout: Data(), stderr: Data(agent.log.utf8))]
            ).isEmpty)
        #expect(try await agent.terminate(timeout: 10) == 0)
    }

    static func json(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }
}
