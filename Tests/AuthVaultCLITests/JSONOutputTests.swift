import AuthVaultApp
import CognitoAuth
import Foundation
import TestSupport
import Testing

@testable import AuthVaultCLI

/// `--json` on every command that prints JSON: one object on standard output with `schemaVersion`, valid against
/// its schema in docs/ by Python's jsonschema (draft 2020-12); only `token --json` carries a token. Through the
/// binary, on moto (`devices list --json` is checked in DeviceLoginTests, where the stand-in tracks devices).
@Suite struct JSONOutputTests {
    /// The commands that print JSON with --json, and their schemas in docs/.
    static let commands: [(arguments: [String], schema: String)] = [
        (["token", "--json"], "token"), (["token", "--id", "--json"], "token"),
        (["token", "--format", "json"], "token"),
        (["status", "--json"], "status"), (["status", "--all", "--json"], "status-all"),
        (["whoami", "--json"], "whoami"),
        (["profiles", "list", "--json"], "profiles-list"), (["profiles", "--json"], "profiles-list"),
        (["vault", "status", "--json"], "vault-status"), (["mfa", "status", "--json"], "mfa-status"),
    ]

    static func schema(_ name: String) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(PackageFiles.text("docs/\(name).schema.json").utf8))
                as? [String: Any])
    }

    /// The `enum` a schema gives at `path` (property names, `items` and `$defs` entries followed in turn).
    static func allowed(_ schema: String, _ path: String...) throws -> [String]? {
        var node: Any? = try Self.schema(schema)
        for step in path { node = (node as? [String: Any])?[step] }
        return (node as? [String: Any])?["enum"] as? [String]
    }

    @Test func everyJSONOutputIsOneObjectValidAgainstItsSchemaAndOnlyTheTokensHoldsAToken() async throws {
        let profile = try await SignedInProfile.make(withSecret: true)
        let cli = profile.cli
        let record = try #require(try await cli.storedRecord())
        let secrets = Array(cli.knownSecrets.keys)
        #expect(
            cli.knownSecrets.values.contains("the app client secret")
                && cli.knownSecrets.values.contains("the stored refreshToken"))

        for (arguments, schema) in Self.commands {
            let command = arguments.joined(separator: " ")
            let output = try await cli.run(arguments)
            #expect(output.status == 0, "\(command): \(output.stderrText)")
            // The whole of standard output is one JSON object (a bare array, or a second value, is refused here).
            let object = try #require(
                try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any], "\(command) printed one object"
            )
            #expect(object["schemaVersion"] as? Int == 1, "\(command)")
            let violations = try await JSONSchemaCheck.violations(of: output.stdout, against: "\(schema).schema.json")
            #expect(violations.isEmpty, "\(command) against docs/\(schema).schema.json: \(violations)")
            if arguments.first == "token" {
                let field = arguments.contains("--id") ? "idToken" : "accessToken"
                expectSecret(
                    record[field] as? String, equals: object["token"] as? String,
                    "\(command) prints the stored \(field)")
            } else {
                expectNoSecrets(in: output.stdoutText, secrets, "\(command) carries no token, secret or key")
            }
        }
        cli.expectNoSecretLeaks()
    }

    @Test func jsonIsTheOneSpellingOfFormatJSONAndMixesWithNoOtherForm() async throws {
        let cli = try CLIHarness()
        for arguments in [
            ["token", "--json", "--format", "json"], ["token", "--format", "header", "--json"],
            ["token", "--json", "--format", "bare"],
            ["token", "--json", "--claims"], ["token", "--claims", "--format", "json"],
            ["profiles", "list", "--json", "--names"],
        ] {
            let output = await cli.run(arguments)
            #expect(output.status == .usage, "\(arguments)")
            #expect(output.stdout.isEmpty, "\(arguments)")
        }
        #expect(await cli.run(["token", "--json", "--format", "json"]).stderr.contains("--json is --format json"))
        #expect(await cli.run(["token", "--json", "--claims"]).stderr.contains("Choose one of --claims and --json."))
    }

    @Test func everyJSONCommandsHelpListsJSONAndItsSchemaFile() async throws {
        let cli = try CLIHarness()
        // `profiles --help` is the group's; its list command's help is checked.
        for (arguments, schema) in Self.commands where arguments != ["profiles", "--json"] {
            let command = arguments.filter { !$0.hasPrefix("-") }
            let help = await cli.run(command + ["--help"])
            #expect(help.status == .success, "\(command)")
            #expect(
                help.stdout.contains("--json") && help.stdout.contains("docs/\(schema).schema.json"),
                "\(command): \(help.stdout)")
            #expect(FileManager.default.fileExists(atPath: PackageFiles.path("docs/\(schema).schema.json")))
        }
        let devices = await cli.run(["devices", "list", "--help"])
        #expect(
            devices.stdout.contains("--json") && devices.stdout.contains("docs/devices-list.schema.json"),
            "\(devices.stdout)")
        #expect(await cli.run(["status", "--help"]).stdout.contains("docs/status-all.schema.json"))
        #expect(await cli.run(["token", "--help"]).stdout.contains("json: as --json"))
    }

    /// The schema files and the code agree: versions, and the words a script switches on.
    @Test func theSchemasStateTheCodesVersionsAndWords() throws {
        let versions = [
            "token": TokenCommand.schemaVersion, "status": StatusReport.schemaVersion,
            "status-all": StatusReport.schemaVersion,
            "whoami": UserDescription.schemaVersion, "profiles-list": ProfileListing.schemaVersion,
            "devices-list": DeviceListing.schemaVersion, "vault-status": VaultOverview.schemaVersion,
            "mfa-status": MFAStatusReport.schemaVersion,
        ]
        for (name, version) in versions {
            let schema = try Self.schema(name)
            #expect(schema["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema", "\(name)")
            #expect(
                schema["$id"] as? String == "https://github.com/authvault/authvault/docs/\(name).schema.json", "\(name)"
            )
            #expect(
                (schema["properties"] as? [String: [String: Any]])?["schemaVersion"]?["const"] as? Int == version,
                "\(name)")
            #expect((schema["required"] as? [String])?.contains("schemaVersion") == true, "\(name)")
        }
        let mfa = MFAType.allCases.map(\.rawValue)
        #expect(try Self.allowed("mfa-status", "properties", "preferred") == mfa)
        #expect(try Self.allowed("mfa-status", "properties", "enabled", "items") == mfa)
        #expect(try Self.allowed("whoami", "properties", "enabledMFA", "items") == mfa)
        #expect(
            try Self.allowed("profiles-list", "$defs", "profile", "properties", "vault")
                == VaultChoice.allCases.map(\.rawValue))
        #expect(
            try Self.allowed("profiles-list", "$defs", "profile", "properties", "authFlow")
                == AuthFlowChoice.allCases.map(\.rawValue))
        #expect(
            try Self.allowed("profiles-list", "$defs", "profile", "properties", "grant")
                == GrantChoice.allCases.map(\.rawValue))
    }

    /// A provider's e-mail attribute (and so the ID token's claim) with C1 controls, DEL, a line separator and bidi
    /// controls: `whoami --json` and `status --json` write each as \uXXXX, no raw one reaches the output, and the JSON
    /// decodes to the same string.
    @Test func hostileTextIsEscapedInJSONAsInText() async throws {
        let scenario = try await AccountScenario.make(withSecret: false)
        let hostile = "ev\u{202E}lpmaxe\u{202C}\u{2066}x\u{2069}\u{2028}\u{85}\u{9B}31m\u{7F}@example.com"
        let password = AccountScenario.newPassword()
        try await scenario.createUser("mallory", password: password, email: hostile)
        #expect(try await scenario.login("mallory", password: password).status == 0)
        // The set written out here, not taken from the code under test: Cc (C0, DEL, C1), U+2028-2029, the bidi controls.
        let unsafe = { (scalar: Unicode.Scalar) in
            scalar.properties.generalCategory == .control
                || [0x2028, 0x2029, 0x061C, 0x200E, 0x200F].contains(scalar.value)
                || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
        }
        for arguments in [["whoami", "--json"], ["status", "--json"]] {
            let output = try await scenario.run(arguments)
            #expect(output.status == 0, "\(arguments): \(output.stderrText)")
            let raw = output.stdoutText.unicodeScalars.filter { $0 != "\n" && unsafe($0) }
            #expect(raw.isEmpty, "\(arguments) writes raw \(raw.map { String($0.value, radix: 16) })")
            #expect(output.stdoutText.contains(#"\u202e"#), "\(arguments): \(output.stdoutText)")
            #expect(
                try JSONSerialization.jsonObject(with: output.stdout) is [String: Any], "\(arguments) is valid JSON")
        }
        let whoami = try await scenario.run(["whoami", "--json"])
        for escape in [#"\u202e"#, #"\u202c"#, #"\u2066"#, #"\u2069"#, #"\u2028"#, #"\u0085"#, #"\u009b"#, #"\u007f"#] {
            #expect(whoami.stdoutText.contains(escape), "\(escape) in \(whoami.stdoutText)")
        }
        let report = try #require(try JSONSerialization.jsonObject(with: whoami.stdout) as? [String: Any])
        #expect(
            (report["attributes"] as? [String: String])?["email"] == hostile, "the JSON decodes to the provider's text")
        scenario.expectNoSecretsPrinted()
    }

    /// The validator is no rubber stamp: the old shapes (a bare array, no schemaVersion) and a wrong type fail.
    @Test func theValidatorRefusesWhatTheSchemasDoNotAllow() async throws {
        let bareArray = Data(#"[{"name": "default", "current": true, "problem": "incomplete"}]"#.utf8)
        #expect(
            try await JSONSchemaCheck.violations(of: bareArray, against: "profiles-list.schema.json") == [
                "$: breaks 'type'"
            ])
        let unversioned = Data(#"{"preferred": "SOFTWARE_TOKEN_MFA", "enabled": ["SOFTWARE_TOKEN_MFA"]}"#.utf8)
        #expect(
            try await JSONSchemaCheck.violations(of: unversioned, against: "mfa-status.schema.json")
                == ["$: breaks 'required' ('schemaVersion' is a required property)"])
        let badTime = Data(
            #"{"schemaVersion": 1, "devices": [{"key": "k", "remembered": "yes", "thisMachine": false, "lastAuthenticatedAt": "today"}]}"#
                .utf8)
        #expect(
            Set(try await JSONSchemaCheck.violations(of: badTime, against: "devices-list.schema.json"))
                == ["$.devices[0].remembered: breaks 'type'", "$.devices[0].lastAuthenticatedAt: breaks 'format'"])
    }
}
