import AuthVaultApp
import Foundation
import TestSupport
import Testing

/// `setup git` through git's own commands, read back by git: the entries wanted, everything else and the file's
/// mode kept, nothing the second time, and the undo.
@Suite struct ToolSetupCommandTests {
    @Test func gitClearsInheritedHelpersThenRunsAuthvaultForTheHost() throws {
        let fixture = try ToolSetupFixture()
        let original =
            "[user]\n\tname = Someone\n[credential]\n\thelper = store\n[credential \"https://git.example.com\"]\n\thelper = cache\n"
        try fixture.write(original, to: ".gitconfig", mode: 0o640)
        let dryRun = try fixture.setup.plan(.git(host: "Git.Example.com"))
        #expect(
            try fixture.run("git", ["config", "--global", "--get-all", "credential.https://git.example.com.helper"])
                .text == "cache\n",
            "planning writes nothing")
        try fixture.setup.apply(dryRun)
        let helper = "!\(fixture.executable) --profile work git-credential"
        let helpers = try fixture.run(
            "git", ["config", "--global", "--get-all", "credential.https://git.example.com.helper"]
        ).text
        #expect(helpers == "\n\(helper)\n", "an empty helper first, then authvault's, and the host's old one gone")
        #expect(try fixture.run("git", ["config", "--global", "user.name"]).text == "Someone\n")
        #expect(try fixture.run("git", ["config", "--global", "credential.helper"]).text == "store\n")
        #expect(try fixture.mode(".gitconfig") == 0o640)
        #expect(try fixture.helperHosts() == ["git.example.com"])
        #expect(try fixture.setup.plan(.git(host: "git.example.com")).changesNothing, "the second run changes nothing")

        try fixture.apply(.git(host: "git.example.com"), undo: true)
        #expect(
            try fixture.run("git", ["config", "--global", "--get-all", "credential.https://git.example.com.helper"])
                .text == "cache\n",
            "the helper it replaced is back")
        #expect(fixture.text(".gitconfig") == original)
        #expect(try fixture.helperHosts() == [])
        #expect(try fixture.run("git", ["config", "--global", "user.name"]).text == "Someone\n")
    }
}
