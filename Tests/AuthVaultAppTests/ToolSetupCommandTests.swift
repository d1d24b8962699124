import AuthVaultApp
import Foundation
import Testing
import TestSupport

/// `setup git|kubectl` through the tools' own commands (the real git, Debian's kubectl 1.20), read back by the
/// same tools: the entries wanted, everything else and the file's mode kept, nothing the second time, and the undo.
@Suite struct ToolSetupCommandTests {
    @Test func gitClearsInheritedHelpersThenRunsAuthvaultForTheHost() throws {
        let fixture = try ToolSetupFixture()
        try fixture.write("[user]\n\tname = Someone\n[credential]\n\thelper = store\n[credential \"https://git.example.com\"]\n\thelper = cache\n",
                          to: ".gitconfig", mode: 0o640)
        let dryRun = try fixture.setup.plan(.git(host: "Git.Example.com"))
        #expect(try fixture.run("git", ["config", "--global", "--get-all", "credential.https://git.example.com.helper"]).text == "cache\n",
                "planning writes nothing")
        try fixture.setup.apply(dryRun)
        let helper = "!\(fixture.executable) --profile work git-credential"
        let helpers = try fixture.run("git", ["config", "--global", "--get-all", "credential.https://git.example.com.helper"]).text
        #expect(helpers == "\n\(helper)\n", "an empty helper first, then authvault's, and the host's old one gone")
        #expect(try fixture.run("git", ["config", "--global", "user.name"]).text == "Someone\n")
        #expect(try fixture.run("git", ["config", "--global", "credential.helper"]).text == "store\n")
        #expect(try fixture.mode(".gitconfig") == 0o640)
        #expect(try fixture.helperHosts() == ["git.example.com"])
        #expect(try fixture.setup.plan(.git(host: "git.example.com")).changesNothing, "the second run changes nothing")

        try fixture.apply(.git(host: "git.example.com"), undo: true)
        #expect(try fixture.run("git", ["config", "--global", "--get-all", "credential.https://git.example.com.helper"]).status == 1)
        #expect(try fixture.helperHosts() == [])
        #expect(try fixture.run("git", ["config", "--global", "user.name"]).text == "Someone\n")
    }

    @Test func kubectlWritesAnExecUserAndPointsTheContextAtIt() throws {
        let fixture = try ToolSetupFixture()
        try fixture.write("""
            apiVersion: v1
            kind: Config
            clusters:
            - name: prod
              cluster:
                server: https://kube.example.com:6443
            users:
            - name: admin
              user:
                token: not-a-real-token
            contexts:
            - name: prod
              context:
                cluster: prod
                user: admin
            current-context: prod

            """, to: "kube/config", mode: 0o640)
        let setup = fixture.setup(with: ["KUBECONFIG": "kube/config"])
        #expect(throws: SetupError.noSuchContext(name: "staging", known: ["prod"])) { try setup.plan(.kubectl(context: "staging", user: nil)) }
        #expect(throws: SetupError.kubeconfigUserTaken(name: "admin")) { try setup.plan(.kubectl(context: nil, user: "admin")) }

        let before = fixture.text("kube/config")
        let plan = try setup.plan(.kubectl(context: "prod", user: nil))
        #expect(fixture.text("kube/config") == before, "planning (a dry run) writes nothing")
        #expect(plan.changes.count == 2)
        #expect(plan.changes.last == "context prod: user authvault-work (was admin)")
        try setup.apply(plan)
        let view = try fixture.run("kubectl", ["--kubeconfig", fixture.home.appending("kube/config"), "config", "view", "-o", "json"])
        let config = try #require(try JSONSerialization.jsonObject(with: Data(view.standardOutput)) as? [String: Any])
        let users = try #require(config["users"] as? [[String: Any]])
        let exec = try #require(((users.first { $0["name"] as? String == "authvault-work" })?["user"] as? [String: Any])?["exec"] as? [String: Any])
        #expect(exec["apiVersion"] as? String == "client.authentication.k8s.io/v1beta1")
        #expect(exec["command"] as? String == fixture.executable)
        #expect(exec["args"] as? [String] == ["kubectl-credential", "--profile", "work"])
        #expect(users.contains { $0["name"] as? String == "admin" }, "the other user is kept")
        let contexts = try #require(config["contexts"] as? [[String: Any]])
        #expect((contexts.first?["context"] as? [String: Any])?["user"] as? String == "authvault-work")
        #expect((contexts.first?["context"] as? [String: Any])?["cluster"] as? String == "prod")
        #expect(config["current-context"] as? String == "prod")
        #expect(try fixture.mode("kube/config") == 0o640)
        #expect(try setup.plan(.kubectl(context: "prod", user: nil)).changesNothing, "the second run changes nothing")

        try setup.apply(try setup.plan(.kubectl(context: "prod", user: nil), undo: true))
        let undone = try fixture.run("kubectl", ["--kubeconfig", fixture.home.appending("kube/config"), "config", "view", "-o", "json"])
        let after = try #require(try JSONSerialization.jsonObject(with: Data(undone.standardOutput)) as? [String: Any])
        #expect((after["users"] as? [[String: Any]])?.map { $0["name"] as? String } == ["admin"])
    }
}
