import Foundation
import TestSupport
import Testing

/// The agent's service unit sandboxes it as far as a user manager can (seccomp filters and prctl flags; no
/// capability, no namespace: the unit's comments say why each option is there or not): `systemd-analyze security`
/// finds nothing left that the unit could set, and the agent does its whole job under those filters, applied by
/// Tests/TestSupport/Scripts/unit_sandbox.py as systemd applies them.
@Suite struct SystemdSandboxTests {
    static let serviceUnit = PackageFiles.path(SystemdUnitTests.serviceUnit)
    static let hasSeccomp = (try? ProcessRunner.run(PeerPython.path, ["-c", "import seccomp"]).status) == 0

    /// What the offline rating still counts against the unit, and why a user unit leaves it: a capability (an
    /// unprivileged manager cannot drop one from the bounding set: the start would fail with 218/CAPABILITIES), a
    /// namespace (which would move the agent away from the user's keyring and the peers' uids), a system unit's
    /// setting, or what the agent is for.
    static let leftOnPurpose: [(prefix: String, why: String)] = [
        ("CapabilityBoundingSet=", "capability"),
        ("User=/DynamicUser=", "a user unit runs as its user"), ("RootDirectory=/RootImage=", "namespace"),
        ("PrivateDevices=", "namespace"), ("PrivateMounts=", "namespace"), ("PrivateNetwork=", "the identity provider"),
        ("PrivateTmp=", "namespace"), ("PrivateUsers=", "namespace"), ("ProtectClock=", "capability"),
        ("ProtectControlGroups=", "namespace"), ("ProtectHome=", "namespace: the vault is in the home directory"),
        ("ProtectHostname=", "namespace"), ("ProtectKernelLogs=", "capability"),
        ("ProtectKernelModules=", "capability"),
        ("ProtectKernelTunables=", "namespace"), ("ProtectProc=", "namespace"), ("ProcSubset=", "namespace"),
        ("ProtectSystem=", "namespace"), ("DeviceAllow=", "cgroup device controller: system manager only"),
        ("IPAddressDeny=", "cgroup BPF: system manager only"),
        ("RestrictAddressFamilies=~AF_UNIX", "its socket and D-Bus"),
        ("RestrictAddressFamilies=~AF_(INET|INET6)", "the identity provider"),
        ("SystemCallFilter=~@resources", "setrlimit: the agent lowers its core-size limit"),
    ]

