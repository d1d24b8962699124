import Foundation
import TestSupport
import Testing

/// Issue 34 item 1 with the real git (Debian's /usr/bin/git): two profiles on one host, signed in to moto as
/// different users (acme as alice, beta as bob), each wired with `authvault setup git` through the built binary.
/// `git credential fill` gets the right user's token by path (prefixes and useHttpPath) and by the user in the
/// remote URL; when nothing tells the profiles apart, no token and one line naming them; a prefix never lets
/// another host, or a path beside it, get a token.
@Suite struct TwoAccountsGitTests {
    static let password = "Two-Accounts-7!"
    static let host = "git.example.com"

    struct Accounts {
        let cli: HeadlessCLI
        /// Each profile's access token, as `authvault token` prints it.
        let tokens: [String: String]
        let gitEnvironment: [String: String]

        var gitconfig: String { cli.environment["HOME"]! + "/.gitconfig" }

        /// `git credential fill` for `url`, with `configuration` (`-c` pairs) before it.
        func fill(_ url: String, configuration: [String] = [], environment: [String: String] = [:]) async throws
            -> (password: String?, username: String?, output: ProcessOutput)
        {
            let output = try await BoundedProcess.run(
                "/usr/bin/git", configuration.flatMap { ["-c", $0] } + ["credential", "fill"],
                stdin: Data("url=\(url)\n\n".utf8), environment: gitEnvironment.merging(environment) { $1 })
            let lines = output.stdoutText.split(separator: "\n")
            func value(_ key: String) -> String? {
                lines.first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
            }
            expectNoSecrets(in: output.stderrText, Array(tokens.values), "git's stderr for \(url)")
            return (value("password"), value("username"), output)
        }

        func setup(_ profile: String, _ host: String, undo: Bool = false) async throws -> ProcessOutput {
            try await cli.run(["--profile", profile, "setup", "git", "--host", host] + (undo ? ["--undo"] : []))
        }
    }

    /// Two profiles of one pool: acme signed in as alice, beta as bob.
    func signedIn() async throws -> Accounts {
        let pool = try await CognitoPool.make()
        let cli = try HeadlessCLI()
        cli.remember(Self.password, as: "the password")
        var tokens: [String: String] = [:]
        for (profile, user) in [("acme", "alice"), ("beta", "bob")] {
            try await pool.createUser(user, password: Self.password)
            let configure = try await cli.run([
                "--profile", profile, "configure", "--user-pool-id", pool.poolId, "--client-id", pool.clientId,
                "--endpoint", pool.moto.endpoint, "--jwks-url", pool.jwksURL,
            ])
            #expect(configure.status == 0, "\(configure.stderrText)")
            let login = try await cli.run(
                ["--profile", profile, "login", "--password", "--username", user, "--password-stdin"],
                stdin: Self.password + "\n")
            #expect(login.status == 0, "\(login.stderrText)")
            // `token` first: the transcript knows its output holds a token.
            let token = try await cli.run(["token", "--profile", profile])
            tokens[profile] = token.stdoutText.trimmingCharacters(in: .newlines)
        }
        let environment = cli.environment.merging([
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C",
        ]) { $1 }
        return Accounts(cli: cli, tokens: tokens, gitEnvironment: environment)
    }

    @Test func byPathPrefixEachRepositoryGetsItsOwnAccount() async throws {
        let accounts = try await signedIn()
        let host = Self.host
        let first = try await accounts.setup("acme", "\(host)/acme")
        #expect(first.status == 0, "\(first.stderrText)")
        let second = try await accounts.setup("beta", "\(host)/beta/")
        #expect(second.status == 0, "\(second.stderrText)")
        let config = try String(contentsOfFile: accounts.gitconfig, encoding: .utf8)
        #expect(config.contains("useHttpPath = true"), "\(config)")
        #expect(!config.contains("--profile"), "one entry for the host that names no profile: \(config)")

        for (url, profile, user) in [
            ("https://\(host)/acme/app.git", "acme", "alice"), ("https://\(host)/beta/site.git", "beta", "bob"),
            ("https://\(host)/acme", "acme", "alice"), ("https://\(host)/beta/deep/er/x.git", "beta", "bob"),
            // The prefix beats the user in the URL (and the answer names the token's user).
            ("https://alice@\(host)/beta/site.git", "beta", "bob"),
        ] {
            let answer = try await accounts.fill(url)
            #expect(answer.output.status == 0, "\(url): \(answer.output.stderrText)")
            expectSecret(accounts.tokens[profile], equals: answer.password, "\(url) gets \(profile)'s token")
            #expect(answer.username == user, "\(url)")
        }

        // Hostile: a path beside a prefix, an escaped way out of it, another host with git sending the path.
        let everyHost = "credential.helper=!\(accounts.cli.authvault) git-credential"
        for url in [
            "https://\(host)/acme2/app.git", "https://\(host)/x/acme/app.git", "https://\(host)/acme%2F..%2Fbeta/x.git",
            "https://evil.example.com/acme/app.git", "https://\(host).evil.example/acme/app.git",
            "http://\(host)/acme/app.git",
        ] {
            let answer = try await accounts.fill(url, configuration: [everyHost, "credential.useHttpPath=true"])
            #expect(answer.password == nil, "\(url) gets no token")
            #expect(answer.output.status != 0, "git found no credential for \(url)")
            #expect(answer.output.stderrText.contains("terminal prompts disabled"), "\(answer.output.stderrText)")
            #expect(!answer.output.stderrText.contains("authvault:"), "a host no prefix names is no choice to make")
        }
        accounts.cli.expectNoSecretLeaks()
    }

