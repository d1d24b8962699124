import Foundation
import TestSupport
import Testing

/// Cached AWS credentials are served only for the identity pool and role they were issued for: after
/// `authvault configure --aws-role-arn` or `--identity-pool-id`, the next `aws-credentials` fetches anew and sends
/// the new role or pool, on the direct path and through a running agent. (moto hands out the same key id every
/// time, so a fetch is told by the calls the identity-pool proxy saw.)
@Suite struct AWSCredentialScopeEndToEndTests {
    typealias Fixture = AWSCredentialsEndToEndTests.Fixture
    static let role = "arn:aws:iam::123456789012:role/Reader"

    @Test func reconfiguringThePoolOrTheRoleFetchesAnew() async throws {
        let fixture = try await Fixture.make()
        let cli = fixture.cli
        try expectServed(await cli.run(["aws-credentials", "--format", "json"]))
        try expectServed(await cli.run(["aws-credentials", "--format", "json"]))
        #expect(try await fixture.identity.records().count == 2, "reused while nothing changed")

        #expect(try await awsStatus(cli).keys.contains("awsCredentialsExpireAt"))

        // Another role of the same pool: new credentials for the same identity, the role sent. Until then, status
        // shows no credentials: those held are not the new role's.
        #expect(try await cli.run(["configure", "--aws-role-arn", Self.role]).status == 0)
        let beforeFetch = try await awsStatus(cli)
        #expect(beforeFetch["awsCredentialsExpireAt"] == nil && beforeFetch["identityId"] != nil, "\(beforeFetch)")
        try expectServed(await cli.run(["aws-credentials", "--format", "json"]))
        var records = try await fixture.identity.records()
        #expect(
            records.map(\.operation) == ["GetId", "GetCredentialsForIdentity", "GetCredentialsForIdentity"],
            "the old role's credentials were served: \(records)")
        #expect(records.last?.role == Self.role)

        // Another pool, through the agent: a new identity from the new pool, then its credentials.
        let other = try await fixture.moto.call(
            "CreateIdentityPool",
            [
                "IdentityPoolName": "e2e\(UUID().uuidString.prefix(8))", "AllowUnauthenticatedIdentities": false,
                "CognitoIdentityProviders": [
                    ["ProviderName": fixture.provider, "ClientId": fixture.profile.pool.clientId]
                ],
            ], service: "AWSCognitoIdentityService")
        let otherPool = try #require(other["IdentityPoolId"] as? String)
        let agent = try AgentProcess.start(cli.authvault, environment: cli.environment, log: cli.root + "/agent.log")
        defer { agent.kill() }
        try await agent.waitForSocket(cli.environment["XDG_RUNTIME_DIR"]! + "/authvault/agent.sock")
        let throughAgent = cli.environment.filter { $0.key != "AUTHVAULT_VAULT_PASSPHRASE" }
        let viaAgent = { () async throws in
            try expectServed(
                await BoundedProcess.run(
                    cli.authvault, ["aws-credentials", "--format", "json"],
                    environment: throughAgent, timeout: 30))
        }
        try await viaAgent()
        #expect(
            try await fixture.identity.records().count == 3,
            "the agent serves what the vault holds for this pool and role")
        #expect(try await cli.run(["configure", "--identity-pool-id", otherPool]).status == 0)
        let otherPoolStatus = try await awsStatus(cli)
        #expect(
            otherPoolStatus["awsCredentialsExpireAt"] == nil && otherPoolStatus["identityId"] == nil,
            "the old pool's identity")
        try await viaAgent()
        #expect(
            try await fixture.identity.poolsAskedForAnIdentity() == [fixture.poolId, otherPool],
            "the agent served the old pool's credentials")
        records = try await fixture.identity.records()
        #expect(
            records.count == 5 && records.last?.operation == "GetCredentialsForIdentity"
                && records.last?.role == Self.role, "\(records)")

        // The role dropped, through the agent again: the pool's own choice, fetched anew for the kept identity.
        #expect(try await cli.run(["configure", "--aws-role-arn", ""]).status == 0)
        try await viaAgent()
        records = try await fixture.identity.records()
        #expect(
            records.count == 6 && records.last?.operation == "GetCredentialsForIdentity" && records.last?.role == nil,
            "the agent served the old role's credentials: \(records)")
        try await viaAgent()
        #expect(try await fixture.identity.records().count == 6, "then reused")
        _ = try await cli.storedRecord()
        cli.expectNoSecretLeaks()
        #expect(try await agent.terminate(timeout: 10) == 0)
    }

    /// The AWS fields of `status --json`.
    private func awsStatus(_ cli: HeadlessCLI) async throws -> [String: Any] {
        let status = try await cli.run(["status", "--json"])
        let report = try JSONSerialization.jsonObject(with: status.stdout) as? [String: Any] ?? [:]
        return report.filter { ["awsCredentialsExpireAt", "identityId"].contains($0.key) }
    }

    private func expectServed(_ output: ProcessOutput) throws {
        #expect(output.status == 0, "\(output.stderrText)")
        #expect(AWSCredentialsEndToEndTests.json(output.stdoutText)["accessKeyId"] is String)
    }
}
