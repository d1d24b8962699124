import Foundation
import TestSupport

/// One line of vault-probe output (Tests/VaultProbe): the outcome of one vault operation in a process of its own.
struct ProbeOutcome: CustomStringConvertible {
    let object: [String: Any]

    init(line: String) throws {
        guard let data = line.data(using: .utf8),
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        else {
            throw TestFixtureError("vault-probe printed something that is not a JSON object: \(line)")
        }
        self.object = object
    }

    var outcome: String { object["outcome"] as? String ?? "" }
    var message: String { object["message"] as? String ?? "" }
    var elapsedMilliseconds: Double { object["elapsedMs"] as? Double ?? .infinity }
    var keyDerivations: Int { object["kdfRuns"] as? Int ?? -1 }
    var record: [String: Any]? { object["record"] as? [String: Any] }
    var state: String { object["state"] as? String ?? "" }
    var description: String { String(describing: object) }

    /// Every line vault-probe printed (one per process when several ran in one shell).
    static func all(in output: ProcessOutput) throws -> [ProbeOutcome] {
        let lines = output.stdoutText.split(separator: "\n").map(String.init).filter { $0.hasPrefix("{") }
        guard !lines.isEmpty else {
            throw TestFixtureError("vault-probe printed nothing (status \(output.status)): \(output.stderrText)")
        }
        return try lines.map(ProbeOutcome.init(line:))
    }

    static func single(in output: ProcessOutput) throws -> ProbeOutcome {
        let outcomes = try all(in: output)
        guard outcomes.count == 1 else { throw TestFixtureError("expected one outcome, got \(outcomes)") }
        return outcomes[0]
    }
}

enum VaultProbe {
    static var path: String { BuiltProducts.executable("vault-probe") }

    /// A test record in the probe's plain form; every value is chosen here, so a test compares against its own input.
    static func record(profile: String = "work", revision: Int = 1, tag: String = "one") -> [String: Any] {
        [
            "profile": profile, "revision": revision, "accessToken": "access-\(tag)", "idToken": "id-\(tag)",
            "refreshToken": "refresh-\(tag)", "clientSecret": "secret-\(tag)", "username": "alice",
            "email": "alice@example.com", "accessTokenExpiresAt": 1_800_000_000.0,
        ]
    }

    static func json(_ object: [String: Any]) -> Data {
        try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    /// True when `loaded` (a probe record) holds exactly the values of `expected` (numbers compared as numbers:
    /// JSON does not keep 1800000000.0 apart from 1800000000).
    static func same(_ loaded: [String: Any]?, _ expected: [String: Any]) -> Bool {
        guard let loaded, Set(loaded.keys) == Set(expected.keys) else { return false }
        return expected.allSatisfy { key, value in
            switch (loaded[key], value) {
            case (let left as String, let right as String): return left == right
            case (let left as NSNumber, let right as NSNumber): return left.doubleValue == right.doubleValue
            default: return false
            }
        }
    }

    /// Runs vault-probe (or any command) to completion off the cooperative pool.
    static func run(
        _ executable: String, _ arguments: [String], stdin: Data? = nil,
        environment: [String: String]?, timeout: TimeInterval = 60
    ) async throws -> ProcessOutput {
        try await OffPool.run {
            try ProcessRunner.run(executable, arguments, stdin: stdin, environment: environment, timeout: timeout)
        }
    }
}