    @Test func byUserNameInTheRemoteURLAndOtherwiseNoAnswerNamingTheCandidates() async throws {
        let accounts = try await signedIn()
        let host = Self.host
        for profile in ["acme", "beta"] {
            let setup = try await accounts.setup(profile, host)
            #expect(setup.status == 0, "\(setup.stderrText)")
        }
        let config = try String(contentsOfFile: accounts.gitconfig, encoding: .utf8)
        #expect(!config.contains("--profile") && !config.contains("useHttpPath"), "\(config)")

        for (url, profile, user) in [
            ("https://alice@\(host)/team/app.git", "acme", "alice"),
            ("https://bob@\(host)/bob/dotfiles.git", "beta", "bob"),
        ] {
            let answer = try await accounts.fill(url)
            #expect(answer.output.status == 0, "\(url): \(answer.output.stderrText)")
            expectSecret(accounts.tokens[profile], equals: answer.password, "\(url) gets \(profile)'s token")
            #expect(answer.username == user)
        }

        // Nothing tells them apart: no token, and one line naming both and how to choose.
        let ambiguous = try await accounts.fill("https://\(host)/team/app.git")
        #expect(ambiguous.password == nil)
        #expect(ambiguous.output.status != 0, "git has no credential, and may not prompt")
        let said = ambiguous.output.stderrText.split(separator: "\n").filter { $0.hasPrefix("authvault:") }
        #expect(said.count == 1, "\(ambiguous.output.stderrText)")
        for word in ["'acme', 'beta'", "--profile", "https://USER@\(host)/", "useHttpPath"] {
            #expect(said.first?.contains(word) == true, "\(word): \(said)")
        }
        let helper = try await accounts.cli.run(
            ["git-credential", "get"], stdin: "protocol=https\nhost=\(host)\npath=team/app.git\n\n")
        #expect(helper.status == 0, "an exit status git takes as 'no answer'")
        #expect(helper.stdout.isEmpty)
        #expect(helper.stderrText.split(separator: "\n").count == 1, "\(helper.stderrText)")

        // docker asks by registry name alone: with both listing it, no token, and why.
        let docker = try await accounts.cli.run(["docker-credential", "get"], stdin: host + "\n")
        #expect(docker.status == 1)
        #expect(docker.stdoutText == "credentials not found in native keychain\n")
        #expect(docker.stderrText.contains("profiles 'acme', 'beta' all list it"), "\(docker.stderrText)")

        // A user nobody is signed in as leaves it open too; a profile named explicitly wins over the URL's user.
        #expect(try await accounts.fill("https://mallory@\(host)/team/app.git").password == nil)
        let named = try await accounts.fill(
            "https://bob@\(host)/bob/dotfiles.git", environment: ["AUTHVAULT_PROFILE": "acme"])
        expectSecret(accounts.tokens["acme"], equals: named.password, "AUTHVAULT_PROFILE chooses")

        // The undo of one leaves the entry to the other; the last puts the file back (setup created it).
        #expect(try await accounts.setup("acme", host, undo: true).status == 0)
        let left = try String(contentsOfFile: accounts.gitconfig, encoding: .utf8)
        #expect(left.contains("--profile beta git-credential"), "\(left)")
        expectSecret(
            accounts.tokens["beta"], equals: try await accounts.fill("https://\(host)/team/app.git").password,
            "beta alone answers now")
        #expect(try await accounts.setup("beta", host, undo: true).status == 0)
        #expect(!FileManager.default.fileExists(atPath: accounts.gitconfig))
        accounts.cli.expectNoSecretLeaks()
    }
}
