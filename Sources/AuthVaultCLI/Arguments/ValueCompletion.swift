/// What a shell offers for an option's value or a positional argument, declared beside it so the completion
/// scripts (`authvault completion`) come from the same specs as parsing and help.
enum ValueCompletion: Sendable, Hashable {
    /// Free text: nothing to offer.
    case anything
    /// One of these words.
    case words([String])
    /// A configured profile's name, asked of the binary when completing (`authvault profiles list --names`).
    case profileName
    /// A file name.
    case file
}
