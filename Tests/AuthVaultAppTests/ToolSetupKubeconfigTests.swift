import AuthVaultApp
import Foundation
import TestSupport
import Testing

/// `setup kubectl` edits the kubeconfig itself (Debian's kubectl 1.20 panics in `config set-credentials`), read
/// back by Debian's kubectl 1.20: our user and the context's user, every other entry and the mode kept, the same
/// bytes after a plan not applied and after a second run, the undo taking back exactly ours, and no kubectl
/// needed for a file it wrote.
@Suite struct ToolSetupKubeconfigTests {
    static let kubeconfig = """
        # the team's clusters
        apiVersion: v1
        kind: Config
        clusters:
        - name: prod
          cluster:
            server: https://kube.example.com:6443
            certificate-authority: ca.pem
        users:
        - name: admin
          user:
            token: not-a-real-token
        - name: old
          user:
            as-user-extra: null
            username: someone
        contexts:
        - name: prod
          context:
            cluster: prod
            user: admin
            namespace: web
        - name: dev
          context: {cluster: prod, user: old}
        current-context: prod
        preferences: {}

        """

    @Test(arguments: [0o600, 0o640])
    func kubectlWritesAnExecUserAndPointsTheContextAtIt(mode: Int) throws {
        let fixture = try ToolSetupFixture()
        try fixture.write(Self.kubeconfig, to: "kube/config", mode: mode)
        let setup = fixture.setup(with: ["KUBECONFIG": "kube/config"])
        let before = try fixture.view("kube/config")

        let plan = try setup.plan(.kubectl(context: "prod", user: nil))
        #expect(fixture.text("kube/config") == Self.kubeconfig, "planning (a dry run) writes nothing")
        #expect(
            plan.changes == [
                "user authvault-work: exec \(fixture.executable) kubectl-credential --profile work (client.authentication.k8s.io/v1beta1, provideClusterInfo: true, interactiveMode: IfAvailable)",
                "context prod: user authvault-work (was admin)",
                "the file is rewritten as JSON, which kubectl reads as YAML (its comments are not kept)",
            ])
        try setup.apply(plan)
        #expect(try fixture.mode("kube/config") == mode)
        let written = try fixture.view("kube/config")
        let user = try #require(written.entry("authvault-work", in: "users")?["user"] as? [String: Any])
        let exec = try #require(user["exec"] as? [String: Any])
        #expect(exec["apiVersion"] as? String == "client.authentication.k8s.io/v1beta1")
        #expect(exec["command"] as? String == fixture.executable)
        #expect(exec["args"] as? [String] == ["kubectl-credential", "--profile", "work"])
        #expect(exec["provideClusterInfo"] as? Bool == true, "kubectl names the cluster's server to the plugin")
        // kubectl 1.20's view drops the field it does not know; the file holds it for newer ones.
        #expect(
            fixture.text("kube/config")?.contains(#""interactiveMode": "IfAvailable""#) == true,
            "kubectl shares its terminal when it has one")
        #expect(plan.helperHost == .add("kube.example.com:6443"), "the context's server, and no other")
        #expect(try fixture.helperHosts() == ["kube.example.com:6443"])
        #expect(
            written.entry("prod", in: "contexts")?["context"] as? NSDictionary == [
                "cluster": "prod", "user": "authvault-work", "namespace": "web",
            ])
        var expected = before
        expected["users"] =
            ((before["users"] as? [[String: Any]] ?? []) + [written.entry("authvault-work", in: "users") ?? [:]])
            .sorted { ($0["name"] as? String ?? "") < ($1["name"] as? String ?? "") }  // kubectl lists them by name
        expected["contexts"] = written["contexts"]
        #expect(written as NSDictionary == expected as NSDictionary, "every other entry is kept")

        let setUp = fixture.text("kube/config")
        #expect(try setup.plan(.kubectl(context: "prod", user: nil)).changesNothing, "the second run changes nothing")
        try setup.apply(try setup.plan(.kubectl(context: "prod", user: nil)))
        #expect(fixture.text("kube/config") == setUp, "the same bytes after the second run")

        try setup.apply(try setup.plan(.kubectl(context: "prod", user: nil), undo: true))
        #expect(fixture.text("kube/config") == Self.kubeconfig, "the YAML file's own bytes are back, comments and all")
        let context = try #require(
            try fixture.view("kube/config").entry("prod", in: "contexts")?["context"] as? [String: Any])
        #expect(context["user"] as? String == "admin", "the context's user is the one it had")
        #expect(try fixture.helperHosts() == [], "and its server")
        #expect(try fixture.mode("kube/config") == mode)
        #expect(try setup.plan(.kubectl(context: "prod", user: nil), undo: true).changesNothing)
    }

    @Test func refusesAnotherUsersNameAnUnknownContextAndAFileOthersCanWrite() throws {
        let fixture = try ToolSetupFixture()
        try fixture.write(Self.kubeconfig, to: "kube/config", mode: 0o600)
        let setup = fixture.setup(with: ["KUBECONFIG": "kube/config"])
        #expect(throws: SetupError.noSuchContext(name: "staging", known: ["dev", "prod"])) {
            try setup.plan(.kubectl(context: "staging", user: nil))
        }
        #expect(throws: SetupError.kubeconfigUserTaken(name: "admin")) {
            try setup.plan(.kubectl(context: nil, user: "admin"))
        }
        #expect(
            try setup.plan(.kubectl(context: nil, user: "admin"), undo: true).changesNothing,
            "the undo leaves a user not ours alone")

        try FileManager.default.setAttributes(
            [.posixPermissions: 0o664], ofItemAtPath: fixture.home.appending("kube/config"))
        #expect {
            try setup.plan(.kubectl(context: nil, user: nil))
        } throws: { error in
            guard case SetupError.untrusted = error else { return false }
            return "\(error)".contains("lets other users change it")
        }
        #expect(fixture.text("kube/config") == Self.kubeconfig)
    }

    /// kubectl 1.20 reads a newer file without the fields it does not know: rewriting from what it read would
    /// drop them (a v1 exec plugin's interactiveMode, which newer kubectls require).
    @Test func refusesToDropFieldsTheReadingKubectlDoesNotKnow() throws {
        let fixture = try ToolSetupFixture()
        let newer = Self.kubeconfig.replacing(
            "    token: not-a-real-token\n",
            with: """
                    exec:
                      apiVersion: client.authentication.k8s.io/v1
                      command: gke-gcloud-auth-plugin
                      interactiveMode: IfAvailable

                """)
        try fixture.write(newer, to: ".kube/config", mode: 0o600)
        #expect(
            throws: SetupError.kubeconfigFieldsUnknown(
                path: fixture.home.appending(".kube/config"), fields: ["interactiveMode"])
        ) {
            try fixture.apply(.kubectl(context: nil, user: nil))
        }
        #expect(fixture.text(".kube/config") == newer)
    }

    /// Without kubectl on the PATH: a new file (0600 in a new 0700 directory), and a file a setup wrote, are read
    /// here; only a YAML file needs kubectl, and says so.
    @Test func needsNoKubectlForANewFileOrOneItWrote() throws {
        let fixture = try ToolSetupFixture()
        let empty = fixture.home.appending("empty-bin")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let setup = fixture.setup(with: [:], searchPath: empty)
        try setup.apply(try setup.plan(.kubectl(context: nil, user: nil)))
        #expect(try fixture.mode(".kube") == 0o700)
        #expect(try fixture.mode(".kube/config") == 0o600)
        let written = try fixture.view(".kube/config")
        #expect(written["kind"] as? String == "Config")
        #expect((written.entry("authvault-work", in: "users")?["user"] as? [String: Any])?["exec"] != nil)
        let first = fixture.text(".kube/config")
        #expect(try setup.plan(.kubectl(context: nil, user: nil)).changesNothing)
        try setup.apply(try setup.plan(.kubectl(context: nil, user: nil), undo: true))
        #expect(try fixture.view(".kube/config").entry("authvault-work", in: "users") == nil)
        try setup.apply(try setup.plan(.kubectl(context: nil, user: nil)))
        #expect(fixture.text(".kube/config") == first, "set up again: the same bytes")

        try fixture.write(Self.kubeconfig, to: "yaml/config", mode: 0o600)
        #expect(throws: SetupError.toolMissing(name: "kubectl")) {
            try fixture.setup(with: ["KUBECONFIG": "yaml/config"], searchPath: empty).plan(
                .kubectl(context: nil, user: nil))
        }
    }

    /// Of `$KUBECONFIG`'s files, kubectl writes new entries to the first that exists.
    @Test func editsTheFileKubectlWouldWrite() throws {
        let fixture = try ToolSetupFixture()
        try fixture.write(Self.kubeconfig, to: "second", mode: 0o600)
        let list = ["first", "second", "third"].map { fixture.home.appending($0) }.joined(separator: ":")
        let setup = ToolSetup(
            application: Application(
                environment: EnvironmentVariables(fixture.environment.merging(["KUBECONFIG": list]) { $1 })),
            profile: "work", executable: fixture.executable)
        #expect(try setup.plan(.kubectl(context: "dev", user: nil)).target == fixture.home.appending("second"))
    }
}

extension ToolSetupFixture {
    /// The kubeconfig as Debian's kubectl 1.20 reads it.
    func view(_ relative: String) throws -> [String: Any] {
        let view = try run(
            "kubectl", ["config", "view", "--raw", "-o", "json", "--kubeconfig", home.appending(relative)])
        guard view.status == 0,
            let config = try JSONSerialization.jsonObject(with: Data(view.standardOutput)) as? [String: Any]
        else {
            throw TestFixtureError("kubectl config view: \(view.standardError)")
        }
        return config
    }
}

extension [String: Any] {
    fileprivate func entry(_ name: String, in list: String) -> [String: Any]? {
        (self[list] as? [[String: Any]])?.first { $0["name"] as? String == name }
    }
}
