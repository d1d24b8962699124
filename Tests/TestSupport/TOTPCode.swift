import Foundation

/// RFC 6238 codes computed by python's stdlib (Tests/TestSupport/Scripts/totp.py), independent of the code under test.
public enum TOTPCode {
    /// moto's authenticator secret for every user (with MOTO_COGNITO_IDP_USER_POOL_ENABLE_TOTP).
    public static let motoSecret = "asdfasdfasdf"

    /// The current code. Waits for the next 30-second step when the current one is about to end, so the code is
    /// still current when the server checks it a few seconds later.
    public static func current(secret: String = motoSecret) async throws -> String {
        var now = Date().timeIntervalSince1970
        if now.truncatingRemainder(dividingBy: 30) > 25 {
            try await Task.sleep(for: .seconds(30 - now.truncatingRemainder(dividingBy: 30) + 0.2))
            now = Date().timeIntervalSince1970
        }
        let output = try ProcessRunner.run(
            PeerPython.path, [ScriptServer.scriptPath("totp.py"), secret, String(Int(now))])
        guard output.status == 0 else { throw TestFixtureError("totp.py failed: \(output.stderrText)") }
        return output.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
