import Foundation
import TestSupport
import Testing

/// An `AccountScenario` whose profile talks to the sign-in stand-in in front of moto (SignInStandIn): remembered
/// devices, choice-based sign-in with e-mail and SMS codes, and custom challenges, through the built binary.
struct StandInScenario {
    let account: AccountScenario
    let standIn: SignInStandIn

    static func make(deviceTracking: SignInStandIn.DeviceTracking = .always) async throws -> StandInScenario {
        let account = try await AccountScenario.make(withSecret: false)
        let standIn = try await SignInStandIn.start(
            moto: account.moto, clientId: account.clientId, deviceTracking: deviceTracking)
        try await account.configure(endpoint: standIn.endpoint)
        return StandInScenario(account: account, standIn: standIn)
    }

    /// A confirmed user moto keeps (password, tokens) and the stand-in knows (where its codes go); the password.
    func addUser(_ username: String, email: String, phone: String? = nil) async throws -> String {
        let password = AccountScenario.newPassword()
        try await account.createUser(username, password: password, email: email)
        try await standIn.addUser(username, password: password, email: email, phone: phone)
        return password
    }

    /// `authvault login ARGUMENTS --code-stdin`, the code(s) written only once the stand-in has sent one: the lines
    /// `lines(code)` make, so a wrong line can come first. Every code is remembered as a secret.
    func loginWithSentCode(_ arguments: [String], lines: @escaping @Sendable (String) -> [String]) async throws
        -> ProcessOutput
    {
        let scratch = try TemporaryDirectory(prefix: "authvault-sent-code")
        let stderrPath = scratch.appending("stderr")
        let stdoutPath = scratch.appending("stdout")
        let environment = account.environment.merging([
            "AUTHVAULT": BuiltProducts.executable("authvault"), "ERR": stderrPath, "OUT": stdoutPath,
        ]) { $1 }
        let command = (["login"] + arguments + ["--code-stdin"]).map { "'\($0)'" }.joined(separator: " ")
        let sentBefore = try await standIn.sentCodes().count
        let process = try InteractiveProcess(
            "/bin/sh", ["-c", "exec \"$AUTHVAULT\" \(command) 2>\"$ERR\" >\"$OUT\""], environment: environment)
        var code: String?
        for _ in 0..<200 where code == nil {
            let sent = try await standIn.sentCodes()
            if sent.count > sentBefore { code = sent.last?.code } else { try await Task.sleep(for: .milliseconds(100)) }
        }
        let sentCode = try #require(code, "the stand-in sent no code")
        account.remember(sentCode)
        for line in lines(sentCode) { process.writeLine(line) }
        let status = try await OffPool.run { process.finish() }
        let output = ProcessOutput(
            status: status, stdout: (try? Data(contentsOf: URL(fileURLWithPath: stdoutPath))) ?? Data(),
            stderr: (try? Data(contentsOf: URL(fileURLWithPath: stderrPath))) ?? Data())
        account.record(["login"] + arguments, output)
        if status == 0 { try account.rememberVaultTokens() }
        return output
    }

    /// `status --json`'s `device`: this machine's key and name, nil when it is no remembered device.
    func statusDevice() async throws -> (key: String, name: String)? {
        let output = try await account.run(["status", "--json"])
        let report = try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any]
        guard let device = report?["device"] as? [String: Any], let key = device["key"] as? String,
            let name = device["name"] as? String
        else {
            return nil
        }
        return (key, name)
    }

    /// The operations the stand-in saw since `count` calls.
    func requests(after count: Int) async throws -> [String] {
        Array(try await standIn.requests().dropFirst(count))
    }
}
