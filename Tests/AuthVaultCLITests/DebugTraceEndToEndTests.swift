import Foundation
import TestSupport
import Testing

/// `--debug` and `$AUTHVAULT_DEBUG` through the binary: the profile and vault chosen, why a refresh happened, each
/// HTTP call with its status and time, how the refresh ended, and whether the agent served; never a secret (the
/// sweep reads every run's stderr for the tokens, old and new).
@Suite struct DebugTraceEndToEndTests {
    @Test func aTokenOnAnExpiredSessionSaysWhatWasDecidedAndSent() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        _ = try await cli.ageTokens(expiringIn: -60)
        let token = try await cli.run(["token", "--debug"])
        #expect(token.status == 0, "\(token.stderrText)")
        let lines = token.stderrText.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.hasPrefix("authvault debug: ") }, "\(lines)")
        for expected in [
            "profile 'default' from \(cli.configPath), its tokens in the file vault",
            "profile 'default': the access token expires in -", "in the mandatory refresh window",
            "HTTP POST \(profile.proxy.endpoint) → 200 in ", "profile 'default': refreshed the tokens",
        ] {
            #expect(lines.contains { $0.contains(expected) }, "\(expected) in \(lines)")
        }
        // Each request names its operation, not only "POST /".
        let requests = lines.filter { $0.contains("authvault debug: HTTP ") }
        #expect(
            !requests.isEmpty
                && requests.allSatisfy {
                    ["(InitiateAuth)", "(GetTokensFromRefreshToken)", "(the JWKS signing keys)"].contains(
                        where: $0.hasSuffix)
                },
            "\(requests)")
        let record = try #require(try await cli.storedRecord())
        for name in ["accessToken", "idToken", "refreshToken"] {
            if let secret = record[name] as? String { cli.remember(secret, as: "the new \(name)") }
        }

        let quiet = try await cli.run(["token"])
        #expect(quiet.stderr.isEmpty, "no trace unless asked")
        let fromEnvironment = try await cli.run(["token"], extraEnvironment: ["AUTHVAULT_DEBUG": "1"])
        #expect(
            fromEnvironment.stderrText.contains("authvault debug: profile 'default' from"),
            "\(fromEnvironment.stderrText)")
        #expect(!fromEnvironment.stderrText.contains("HTTP "), "a fresh token needs no request")
        cli.expectNoSecretLeaks()
    }
}

extension DebugTraceEndToEndTests {
    /// A machine profile's client id and secret travel as HTTP Basic: a server whose error repeats the header shows
    /// neither the header, nor its base64, nor the decoded pair, in `--debug` output or in the error.
    @Test func aBasicCredentialEchoedByTheServerIsRedacted() async throws {
        let server = try await ScriptServer.start(script: "http_test_server.py")
        let cli = try HeadlessCLI()
        let secret = "machine+secret/9=x"
        cli.remember(secret, as: "the app client secret")
        // base64("machine-client:machine%2Bsecret%2F9%3Dx"), the id and secret form-encoded as RFC 6749 asks.
        cli.remember("bWFjaGluZS1jbGllbnQ6bWFjaGluZSUyQnNlY3JldCUyRjklM0R4", as: "the Basic credentials")
        cli.remember("machine-client:machine%2Bsecret%2F9%3Dx", as: "the decoded Basic credentials")
        let configure = try await cli.run(
            [
                "configure", "--user-pool-id", "us-east-1_Machine", "--client-id", "machine-client",
                "--grant", "client-credentials", "--scopes", "api/read",
                "--hosted-ui", server.baseURL + "/echo-error", "--vault", "file", "--client-secret-stdin",
            ],
            stdin: secret + "\n")
        #expect(configure.status == 0, "\(configure.stderrText)")
        let token = try await cli.run(["token", "--debug"])
        #expect(token.status == 1, "\(token.stderrText)")
        #expect(
            token.stderrText.contains("invalid_client") && token.stderrText.contains("client <redacted> refused"),
            "\(token.stderrText)")
        #expect(!token.stderrText.contains("Basic "), "\(token.stderrText)")
        cli.expectNoSecretLeaks()
    }
}
