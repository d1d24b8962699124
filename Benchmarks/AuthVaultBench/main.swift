import AuthCrypto
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

// The benchmark harness behind `make bench`: release builds only, every figure beside a peer measured in the
// same run, and every whole-process figure beside the start-up yardstick (Benchmarks/Yardstick).
// Usage: authvault-bench --authvault PATH --yardstick PATH [--rounds N]

var authvaultPath = ""
var yardstickPath = ""
var rounds = 200
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--authvault": authvaultPath = arguments.next() ?? ""
    case "--yardstick": yardstickPath = arguments.next() ?? ""
    case "--rounds": rounds = Int(arguments.next() ?? "") ?? rounds
    default:
        print("usage: authvault-bench --authvault PATH --yardstick PATH [--rounds N]")
        exit(2)
    }
}
guard !authvaultPath.isEmpty, access(authvaultPath, X_OK) == 0, !yardstickPath.isEmpty, access(yardstickPath, X_OK) == 0
else {
    print("authvault-bench: give the release binaries with --authvault PATH --yardstick PATH (make bench does)")
    exit(2)
}

var rows: [Row] = []
do {
    rows += try StartupBenchmark.run(authvault: authvaultPath, yardstick: yardstickPath, rounds: rounds)
    rows += try CryptoBenchmarks.run()
    rows.append(try SRPBenchmark.run())
    rows += try await BrowserCallbackBenchmark.run(rounds: min(rounds, 50))
    if ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil {
        rows += try await VaultBenchmarks.run(rounds: min(rounds, 100))
        rows += try await TokenBenchmark.run(
            authvault: authvaultPath, yardstick: yardstickPath, rounds: min(rounds, 100))
    } else {
        print("(vault benchmarks skipped: no session bus; make bench runs them beside a private Secret Service)")
    }
} catch {
    print("authvault-bench: \(error)")
    exit(1)
}
Report.print(rows)
