/// The tools `ToolSetup` wires to a profile.
public enum SetupTool: String, Sendable, CaseIterable {
    case git, docker, kubectl, aws, vault
}

/// What to wire, with the names the tool's own configuration uses.
public enum SetupRequest: Sendable, Equatable {
    /// git's helper for `https://HOST`, and HOST among the profile's helper hosts.
    case git(host: String)
    /// docker's `credHelpers[HOST]`, and HOST among the profile's helper hosts.
    case docker(registry: String)
    /// A kubeconfig user running the exec plugin (`user` nil: `authvault-PROFILE`), and `context` pointed at it.
    case kubectl(context: String?, user: String?)
    /// `credential_process` in the AWS config's profile `awsProfile`.
    case aws(awsProfile: String)
    /// The Vault CLI's `token_helper`.
    case vault

    public var tool: SetupTool {
        switch self {
        case .git: .git
        case .docker: .docker
        case .kubectl: .kubectl
        case .aws: .aws
        case .vault: .vault
        }
    }
}

/// A host the profile's helpers start or stop answering for.
public enum HelperHostChange: Sendable, Equatable {
    case add(String)
    case remove(String)
}

/// What a setup would change, worked out before anything is written: `--dry-run` shows it, `ToolSetup.apply`
/// carries it out. Empty `changes` and no helper host: everything is already in place.
public struct SetupPlan: Sendable, Equatable {
    public let tool: SetupTool
    /// Where the change goes: a file, or git's global configuration.
    public let target: String
    /// The change, one line each, in the tool file's own terms.
    public let changes: [String]
    public let helperHost: HelperHostChange?
    /// What an undo leaves, and why: an entry another profile set up too, a file edited since setup.
    public var notes: [String] = []
    let edit: SetupEdit
    /// What the setup record takes from this change (see `SetupRecord`).
    var recording: SetupRecording?
    /// A setup's: the values it replaces (nil: the key was not set), which its undo puts back.
    var replaced: [String]?

    public var changesNothing: Bool { changes.isEmpty && helperHost == nil && notes.isEmpty }

    init(tool: SetupTool, target: String, changes: [String], helperHost: HelperHostChange? = nil, edit: SetupEdit) {
        self.tool = tool
        self.target = target
        self.changes = edit == .none ? [] : changes
        self.helperHost = helperHost
        self.edit = edit
    }
}

/// How a plan is written: a whole file replaced atomically, or the tool's own commands (git owns its file's syntax).
enum SetupEdit: Sendable, Equatable {
    case none
    /// `mode` nil: a new file, 0600.
    case file(path: String, contents: [UInt8], mode: UInt32?)
    case commands(tool: String, [[String]])
    /// Undoing a setup that created the file: it goes, and then each directory setup made for it, if empty.
    case remove(path: String, directories: [String])
}

/// The setup record's part in a plan.
enum SetupRecording: Sendable, Equatable {
    /// A setup: its claim on the file, with the file as it was before (for the record's first claim on it).
    case claim(SetupClaim, file: ToolFile, createdDirectories: [String], replaced: [String]?)
    /// An undo: the claim goes, and the file's entry with its last claim; `contents`, the file as the undo read it.
    case release(SetupClaim, path: String, contents: [UInt8]?)
}
