import AuthVaultApp

/// `authvault devices ...`: the devices Cognito tracks for the signed-in user, this machine among them.
enum DevicesCommands {
    static let group = CommandNode.group(
        name: "devices",
        abstract: "List the signed-in user's devices, or forget one (this machine by default).",
        children: [
            .command(DevicesListCommand.self),
            .command(DevicesForgetCommand.self),
        ]
    )
}

/// `authvault devices list`: ListDevices, this machine's device marked.
struct DevicesListCommand: CLICommand {
    static let json = JSONOutput.option("the devices", schema: "devices-list")
    static let name = "list"
    static let spec = CommandSpec(
        name: name,
        abstract: "List the devices Cognito tracks for the signed-in user; * marks this machine.",
        discussion:
            "Needs a session (exit status 3 without one). A remembered device skips MFA where the pool says so.",
        options: [json])

    let asJSON: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        asJSON = arguments.flag(Self.json)
    }

    func run(in context: CommandContext) async throws(CLIError) {
        let listing = DeviceListing(
            try await application(for: context.profileName) { () async throws(ApplicationError) in
                try await context.application.trackedDevices(profile: context.profileName)
            })
        if asJSON {
            try JSONOutput.write(listing, to: context.standardOutput)
            return
        }
        for entry in listing.devices {
            let status = entry.remembered ? "remembered" : "not remembered"
            let seen = entry.lastAuthenticatedAt.map { ", last sign-in \($0)" } ?? ""
            // Any machine of the user's named its device: the names are shown escaped.
            let name = entry.name.map { ServerText.escaped($0) } ?? "(no name)"
            context.standardOutput.line(
                "\(entry.thisMachine ? "*" : " ") \(ServerText.escaped(entry.key))  \(name)  (\(status)\(seen))")
        }
        if listing.devices.isEmpty { context.standardError.line("Cognito tracks no device for this user.") }
    }
}

/// `authvault devices forget [KEY]`: ForgetDevice; this machine's device (the default) goes from the vault too.
struct DevicesForgetCommand: CLICommand {
    static let name = "forget"
    static let spec = CommandSpec(
        name: name,
        abstract: "Have Cognito forget a device: this machine's by default, which then goes from the vault too.",
        discussion: """
            Needs a session (exit status 3 without one). The next sign-in from a forgotten machine is from a new device,
            and MFA is asked again where the pool requires it.
            """,
        positionals: [
            PositionalSpec(
                "key", help: "The device key, as 'authvault devices list' shows it (default: this machine's).",
                isOptional: true)
        ])

    let key: String?

    init(arguments: ParsedArguments) throws(UsageError) {
        key = arguments.positional(0)
    }

    func run(in context: CommandContext) async throws(CLIError) {
        let forgotten = try await application(for: context.profileName) { () async throws(ApplicationError) in
            try await context.application.forgetDevice(key, profile: context.profileName)
        }
        switch forgotten {
        case .other(let key): context.standardError.line("Cognito forgot device \(key).")
        case .thisMachine(let key):
            context.standardError.line(
                "Forgot this machine's device \(key), at Cognito and here: the next sign-in is from a new device.")
        }
    }
}
