import AuthVaultApp

/// `authvault __man-pages DIRECTORY`: writes the manual pages (ManPageFormatter) into an existing directory. A
/// packaging step, not a user's command: the parser reaches it by name only, and neither help nor completion lists it.
struct ManPagesCommand: CLICommand {
    static let name = "__man-pages"
    static let spec = CommandSpec(
        name: name,
        abstract: "Write authvault(1) and a page for each command into a directory.",
        positionals: [PositionalSpec("directory", help: "An existing directory.", completion: .file)])

    let directory: String

    init(arguments: ParsedArguments) throws(UsageError) {
        directory = arguments.positional(0) ?? ""
    }

    func run(in context: CommandContext) async throws(CLIError) {
        for page in ManPageFormatter.pages(root: AuthVault.commands, version: AuthVault.version) {
            // Mode 0600 as every file this program writes; the installer gives the pages their own mode.
            do throws(FileSystemError) {
                try SecureFile.write(
                    Array(page.source.utf8), to: FilePath.join(directory, page.fileName), durable: false)
            } catch {
                throw CLIError("Cannot write the manual pages: \(error)")
            }
        }
    }
}