    /// The unit as installed (Scripts/install-tree.sh into a staging root): the rating's every open item is one a
    /// user unit cannot or must not set, and the overall exposure is 6.3 or lower (9.4 with NoNewPrivileges alone).
    @Test(.enabled(if: SystemdUnitTests.hasSystemdAnalyze, "systemd-analyze is not installed (Debian package systemd)"))
    func theInstalledUnitLeavesOnlyWhatAUserManagerCannotApply() async throws {
        let root = try TemporaryDirectory(prefix: "installed-unit")
        let installed = try await BoundedProcess.run(
            PackageFiles.path("Scripts/install-tree.sh"),
            ["install", BuiltProducts.executable("authvault")],
            environment: ["DESTDIR": root.path, "PREFIX": "/usr", "PATH": "/usr/bin:/bin"],
            timeout: 60)
        try #require(installed.status == 0, "\(installed.stderrText)")
        let unit = root.appending("usr/lib/systemd/user/authvault-agent.service")
        let analyze = { (format: [String]) in
            try await BoundedProcess.run(
                "/usr/bin/systemd-analyze", ["security", "--offline=true"] + format + [unit],
                environment: ["PATH": "/usr/bin:/bin"], timeout: 25)
        }

        let items = try await analyze(["--json=short"])
        let rated = try #require(
            try JSONSerialization.jsonObject(with: items.stdout) as? [[String: Any]], "\(items.stderrText)")
        let open = rated.filter { ($0["set"] as? Bool) == false && $0["exposure"] is String }.compactMap {
            $0["name"] as? String
        }
        #expect(!open.isEmpty, "the rating was read")
        for name in open {
            #expect(
                Self.leftOnPurpose.contains { name.hasPrefix($0.prefix) },
                "\(name) is open, and a user unit could close it")
        }

        let summary = try await analyze([])
        let level = summary.stdoutText.split(separator: "\n").last { $0.contains("Overall exposure level") }
        // "→ Overall exposure level for authvault-agent.service: 6.3 MEDIUM" and a face (":-|" without UTF-8).
        let words = level?.components(separatedBy: ": ").dropFirst().first?.split(separator: " ")
        let exposure = try #require(words?.first.flatMap { Double($0) }, "\(summary.stdoutText)")
        #expect(exposure <= 6.3, "\(level ?? "")")
    }

    /// The agent under the unit's filters (a call outside the allow list kills it here, where the unit answers
    /// EPERM, so none goes unseen), started on a passed socket: an expired session refreshed over the network and
    /// saved, the derived key kept in the kernel keyring, `vault lock` and `vault unlock` reaching it, and a token
    /// served after each, through the agent alone.
    @Test(.enabled(if: hasSeccomp, "needs python3-seccomp"))
    func theAgentServesRefreshesLocksAndUnlocksUnderTheUnitsFilters() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli
        let stub = try #require(try await cli.ageTokens(expiringIn: -120)["accessToken"] as? String)
        let keyCache = ["AUTHVAULT_KEY_CACHE_TIMEOUT": "60"]
        let launcher = try Self.sandboxedAgent(cli, extraEnvironment: keyCache)
        defer { launcher.kill() }
        _ = try await launcher.waitForLine("started ")

        let refreshed = try await Self.tokenThroughAgent(cli)
        expectSecret(refreshed, differsFrom: stub, "refreshed by the agent: \(launcher.log)")
        expectSecret(try await cli.storedRecord()?["accessToken"] as? String, equals: refreshed, "and saved")

        let lock = try await cli.run(["vault", "lock"], extraEnvironment: keyCache)
        #expect(
            lock.status == 0 && lock.stderrText.contains("in the agent too"),
            "\(lock.stderrText) agent: \(launcher.log)")
        let unlock = try await cli.run(["vault", "unlock"], extraEnvironment: keyCache)
        #expect(
            unlock.status == 0 && unlock.stderrText.contains("in the agent too"),
            "\(unlock.stderrText) agent: \(launcher.log)")
        expectSecret(try await Self.tokenThroughAgent(cli), equals: refreshed, "served after unlock")
        cli.expectNoSecretLeaks()
    }

    /// The same with the session in the Secret Service (gnome-keyring on the test's D-Bus session bus): the agent
    /// looks it up over D-Bus (AF_UNIX, libsecret and GLib loaded with dlopen) under the filters.
    @Test(
        .enabled(
            if: hasSeccomp && SecretServiceSession.isSupported,
            "needs python3-seccomp and \(SecretServiceSession.requiredTools)"))
    func theAgentServesFromTheSecretServiceUnderTheUnitsFilters() async throws {
        let profile = try await SignedInProfile.make(setup: .gnomeKeyring)
        let cli = profile.cli
        let read = try await cli.run(["token"])
        try #require(read.status == 0, "read from the keyring without an agent: \(read.stderrText)")
        let stored = read.stdoutText.trimmingCharacters(in: .newlines)
        let launcher = try Self.sandboxedAgent(cli)
        defer { launcher.kill() }
        _ = try await launcher.waitForLine("started ")
        // The client off the bus: it cannot read the keyring itself, so only the agent can answer.
        let offTheBus = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"]
        expectSecret(
            try await Self.tokenThroughAgent(cli, extraEnvironment: offTheBus), equals: stored, "agent: \(launcher.log)"
        )
        cli.expectNoSecretLeaks()
    }

    /// The service unit's command on the socket unit's socket, under unit_sandbox.py --kill.
    static func sandboxedAgent(_ cli: HeadlessCLI, extraEnvironment: [String: String] = [:]) throws -> SocketActivation
    {
        let runtime = try #require(cli.environment["XDG_RUNTIME_DIR"])
        let command = try #require(try UnitFile(PackageFiles.text(SystemdUnitTests.serviceUnit)).execStart)
        return try SocketActivation.start(
            socketPath: runtime + "/authvault/agent.sock",
            command: [
                PeerPython.path, ScriptServer.scriptPath("unit_sandbox.py"), "--kill",
                serviceUnit, "--", cli.authvault,
            ] + command.dropFirst(),
            environment: cli.environment.merging(extraEnvironment) { $1 },
            log: cli.root + "/agent.log")
    }

    /// `authvault token` with no vault passphrase (and whatever `extraEnvironment` takes away): only the agent can
    /// answer.
    static func tokenThroughAgent(
        _ cli: HeadlessCLI, extraEnvironment: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let served = try await cli.run(
            ["token"], extraEnvironment: extraEnvironment.merging(["AUTHVAULT_VAULT_PASSPHRASE": ""]) { $1 })
        #expect(served.status == 0, "\(served.stderrText)", sourceLocation: sourceLocation)
        let token = served.stdoutText.trimmingCharacters(in: .newlines)
        cli.remember(token, as: "a token served through the sandboxed agent")
        return token
    }
}
