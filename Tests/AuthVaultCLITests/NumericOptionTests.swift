import Foundation
import TestSupport
import Testing

@testable import AuthVaultCLI

/// Every number the command line takes is range-checked where its option is declared: the built binary, given a
/// value too large for any integer, a negative one, one beyond a Double's range, nan or a word, exits 2 with a
/// usage error naming the option and what it takes, and never ends on a signal (`login --timeout
/// 9223372036854775807` once trapped with SIGILL while turning the time-out into poll's milliseconds).
@Suite struct NumericOptionTests {
    static let hostileValues = ["9223372036854775807", "-1", "1e309", "nan", "garbage"]
    /// The placeholders of options that take a number, or start with one (`uid:profile`): a new numeric option
    /// takes one of these, so this suite runs it too.
    static let numericPlaceholders: Set<String> = ["seconds", "duration", "uid"]

    static func takesANumber(_ option: OptionSpec) -> Bool {
        switch option.kind {
        case .flag: false
        case .value(let placeholder), .repeatable(let placeholder):
            numericPlaceholders.contains(String(placeholder.prefix { $0.isLetter }))
        }
    }

    /// (command path, option) for every option of every command whose value is a number.
    static var numericOptions: [(path: [String], option: OptionSpec)] {
        func walk(_ node: CommandNode, _ path: [String]) -> [(path: [String], option: OptionSpec)] {
            switch node {
            case .command(let type):
                return type.spec.options.filter(takesANumber).map { (path + [type.spec.name], $0) }
            case .group(let name, _, let children, _):
                return children.flatMap { walk($0, name == "authvault" ? path : path + [name]) }
            }
        }
        return walk(AuthVault.commands, [])
    }

    @Test func theNumericOptionsAreTheOnesKnown() {
        let found = Set(Self.numericOptions.map { ($0.path + ["--" + $0.option.long]).joined(separator: " ") })
        #expect(found == ["login --timeout", "configure --refresh-token-validity", "agent --also-serve-uid"])
    }

    @Test func everyNumericOptionRefusesWhatIsNotInItsRangeWithAUsageError() async throws {
        let home = try TemporaryDirectory(prefix: "authvault-numbers")
        let environment = [
            "HOME": home.path, "XDG_CONFIG_HOME": home.appending("config"), "XDG_DATA_HOME": home.appending("data"),
            "XDG_RUNTIME_DIR": home.path, "PATH": "/usr/bin:/bin",
        ]
        for (path, option) in Self.numericOptions {
            for value in Self.hostileValues {
                let arguments = path + ["--\(option.long)", value]
                let ended = try await Self.runBuilt(arguments, environment: environment)
                let what = arguments.joined(separator: " ")
                #expect(ended.reason == .exit, "\(what) ended on signal \(ended.status)")
                #expect(ended.status == 2, "\(what): \(ended.stderr)")
                #expect(
                    ended.stderr.contains("Invalid value '\(value)' for --\(option.long): expected "),
                    "\(what): \(ended.stderr)")
            }
        }
    }

    /// The range is said once, by the option, and help shows the default.
    @Test func theTimeoutNamesItsRangeAndTakesItsBounds() throws {
        let parser = ArgumentParser(root: AuthVault.commands)
        func timeout(_ value: String) throws -> Int {
            guard case .run(_, let parsed, _) = try parser.parse(["login", "--timeout", value]) else { return -1 }
            return try parsed.value(LoginCommand.timeout)
        }
        #expect(try timeout("1") == 1)
        #expect(try timeout("3600") == 3600)
        #expect(
            throws: UsageError("Invalid value '3601' for --timeout: expected a whole number of seconds from 1 to 3600.")
        ) { try timeout("3601") }
    }

    private struct Ended {
        let status: Int32
        let reason: Process.TerminationReason
        let stderr: String
    }

    /// The built binary, run to its end (a usage error needs no peer: a second at most).
    private static func runBuilt(_ arguments: [String], environment: [String: String]) async throws -> Ended {
        try await OffPool.run {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: BuiltProducts.executable("authvault"))
            process.arguments = arguments
            process.environment = SanitizerOptions.added(to: environment) ?? environment
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let stderr = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Ended(
                status: process.terminationStatus, reason: process.terminationReason,
                stderr: String(decoding: stderr, as: UTF8.self))
        }
    }
}
