import Foundation
import TestSupport
import Testing

/// A warm `authvault token` from the Secret Service, as the built binary runs it beside a real gnome-keyring: the
/// lookups it needs and no more (ReadAlias, SearchItems, OpenSession("plain"), GetSecrets, Close), as dbus-monitor on
/// the private bus counts them, and the token the keyring holds.
@Suite(
    .serialized,
    .enabled(if: SecretServiceSession.canMonitor, "needs \(SecretServiceSession.requiredTools), dbus-monitor"))
struct WarmSecretServiceTokenTests {
    @Test func aWarmTokenMakesFiveSecretServiceCallsOverAPlainSession() async throws {
        let session = try await OffPool.run { try SecretServiceSession(.gnomeKeyring) }
        let authvault = BuiltProducts.executable("authvault")
        let configured = try await OffPool.run {
            try session.run(
                authvault,
                [
                    "configure", "--user-pool-id", "us-east-1_Warm", "--client-id", "warm-client", "--vault",
                    "secret-service",
                ])
        }
        #expect(configured.status == 0, "\(configured.stderrText)")
        let now = Int(Date().timeIntervalSince1970)
        let token = try TestJWT.unsigned(["iat": now, "exp": now + 3600, "jti": "warm-keyring"])
        let record: [String: Any] = [
            "profile": "default", "revision": 1, "accessToken": token, "idToken": token,
            "refreshToken": "refresh-warm-keyring", "username": "alice", "accessTokenExpiresAt": Double(now + 3600),
        ]
        let recordJSON = try JSONSerialization.data(withJSONObject: record)
        let saved = try await OffPool.run {
            try session.run(
                BuiltProducts.executable("vault-probe"),
                ["save", "--profile", "default", "--pool", "us-east-1_Warm", "--client", "warm-client"],
                stdin: recordJSON)
        }
        #expect(saved.stdoutText.contains(#""outcome":"ok""#), "\(saved.stdoutText)\(saved.stderrText)")

        var run: ProcessOutput?
        let calls = try await session.secretServiceCalls {
            run = try await OffPool.run { try session.run(authvault, ["token"]) }
        }
        #expect(run?.status == 0, "\(run?.stderrText ?? "")")
        expectSecret(run?.stdoutText.trimmingCharacters(in: .newlines) ?? "", equals: token, "the warm token")
        #expect(calls.map(\.member) == ["ReadAlias", "SearchItems", "OpenSession", "GetSecrets", "Close"], "\(calls)")
        #expect(calls.first { $0.member == "OpenSession" }?.arguments.first == #"string "plain""#, "\(calls)")
    }
}
