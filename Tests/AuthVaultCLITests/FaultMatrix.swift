import Foundation
import TestSupport
import Testing

/// One row of the fault matrix (`make faults`, Scripts/faults.sh): a scenario against the real peers, the outcome
/// it must have, the one it had, the sessions it cost and the secrets it left where they must not be. Every row is
/// also an ordinary test, so `make test` runs each in its quick form.
struct FaultRow: Sendable {
    let scenario: String
    let expected: String
    let observed: String
    /// Sessions that existed before the fault and gave no valid access token afterwards without a new login, plus
    /// files the fault left corrupted.
    let tokensLost: Int
    let leaks: [String]

    var passed: Bool { observed == expected && tokensLost == 0 && leaks.isEmpty }
}

/// A promise a row checks: what must hold, and whether it did.
typealias FaultFact = (text: String, held: Bool)

enum FaultMatrix {
    /// `make faults` runs the long forms of the rows (many SIGKILL rounds, 50 processes); `make test` the quick ones.
    static let isFull = ProcessInfo.processInfo.environment["AUTHVAULT_FAULTS_FULL"] == "1"

    /// `quick` rounds for `make test`, `full` for `make faults`.
    static func rounds(quick: Int, full: Int) -> Int { isFull ? full : quick }

    /// Checks the row and, when Scripts/faults.sh collects the table, appends it to the file it names.
    static func record(_ row: FaultRow, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            row.observed == row.expected, "\(row.scenario): expected \(row.expected), observed \(row.observed)",
            sourceLocation: sourceLocation)
        #expect(row.tokensLost == 0, "\(row.scenario): \(row.tokensLost) tokens lost", sourceLocation: sourceLocation)
        #expect(
            row.leaks.isEmpty, "\(row.scenario): secrets where they must not be: \(row.leaks)",
            sourceLocation: sourceLocation)
        guard let path = ProcessInfo.processInfo.environment["AUTHVAULT_FAULT_REPORT"] else { return }
        let fields = [
            row.passed ? "pass" : "FAIL", row.scenario, row.expected, row.observed, String(row.tokensLost),
            String(row.leaks.count),
        ]
        let line =
            fields.map { $0.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\n", with: " ") }
            .joined(separator: "\t") + "\n"
        // O_APPEND: rows of tests that run side by side never overwrite each other.
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            Issue.record("cannot append to the fault report \(path)", sourceLocation: sourceLocation)
            return
        }
        defer { close(descriptor) }
        let bytes = Array(line.utf8)
        #expect(write(descriptor, bytes, bytes.count) == bytes.count, sourceLocation: sourceLocation)
    }

    /// A row from its facts — expected: every fact; observed: the same, each fact that did not hold marked NOT —
    /// ended by the leak sweep of `cli`.
    static func record(
        _ scenario: String, _ facts: [FaultFact], tokensLost: Int, sweeping cli: HeadlessCLI,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let leaks = try await cli.faultRowLeaks()
        record(
            FaultRow(
                scenario: scenario, expected: facts.map(\.text).joined(separator: ", "),
                observed: facts.map { $0.held ? $0.text : "NOT \($0.text)" }.joined(separator: ", "),
                tokensLost: tokensLost, leaks: leaks),
            sourceLocation: sourceLocation)
    }
}

extension HeadlessCLI {
    /// The leak sweep a fault row ends with: `secretLeaks()` after a child of `authvault exec` has copied its own
    /// /proc/PID/cmdline and environ under the isolated home while it ran (the token it asked for, by design in its
    /// environment, left out), so what AuthVault hands the processes it starts is swept too.
    func faultRowLeaks() async throws -> [String] {
        let capture = try ChildCapture(directory: root + "/home/child-captures", designatedVariable: "API_TOKEN")
        let exec = try await run(["exec", "--env", "API_TOKEN", "--", capture.script, "true"])
        var leaks = secretLeaks()
        if exec.status == 0 && capture.captures.isEmpty {
            leaks.append("no capture of the exec child: the sweep saw nothing")
        }
        return leaks
    }
}
