import AuthVaultCLI
#if canImport(Glibc)
import Glibc
#endif

CoreDumps.refuse()
let arguments = AuthVault.arguments(programName: CommandLine.arguments[0], Array(CommandLine.arguments.dropFirst()))
let status = await AuthVault.run(arguments: arguments, environment: .process)
exit(status.rawValue)
