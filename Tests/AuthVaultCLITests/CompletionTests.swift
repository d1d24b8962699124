import Foundation
import TestSupport
import Testing

@testable import AuthVaultCLI

/// `authvault completion bash|zsh|fish`, from the built binary, run by the shells themselves: bash's completion
/// function called as bash calls it (COMP_WORDS, COMP_CWORD), zsh through its bash compatibility, fish's own
/// `complete -C`. Profile names come from the binary being completed, reading the line's configuration.
@Suite struct CompletionTests {
    let authvault = BuiltProducts.executable("authvault")
    let home: TemporaryDirectory
    let environment: [String: String]

    init() throws {
        home = try TemporaryDirectory(prefix: "authvault-completion")
        let binDirectory = URL(fileURLWithPath: BuiltProducts.executable("authvault")).deletingLastPathComponent().path
        environment = [
            "HOME": home.path, "XDG_CONFIG_HOME": home.appending("config"), "LANG": "C.UTF-8",
            "PATH": binDirectory + ":/usr/bin:/bin",
        ]
        for (profile, pool) in [("work", "us-east-1_Work1"), ("personal", "eu-west-1_Home2")] {
            let output = try ProcessRunner.run(
                authvault,
                [
                    "--profile", profile, "configure", "--user-pool-id", pool, "--client-id", "c1",
                    "--vault", "file",
                ], environment: environment, timeout: 30)
            guard output.status == 0 else { throw TestFixtureError("configure: \(output.stderrText)") }
        }
    }

