import AuthVaultApp
import Foundation
import TestSupport
import Testing

/// Issue 34 item 1: when several profiles list a git host, `setup git` writes one entry for the host that names no
/// profile (the helper chooses), with `useHttpPath` when a path prefix needs it; an undo leaves the entry to the
/// profiles still set up for it, and the last one puts the file back byte for byte.
@Suite struct ToolSetupSharedGitTests {
    static let original = "[user]\n\tname = Someone\n"

    func helpers(_ fixture: ToolSetupFixture) throws -> String {
        try fixture.run("git", ["config", "--global", "--get-all", "credential.https://git.example.com.helper"]).text
    }

    func usesPath(_ fixture: ToolSetupFixture) throws -> String {
        try fixture.run("git", ["config", "--global", "--get", "credential.https://git.example.com.useHttpPath"]).text
    }

    @Test func theSecondProfileTurnsTheEntryIntoTheSharedOneAndEachUndoLeavesItToTheOther() throws {
        let fixture = try ToolSetupFixture()
        try fixture.addProfile("team")
        try fixture.write(Self.original, to: ".gitconfig", mode: 0o600)
        let work = fixture.setup
        let team = fixture.setup(profile: "team")
        let acme = SetupRequest.git(host: "git.example.com/acme/")
        let beta = SetupRequest.git(host: "git.example.com/beta")

        let first = try work.plan(acme)
        #expect(first.helperHost == .add("git.example.com/acme"), "slashes around the prefix dropped")
        try work.apply(first)
        #expect(try helpers(fixture) == "\n!\(fixture.executable) --profile work git-credential\n")
        #expect(try usesPath(fixture) == "true\n", "git sends the path only with useHttpPath")
        #expect(try work.plan(acme).changesNothing, "the second run changes nothing")

        let second = try team.plan(beta)
        #expect(second.changes.contains { $0.hasSuffix("helper = !\(fixture.executable) git-credential") })
        #expect(
            second.notes.contains {
                $0.hasPrefix("profiles 'team', 'work' list git.example.com: the entry names no profile")
            })
        try team.apply(second)
        #expect(try helpers(fixture) == "\n!\(fixture.executable) git-credential\n", "one entry naming no profile")
        #expect(try fixture.helperHosts(of: "team") == ["git.example.com/beta"])
        #expect(try work.plan(acme).changesNothing && team.plan(beta).changesNothing)

        let undoWork = try work.plan(acme, undo: true)
        #expect(undoWork.notes.contains { $0.contains("profile 'team' set it up too") }, "\(undoWork.notes)")
        try work.apply(undoWork)
        #expect(try helpers(fixture) == "\n!\(fixture.executable) --profile team git-credential\n")
        #expect(try usesPath(fixture) == "true\n", "team's prefix still needs the path")
        #expect(try fixture.helperHosts() == [])
        try team.apply(try team.plan(beta, undo: true))
        #expect(fixture.text(".gitconfig") == Self.original, "the last undo puts back every byte")
    }

    /// A profile that lists the host by hand (`configure --helper-host`) shares it too: the helper must be able
    /// to choose it.
    @Test func aProfileListingTheHostByHandMakesTheEntryShared() throws {
        let fixture = try ToolSetupFixture()
        try fixture.addProfile("team")
        try fixture.application.configStore.update { (file: inout ConfigFile) throws(ConfigError) in
            try file.profiles["team"]?.editHelperHosts(adding: ["git.example.com"], removing: [])
        }
        try fixture.apply(.git(host: "git.example.com"))
        #expect(try helpers(fixture) == "\n!\(fixture.executable) git-credential\n")
        #expect(try usesPath(fixture) == "", "no prefix: no useHttpPath")
        try fixture.apply(.git(host: "git.example.com"), undo: true)
        #expect(fixture.text(".gitconfig") == nil, "setup created the file; its undo removes it")
    }

    /// The second profile's setup replaced the first one's helper, which is no value of the user's: an undo into
    /// a file edited since never brings it back after the first profile's own undo took it away.
    @Test func anUndoIntoAFileEditedSinceNeverBringsBackAnotherProfilesHelper() throws {
        let fixture = try ToolSetupFixture()
        try fixture.addProfile("team")
        let work = fixture.setup
        let team = fixture.setup(profile: "team")
        let request = SetupRequest.git(host: "git.example.com")
        try work.apply(try work.plan(request))
        try team.apply(try team.plan(request))
        try work.apply(try work.plan(request, undo: true))
        _ = try fixture.run("git", ["config", "--global", "user.name", "Someone"])
        let undo = try team.plan(request, undo: true)
        #expect(undo.notes.contains { $0.contains("changed since setup") })
        try team.apply(undo)
        #expect(try helpers(fixture) == "", "no helper of profile work comes back")
        #expect(try fixture.run("git", ["config", "--global", "user.name"]).text == "Someone\n")
    }

    /// `useHttpPath`, which setup turned on for a prefix, goes with the undo once no profile left needs a path,
    /// also in a file edited since (where the undo cannot put the old bytes back); the helper the other profile
    /// keeps stays.
    @Test func anUndoTurnsUseHttpPathOffOnceNoPrefixIsLeft() throws {
        let fixture = try ToolSetupFixture()
        try fixture.addProfile("team")
        let work = fixture.setup
        let team = fixture.setup(profile: "team")
        let acme = SetupRequest.git(host: "git.example.com/acme")
        let bare = SetupRequest.git(host: "git.example.com")
        try work.apply(try work.plan(acme))
        try team.apply(try team.plan(bare))
        #expect(try usesPath(fixture) == "true\n")
        _ = try fixture.run("git", ["config", "--global", "user.name", "Someone"])

        let undoWork = try work.plan(acme, undo: true)
        #expect(undoWork.changes.contains { $0.contains("remove useHttpPath") }, "\(undoWork.changes)")
        try work.apply(undoWork)
        #expect(try usesPath(fixture) == "", "team lists the bare host: no path needed")
        #expect(try helpers(fixture) == "\n!\(fixture.executable) --profile team git-credential\n")

        try work.apply(try work.plan(acme))
        #expect(try usesPath(fixture) == "true\n")
        try team.apply(try team.plan(bare, undo: true))
        #expect(try usesPath(fixture) == "true\n", "work's prefix still needs the path")
        try work.apply(try work.plan(acme, undo: true))
        #expect(try helpers(fixture) == "" && usesPath(fixture) == "", "the last undo leaves neither")
    }

    /// The last profile's undo into a file edited since takes `useHttpPath` away with the helper, and keeps the edit.
    @Test func theLastUndoIntoAFileEditedSinceTakesUseHttpPathAway() throws {
        let fixture = try ToolSetupFixture()
        let acme = SetupRequest.git(host: "git.example.com/acme")
        try fixture.apply(acme)
        #expect(try usesPath(fixture) == "true\n")
        _ = try fixture.run("git", ["config", "--global", "user.name", "Someone"])
        try fixture.apply(acme, undo: true)
        #expect(try helpers(fixture) == "" && usesPath(fixture) == "", "\(fixture.text(".gitconfig") ?? "")")
        #expect(try fixture.run("git", ["config", "--global", "user.name"]).text == "Someone\n")
    }

    @Test(arguments: ["git.example.com/a/../b", "git.example.com/a%2Fb", "git.example.com/a//b", "git.example.com/a b"])
    func aHostilePrefixIsRefusedBeforeAnythingIsRead(host: String) throws {
        let fixture = try ToolSetupFixture()
        #expect(throws: SetupError.self) { try fixture.setup.plan(.git(host: host)) }
        #expect(fixture.text(".gitconfig") == nil)
    }
}
