import Foundation
import TestSupport
import Testing

/// `exec --aws` through the binary: the command gets the AWS SDKs' container-credentials endpoint, served by
/// authvault while it runs, and the real AWS CLI and boto3 (against moto's STS) take their credentials from it and
/// come back for new ones as they near expiry.
@Suite struct ExecAWSEndpointEndToEndTests {
    typealias Fixture = AWSCredentialsEndToEndTests.Fixture

    /// What the AWS CLI and boto3 inside `exec` run with: no configuration or credentials file, every call to moto.
    static func awsEnvironment(_ fixture: Fixture) -> [String: String] {
        [
            "AWS_CONFIG_FILE": fixture.cli.root + "/no-aws-config",
            "AWS_SHARED_CREDENTIALS_FILE": fixture.cli.root + "/no-aws-credentials",
            "AWS_ENDPOINT_URL": fixture.moto.baseURL, "AWS_DEFAULT_REGION": "us-east-1",
            "AWS_EC2_METADATA_DISABLED": "true", "PEER_PYTHON": PeerPython.path,
        ]
    }

    /// Credentials that last 15 minutes and 8 seconds: botocore asks again once fewer than 15 minutes are left, and
    /// the endpoint, which hands out at least 16, fetches a new set for every request. The AWS CLI run twice sees two
    /// different container-role keys; one AWS CLI process (an upload whose input comes 10 s late) and boto3 in one
    /// process, across the 15-minute mark, ask the endpoint again, and boto3 signs with the new keys. authvault's own AWS keys and profile never reach the command.
    @Test func theAWSCLIAndBoto3ComeBackForNewCredentialsBeforeTheyExpire() async throws {
        let fixture = try await Fixture.make(lifetime: 15 * 60 + 8)
        let script = """
            set -e
            aws() { "$PEER_PYTHON" -m awscli "$@"; }
            echo "shadow:${AWS_ACCESS_KEY_ID:-none}:${AWS_PROFILE:-none}"
            aws configure list | grep access_key
            aws sts get-caller-identity --output text --query Account
            aws configure list | grep access_key
            aws s3 mb "s3://$BUCKET" >/dev/null
            # One AWS CLI process across the 15-minute mark: its debug log (secrets in it: kept to a private file,
            # only counted) shows the refresh and each request to the endpoint.
            port=${AWS_CONTAINER_CREDENTIALS_FULL_URI#http://127.0.0.1:}
            port=${port%%/*}
            log=$(mktemp)
            (sleep 10; echo hello) | aws --debug s3 cp - "s3://$BUCKET/slow" 2>"$log" >/dev/null
            echo "cli refreshed:$(grep -c 'Credentials need to be refreshed' "$log") endpoint:$(grep -c "127.0.0.1:$port" "$log")"
            rm "$log"
            "$PEER_PYTHON" -c '
            import time, boto3
            session = boto3.Session()
            sts = session.client("sts")
            sts.get_caller_identity()
            first = session.get_credentials().get_frozen_credentials().access_key
            time.sleep(10)
            sts.get_caller_identity()
            second = session.get_credentials().get_frozen_credentials().access_key
            print("boto3 renewed" if first != second else "boto3 kept " + first)
            '
            """
        let run = try await fixture.cli.run(
            ["exec", "--aws", "--", "/bin/sh", "-c", script],
            extraEnvironment: Self.awsEnvironment(fixture).merging([
                "AWS_ACCESS_KEY_ID": "AKIASHADOWING", "AWS_SECRET_ACCESS_KEY": "shadowing-secret",
                "AWS_PROFILE": "shadowing-profile", "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE": "/nonexistent/token",
                "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI": "/v2/credentials/shadowing",
                "BUCKET": "authvault-e2e-\(UUID().uuidString.prefix(8).lowercased())",
            ]) { $1 })
        #expect(run.status == 0, "\(run.stdoutText) \(run.stderrText)")
        let lines = run.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.first == "shadow:none:none", "\(lines)")
        let keys = lines.filter { $0.contains("access_key") }
        #expect(keys.count == 2 && keys.allSatisfy { $0.contains("container-role") }, "\(keys)")
        #expect(Set(keys).count == 2, "each AWS CLI run got a new set: \(keys)")
        #expect(lines.contains { $0.count == 12 && $0.allSatisfy(\.isNumber) }, "the account from STS: \(lines)")
        #expect(lines.last == "boto3 renewed", "\(lines)")
        let cli = try #require(lines.first { $0.hasPrefix("cli refreshed:") }, "\(lines)")
        let counts = cli.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        #expect(counts.count == 2 && counts[0] >= 1 && counts[1] >= 2, "one AWS CLI process asked again: \(cli)")
        let fetches = try await fixture.identityCalls().filter { $0 == "GetCredentialsForIdentity ok" }
        #expect(fetches.count >= 5, "one before the start, one per answer: \(fetches)")
        #expect(SecretScan.names(of: fixture.cli.knownSecrets, in: [run]).isEmpty)
        fixture.cli.expectNoSecretLeaks()
    }

    /// Only the holder of the run's token is answered: none gets 401, a wrong one (even one character off) 403,
    /// another path 404, the right one for another `Host` 403; the right one gets the container-credentials document. The endpoint is a loopback http URL,
    /// the token 32 random bytes in base64url, neither on any command line; the port is closed once the command ends.
    @Test func onlyTheHolderOfTheRunsTokenIsAnsweredAndThePortClosesAtTheEnd() async throws {
        let fixture = try await Fixture.make()
        let probe = """
            import json, os, urllib.error, urllib.request
            url = os.environ["AWS_CONTAINER_CREDENTIALS_FULL_URI"]
            token = os.environ["AWS_CONTAINER_AUTHORIZATION_TOKEN"]
            def ask(address, headers):
                try:
                    with urllib.request.urlopen(urllib.request.Request(address, headers=headers), timeout=10) as answer:
                        return answer.status, json.load(answer)
                except urllib.error.HTTPError as error:
                    return error.code, None
            off_by_one = token[:-1] + ("A" if token[-1] != "A" else "B")
            print(url)
            # A page whose name an attacker re-pointed at 127.0.0.1 (DNS rebinding) sends that name as Host.
            rebound = url.split("/")[2].replace("127.0.0.1", "attacker.example")
            print(len(token), ask(url, {})[0], ask(url, {"Authorization": "wrong"})[0],
                  ask(url, {"Authorization": off_by_one})[0], ask(url + "x", {"Authorization": token})[0],
                  ask(url, {"Authorization": token, "Host": rebound})[0])
            status, document = ask(url, {"Authorization": token})
            print(status, " ".join(sorted(document)))
            with open("/proc/%d/cmdline" % os.getppid(), "rb") as cmdline:
                arguments = cmdline.read()
            print("argv:", arguments.split(b"\\0")[1:3] == [b"exec", b"--aws"], token.encode() in arguments)
            """
        let run = try await fixture.cli.run(
            ["exec", "--aws", "--", PeerPython.path, "-c", probe], extraEnvironment: Self.awsEnvironment(fixture))
        #expect(run.status == 0, "\(run.stderrText)")
        let lines = run.stdoutText.split(separator: "\n").map(String.init)
        try #require(lines.count == 4, "\(lines) \(run.stderrText)")
        #expect(lines[0].hasPrefix("http://127.0.0.1:"), "\(lines[0])")
        #expect(lines[1] == "43 401 403 403 404 403", "none, wrong, off by one, another path, another Host")
        #expect(lines[2] == "200 AccessKeyId Expiration SecretAccessKey Token")
        #expect(lines[3] == "argv: True False", "authvault's command line does not hold the token")

        let closed = try await BoundedProcess.run(
            PeerPython.path,
            ["-c", "import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=5)", lines[0]],
            timeout: 30)
        #expect(closed.status != 0 && closed.stderrText.contains("Connection refused"), "\(closed.stderrText)")
        #expect(SecretScan.names(of: fixture.cli.knownSecrets, in: [run]).isEmpty)
        fixture.cli.expectNoSecretLeaks()
    }

    /// authvault stays the parent: SIGTERM, SIGHUP and SIGINT sent to it reach the command, and authvault exits with the
    /// command's status (128 + the signal when the signal ended it); a command's own exit status comes through;
    /// without a session the command is not started (exit 3, the login to run).
    @Test func signalsReachTheCommandAndItsStatusIsAuthvaults() async throws {
        let fixture = try await Fixture.make()
        let environment = fixture.cli.environment.merging(Self.awsEnvironment(fixture)) { $1 }
        /// `exec --aws` on a shell that runs `trap` first; `signal` goes to authvault once the shell is ready.
        func signalled(_ signal: Int32, trap: String) throws -> (said: String?, status: Int32?) {
            let process = try InteractiveProcess(
                fixture.cli.authvault,
                ["exec", "--aws", "--", "/bin/sh", "-c", trap + "; echo ready; while :; do sleep 0.1; done"],
                environment: environment)
            #expect(process.readLine(timeout: 60) == "ready")
            process.kill(signal: signal, timeout: 30)
            let said = process.readLine()
            return (said, process.terminationSignal == nil ? process.finish() : nil)
        }
        let terminated = try signalled(SIGTERM, trap: #"trap 'echo got TERM; exit 42' TERM"#)
        #expect(terminated.said == "got TERM" && terminated.status == 42)
        let interrupted = try signalled(SIGINT, trap: #"trap 'echo got INT; exit 3' INT"#)
        #expect(interrupted.said == "got INT" && interrupted.status == 3)
        let hungUp = try signalled(SIGHUP, trap: "true")
        #expect(hungUp.said == nil && hungUp.status == 128 + SIGHUP, "died of the signal, as authvault says")

        let exited = try await fixture.cli.run(["exec", "--aws", "--", "/bin/sh", "-c", "exit 7"])
        #expect(exited.status == 7, "\(exited.stderrText)")
        let missing = try await fixture.cli.run(["exec", "--aws", "--", "no-such-command-authvault"])
        #expect(missing.status == 127 && missing.stderrText.contains("Cannot run"), "\(missing.stderrText)")
        let fixed = try await fixture.cli.run([
            "exec", "--aws", "--env-credentials", "--", "/bin/sh", "-c",
            #"echo "${AWS_ACCESS_KEY_ID:+keys}:${AWS_CONTAINER_CREDENTIALS_FULL_URI:-none}""#,
        ])
        #expect(fixed.status == 0 && fixed.stdoutText == "keys:none\n", "\(fixed.stderrText)")
        let alone = try await fixture.cli.run(["exec", "--env-credentials", "--", "/bin/true"])
        #expect(alone.status == 2 && alone.stderrText.contains("--env-credentials goes with --aws"))

        // Signed out (moto has no RevokeToken: the remote half fails after the local sign-out), the command never starts.
        _ = try await fixture.cli.run(["logout"])
        let signedOut = try await fixture.cli.run(["exec", "--aws", "--", "/bin/sh", "-c", "echo started"])
        #expect(
            signedOut.status == 3 && signedOut.stdout.isEmpty
                && signedOut.stderrText.contains("authvault login --profile default"), "\(signedOut.stderrText)")
        fixture.cli.expectNoSecretLeaks()
    }
}
