import AuthVaultApp
import Foundation
import TestSupport
import Testing

@testable import AuthVaultCLI

/// `status --json` against its documented schema (docs/status.schema.json), state by state, `status --all`, the
/// refresh token's expiry from the app client's validity, and `token --claims`: through the binary, on moto.
@Suite struct StatusSchemaTests {
    /// The schema file, as the README links it.
    static func schema() throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(PackageFiles.text("docs/status.schema.json").utf8))
                as? [String: Any])
    }

    /// A field's value as JSON has it, told apart strictly (JSONDecoder takes no number for a Bool, no 1.5 for an Int).
    enum FieldValue: Decodable {
        case boolean(Bool)
        case integer(Int)
        case string(String)
        case strings([String])
        case objects([[String: String]])
        case other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Bool.self) {
                self = .boolean(value)
            } else if let value = try? container.decode(Int.self) {
                self = .integer(value)
            } else if let value = try? container.decode(String.self) {
                self = .string(value)
            } else if let value = try? container.decode([String].self) {
                self = .strings(value)
            } else if let value = try? container.decode([[String: String]].self) {
                self = .objects(value)
            } else {
                self = .other
            }
        }

        var type: String {
            switch self {
            case .boolean: "boolean"
            case .integer: "integer"
            case .string: "string"
            case .strings, .objects: "array"
            case .other: "other"
            }
        }
    }

    /// Every field is declared, of its declared type and, where the schema lists them, one of its values; every
    /// required field is there.
    static func expectConforms(_ report: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let data = try JSONSerialization.data(withJSONObject: report)
        let fields = try JSONDecoder().decode([String: FieldValue].self, from: data)
        let schema = try schema()
        let properties = try #require(schema["properties"] as? [String: [String: Any]])
        for required in schema["required"] as? [String] ?? [] {
            #expect(fields[required] != nil, "required field \(required) is present", sourceLocation: sourceLocation)
        }
        for (field, value) in fields {
            guard let declared = properties[field] else {
                Issue.record("\(field) is not in docs/status.schema.json", sourceLocation: sourceLocation)
                continue
            }
            #expect(
                value.type == declared["type"] as? String, "\(field) is a \(declared["type"] ?? "?"): \(value)",
                sourceLocation: sourceLocation)
            if let allowed = declared["enum"] as? [String], case .string(let word) = value {
                #expect(allowed.contains(word), "\(field) \(word) is one of \(allowed)", sourceLocation: sourceLocation)
            }
            if let constant = declared["const"] as? Int, case .integer(let number) = value {
                #expect(number == constant, sourceLocation: sourceLocation)
            }
            if declared["format"] as? String == "date-time", case .string(let text) = value {
                #expect(
                    text.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil, "\(field) is RFC 3339",
                    sourceLocation: sourceLocation)
            }
        }
    }

    @Test func theSchemaListsExactlyTheStatesTheCodeHas() throws {
        let properties = try #require(try Self.schema()["properties"] as? [String: [String: Any]])
        #expect(properties["state"]?["enum"] as? [String] == StatusState.allCases.map(\.rawValue))
        #expect(properties["schemaVersion"]?["const"] as? Int == StatusReport.schemaVersion)
    }

    @Test func theRefreshTokenEndsItsValidityAfterItWasIssued() throws {
        var settings = ProfileSettings()
        settings.userPoolId = "us-east-1_Valid1"
        settings.clientId = "c"
        #expect(
            try ResolvedProfile(name: "p", settings: settings).refreshTokenExpiry(signedInAt: 1000, lastRefreshAt: 5000)
                == nil)
        settings.refreshTokenValidity = 3600
        #expect(
            try ResolvedProfile(name: "p", settings: settings).refreshTokenExpiry(signedInAt: 1000, lastRefreshAt: 5000)
                == 4600,
            "without rotation the sign-in's refresh token stays")
        settings.rotateRefreshTokens = true
        #expect(
            try ResolvedProfile(name: "p", settings: settings).refreshTokenExpiry(signedInAt: 1000, lastRefreshAt: 5000)
                == 8600,
            "with rotation each refresh issues a new one")
        #expect(
            try ResolvedProfile(name: "p", settings: settings).refreshTokenExpiry(signedInAt: nil, lastRefreshAt: 5000)
                == nil)
        #expect(RefreshTokenValidity.seconds("30d") == 30 * 86_400)
        #expect(RefreshTokenValidity.seconds("12h") == 12 * 3600)
        #expect(RefreshTokenValidity.seconds("90m") == 5400)
        #expect(RefreshTokenValidity.seconds("3600") == 3600 && RefreshTokenValidity.seconds("3600s") == 3600)
        for bad in ["59m", "3651d", "d", "", "1.5d", "99999999999999999999d"] {
            #expect(RefreshTokenValidity.seconds(bad) == nil, "\(bad)")
        }
        // A configuration file edited by hand is held to the same bounds: refused, never added to a time.
        for bad in [Int.max, -1, 59] {
            settings.refreshTokenValidity = bad
            #expect(
                throws: ConfigError.invalidValue(
                    option: "refresh-token-validity", value: String(bad),
                    reason: "expected seconds from 60 minutes to 3650 days, as Cognito allows")
            ) {
                try ResolvedProfile(name: "p", settings: settings)
            }
        }
    }

    private func status(_ cli: HeadlessCLI, _ extra: [String] = []) async throws -> (
        status: Int32, report: [String: Any]
    ) {
        let output = try await cli.run(["status", "--json"] + extra)
        let report = try #require(
            try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any], "\(output.stderrText)")
        return (output.status, report)
    }

    @Test func everyStateOfASessionFitsTheSchema() async throws {
        let profile = try await SignedInProfile.make()
        let cli = profile.cli

        var (exit, report) = try await status(cli)
        #expect(exit == 0)
        #expect(report["state"] as? String == "signedIn")
        #expect((report["stateText"] as? String)?.hasPrefix("signed in as") == true)
        #expect(report["schemaVersion"] as? Int == 1)
        #expect(report["refreshTokenExpiresAt"] == nil, "unknown until the validity is configured")
        try Self.expectConforms(report)

        // The app client's validity makes the refresh token's end known: 30 days after the sign-in (no rotation).
        #expect(try await cli.run(["configure", "--refresh-token-validity", "30d"]).status == 0)
        (exit, report) = try await status(cli)
        let signedIn = try #require(ISO8601DateFormatter().date(from: report["signedInAt"] as? String ?? ""))
        let refreshEnds = try #require(
            ISO8601DateFormatter().date(from: report["refreshTokenExpiresAt"] as? String ?? ""))
        #expect(refreshEnds.timeIntervalSince(signedIn) == 30 * 86_400)
        try Self.expectConforms(report)
        #expect(try await cli.run(["status"]).stdoutText.contains("Refresh:    valid until"))
        for bad in ["5m", "11y", "0", "-3d", "3651d"] {
            #expect(try await cli.run(["configure", "--refresh-token-validity", bad]).status == 2, "\(bad) is refused")
        }

        // Claims, decoded, without the signature.
        let claims = try await cli.run(["token", "--claims"])
        #expect(claims.status == 0, "\(claims.stderrText)")
        let decoded = try #require(try JSONSerialization.jsonObject(with: claims.stdout) as? [String: Any])
        #expect(decoded["token_use"] as? String == "access")
        #expect(decoded["client_id"] as? String == profile.pool.clientId)
        #expect(decoded["exp"] is Int)
        let idClaims =
            try JSONSerialization.jsonObject(with: try await cli.run(["token", "--id", "--claims"]).stdout)
            as? [String: Any]
        #expect(idClaims?["token_use"] as? String == "id")
        expectNoSecrets(in: claims.stdoutText, ["eyJ"], "no token (a JWT's header starts eyJ), no signature")
        #expect(try await cli.run(["token", "--claims", "--format", "json"]).status == 2)

        // An expired access token with its refresh token: the next token refreshes.
        try await cli.ageTokens(expiringIn: -60)
        (exit, report) = try await status(cli)
        #expect(exit == 0)
        #expect(report["state"] as? String == "expiredRefreshable")
        #expect(report["usable"] as? Bool == true)
        try Self.expectConforms(report)

        // A second profile that cannot be used, for --all.
        var file = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: cli.configPath)))
                as? [String: Any])
        var profiles = try #require(file["profiles"] as? [String: Any])
        profiles["broken"] = ["userPoolId": "us-east-1_Broken1"]
        file["profiles"] = profiles
        try JSONSerialization.data(withJSONObject: file).write(to: URL(fileURLWithPath: cli.configPath))
        let all = try await cli.run(["status", "--all", "--json"])
        #expect(all.status == 0, "\(all.stderrText)")
        let every = try #require(try JSONSerialization.jsonObject(with: all.stdout) as? [String: Any])
        #expect(every["schemaVersion"] as? Int == 1)
        let reports = try #require(every["profiles"] as? [[String: Any]])
        #expect(reports.map { $0["profile"] as? String } == ["broken", "default"])
        #expect(reports.map { $0["state"] as? String } == ["misconfigured", "expiredRefreshable"])
        #expect((reports.first?["problem"] as? String)?.contains("--client-id") == true)
        for report in reports { try Self.expectConforms(report) }
        let text = try await cli.run(["status", "--all"])
        #expect(text.stdoutText.contains("Profile:    broken") && text.stdoutText.contains("Profile:    default"))

        // Signed out: the local sign-out stands whatever moto says of the revocation (it has no RevokeToken, and
        // answers as a server in trouble, so the revocation is kept pending and shown).
        _ = try await cli.run(["logout"])
        (exit, report) = try await status(cli)
        #expect(exit == 3)
        #expect(report["state"] as? String == "signedOut")
        #expect(report["usable"] as? Bool == false)
        try Self.expectConforms(report)
        #expect(
            try await JSONSchemaCheck.violations(
                of: try await cli.run(["status", "--json"]).stdout, against: "status.schema.json") == [])
        cli.expectNoSecretLeaks()
    }

    @Test func aRejectedRefreshTokenNeedsALogin() async throws {
        let profile = try await SignedInProfile.make()
        try await profile.pool.signOutEverywhere(SignedInProfile.username)
        try await profile.cli.ageTokens(expiringIn: -60)
        #expect(try await profile.cli.run(["token"]).status == 3)
        let (exit, report) = try await status(profile.cli)
        #expect(exit == 3)
        #expect(report["state"] as? String == "needsLogin")
        try Self.expectConforms(report)
    }
}
