import AuthVaultCLI
#if canImport(Glibc)
import Glibc
#endif

let arguments = AuthVault.arguments(programName: CommandLine.arguments[0], Array(CommandLine.arguments.dropFirst()))
let status = await AuthVault.run(arguments: arguments, environment: currentEnvironment())
exit(status.rawValue)

/// The process environment as a dictionary, read once at start-up.
func currentEnvironment() -> [String: String] {
    var environment: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
        // Split on the bytes: String's Character view would run grapheme breaking over every variable.
        if let equals = strchr(pointer, Int32(UInt8(ascii: "="))) {
            let name = String(decoding: UnsafeRawBufferPointer(start: pointer, count: equals - pointer), as: UTF8.self)
            environment[name] = String(cString: equals + 1)
        }
        entry += 1
    }
    return environment
}
