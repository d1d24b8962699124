/// `authvault completion SHELL`: the shell's completion script, generated from the command specs.
struct CompletionCommand: CLICommand {
    enum Shell: String, OptionChoice { case bash, zsh, fish }

    static let name = "completion"

    static let spec = CommandSpec(
        name: name,
        abstract: "Print the shell completion script for bash, zsh or fish.",
        discussion: """
            Commands, options, option values and profile names complete. Load it in the shell's start-up file:
              bash: source <(authvault completion bash)
              zsh:  source <(authvault completion zsh)
              fish: authvault completion fish | source
            The Debian package and 'make install' install all three where the shells look for them.
            """,
        positionals: [PositionalSpec("shell", help: "bash, zsh or fish.", completion: .words(Shell.words))])

    let shell: Shell

    init(arguments: ParsedArguments) throws(UsageError) {
        let given = arguments.positional(0) ?? ""
        guard let shell = Shell(rawValue: given) else {
            throw UsageError("Invalid value '\(given)' for <shell>: expected \(Shell.expected).")
        }
        self.shell = shell
    }

    func run(in context: CommandContext) async throws(CLIError) {
        let table = CompletionTable(root: AuthVault.commands)
        switch shell {
        case .bash: context.standardOutput.write(BashCompletionScript.render(table))
        case .zsh: context.standardOutput.write(ZshCompletionScript.render(table))
        case .fish: context.standardOutput.write(FishCompletionScript.render(table))
        }
    }
}
