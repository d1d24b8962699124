import AuthVaultCLI
#if canImport(Glibc)
import Glibc
#endif

CoreDumps.refuse()
let arguments = AuthVault.arguments(programName: CommandLine.arguments[0], Array(CommandLine.arguments.dropFirst()))
let status = await AuthVault.run(arguments: arguments, environment: currentEnvironment())
exit(status.rawValue)

/// The process environment as a dictionary, read once at start-up.
func currentEnvironment() -> [String: String] {
    var environment: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
        let pair = String(cString: pointer)
        if let equals = pair.firstIndex(of: "=") {
            environment[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        entry += 1
    }
    return environment
}