    private func script(_ shell: String) throws -> String {
        let output = try ProcessRunner.run(authvault, ["completion", shell], environment: environment, timeout: 30)
        guard output.status == 0, output.stderrText.isEmpty else {
            throw TestFixtureError("completion \(shell): \(output.stderrText)")
        }
        let path = home.appending("authvault.\(shell)")
        try output.stdout.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// What bash's completion offers for `words`, the last one being completed (`authvault` first is the built one).
    private func bash(_ words: [String]) throws -> [String] {
        let quoted = ([words[0] == "authvault" ? authvault : words[0]] + words.dropFirst()).map { "'\($0)'" }.joined(
            separator: " ")
        let program =
            "source \(try script("bash")) && COMP_WORDS=(\(quoted)) && COMP_CWORD=\(words.count - 1) && _authvault && printf '%s\\n' \"${COMPREPLY[@]}\""
        let output = try ProcessRunner.run(
            "/bin/bash", ["--norc", "--noprofile", "-c", program], environment: environment, timeout: 30)
        #expect(output.status == 0 && output.stderrText.isEmpty, "\(output.stderrText)")
        return output.stdoutText.split(separator: "\n").map(String.init)
    }

    /// The package installs its bash completion where only the bash-completion package loads it from.
    @Test func theDebianPackageRecommendsWhatLoadsItsBashCompletion() throws {
        #expect(
            try PackageFiles.text("Scripts/install-tree.sh").contains(
                "bash_completion=share/bash-completion/completions/"))
        let control = try PackageFiles.text("Packaging/control.in").split(separator: "\n")
        let recommends = try #require(control.first { $0.hasPrefix("Recommends:") })
        #expect(
            recommends.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.contains(
                "bash-completion"), "\(recommends)")
    }

    @Test func bashCompletesCommandsOptionsValuesAndProfiles() throws {
        let top = try bash(["authvault", ""])
        for command in AuthVault.commands.children.map(\.name) { #expect(top.contains(command), "offers \(command)") }
        #expect(try bash(["authvault", "pro"]) == ["profiles"])
        #expect(Set(try bash(["authvault", "vault", ""])) == Set(VaultCommands.group.children.map(\.name)))
        #expect(Set(try bash(["authvault", "profiles", ""])) == ["list", "use", "remove"])
        #expect(Set(try bash(["authvault", "token", "--format", ""])) == ["bare", "header", "json"])
        // bash splits --format=j at the '=' (COMP_WORDBREAKS).
        #expect(try bash(["authvault", "token", "--format", "=", "j"]) == ["json"])
        #expect(Set(try bash(["authvault", "configure", "--vault", ""])) == ["auto", "secret-service", "file"])
        #expect(Set(try bash(["authvault", "completion", ""])) == ["bash", "zsh", "fish"])
        #expect(
            Set(try bash(["authvault", "status", "--"])).isSuperset(of: ["--json", "--all", "--profile", "--config"]))
        #expect(try bash(["authvault", "token", "--cl"]) == ["--claims"])
        // Profile names, asked of the binary on the line, after a global option and inside a group.
        #expect(Set(try bash(["authvault", "--profile", ""])) == ["personal", "work"])
        #expect(try bash(["authvault", "-p", "w"]) == ["work"])
        #expect(Set(try bash(["authvault", "profiles", "use", ""])) == ["personal", "work"])
        #expect(try bash(["authvault", "-p", "work", "profiles", "remove", "p"]) == ["personal"])
        // An option's value is skipped while walking the line: 'status' is still the command here.
        #expect(try bash(["authvault", "--profile", "work", "status", "--a"]) == ["--all"])
        // Free text gets no offer.
        #expect(try bash(["authvault", "configure", "--client-id", ""]).isEmpty)
    }

    @Test func bashCompletesProfilesOfTheLinesConfiguration() throws {
        let other = home.appending("other.json")
        let output = try ProcessRunner.run(
            authvault,
            [
                "--config", other, "--profile", "elsewhere", "configure", "--user-pool-id",
                "us-east-1_Other1", "--client-id", "c2",
            ], environment: environment, timeout: 30)
        #expect(output.status == 0, "\(output.stderrText)")
        #expect(try bash(["authvault", "--config", other, "--profile", ""]) == ["elsewhere"])
    }

    /// A configuration file from anywhere (a cloned repository, given with --config) may name a profile `$(...)`:
    /// completion runs none of it. The file is refused as it is read, and the completion function takes names as
    /// text even from a binary that prints such a name.
    @Test func completionRunsNoCodeFromAProfileName() throws {
        let marker = home.appending("ran")
        let hostileName = "$(touch \(marker))`touch \(marker)`"
        let hostile = home.appending("hostile.json")
        let configure = try ProcessRunner.run(
            authvault,
            [
                "--config", hostile, "--profile", "victim", "configure", "--user-pool-id",
                "us-east-1_Other1", "--client-id", "c2",
            ], environment: environment, timeout: 30)
        #expect(configure.status == 0, "\(configure.stderrText)")
        let text = try String(contentsOfFile: hostile, encoding: .utf8)
        try text.replacing("\"victim\"", with: "\"\(hostileName)\"").write(
            toFile: hostile, atomically: true, encoding: .utf8)

        #expect(try bash(["authvault", "--config", hostile, "--profile", ""]).isEmpty)
        let listed = try ProcessRunner.run(
            authvault, ["--config", hostile, "profiles", "list"], environment: environment, timeout: 30)
        #expect(listed.status != 0 && listed.stderrText.contains("is not allowed"), "\(listed.stderrText)")

        let printing = home.appending("printing-names")
        try "#!/bin/sh\nprintf '%s\\n' '\(hostileName)' work\n".write(
            toFile: printing, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: printing)
        #expect(try bash([printing, "--profile", ""]) == [hostileName, "work"])
        #expect(try bash([printing, "--profile", "w"]) == ["work"])
        #expect(!FileManager.default.fileExists(atPath: marker), "a profile name ran as code")
    }

    @Test func zshCompletesThroughItsBashCompatibility() throws {
        let path = try script("zsh")
        let program = """
            autoload -U compinit && compinit -u -D && source \(path) || exit 9
            print -r -- "registered: ${_comps[authvault]}"
            emulate -L sh; setopt kshglob noshglob braceexpand
            COMP_WORDS=('\(authvault)' token --format ''); COMP_CWORD=3; _authvault; printf '%s\\n' "${COMPREPLY[@]}"
            COMP_WORDS=('\(authvault)' profiles use ''); COMP_CWORD=3; _authvault; printf '%s\\n' "${COMPREPLY[@]}"
            """
        let output = try ProcessRunner.run(
            "/usr/bin/zsh", ["-f", "-c", program], environment: environment, timeout: 30)
        #expect(output.status == 0, "\(output.stderrText)")
        let lines = output.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.first == "registered: _bash_complete -F _authvault", "\(output.stdoutText)")
        #expect(Set(lines.dropFirst()) == ["bare", "header", "json", "personal", "work"])
    }

    @Test func fishCompletesFromItsOwnScript() throws {
        let path = try script("fish")
        func complete(_ line: String) throws -> [String] {
            let output = try ProcessRunner.run(
                "/usr/bin/fish", ["--no-config", "-c", "source \(path); complete -C '\(line)'"],
                environment: environment, timeout: 30)
            #expect(output.status == 0 && output.stderrText.isEmpty, "\(output.stderrText)")
            return output.stdoutText.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        }
        let top = try complete("authvault ")
        for command in AuthVault.commands.children.map(\.name) { #expect(top.contains(command), "offers \(command)") }
        #expect(Set(try complete("authvault token --format ")) == ["bare", "header", "json"])
        #expect(Set(try complete("authvault --profile work vault ")) == Set(VaultCommands.group.children.map(\.name)))
        #expect(Set(try complete("authvault profiles use ")) == ["personal", "work"])
        #expect(try complete("authvault status --a") == ["--all"])
    }
}
