/// `credential_process = /path/to/authvault --profile P aws-credentials` in the AWS config's profile
/// (`$AWS_CONFIG_FILE`, else ~/.aws/config): that one key of that one section replaced, every other line kept.
struct AWSSetup {
    static let key = "credential_process"
    let site: SetupSite
    let awsProfile: String

    /// The AWS config names its default profile `[default]`, every other `[profile NAME]`.
    var section: String { awsProfile == "default" ? "default" : "profile \(awsProfile)" }
    var command: String { ShellWords.line([site.executable, "--profile", site.profile, "aws-credentials"]) }

    func plan(undo: Bool) throws(SetupError) -> SetupPlan {
        let path = site.file("AWS_CONFIG_FILE", orHome: ".aws/config")
        let file = try ToolFile.read(path)
        var lines = SettingLines(file.text)
        let current = lines.value(of: Self.key, in: section)
        let change: String
        if undo {
            guard current == command else { return SetupPlan(tool: .aws, target: path, changes: [], edit: .none) }
            lines.remove(Self.key, in: section)
            change = "[\(section)] remove \(Self.key) = \(command)"
        } else {
            lines.set(Self.key, to: command, in: section)
            change = "[\(section)] \(Self.key) = \(command)" + (current.map { $0 == command ? "" : " (was \($0))" } ?? "")
        }
        return SetupPlan(tool: .aws, target: path, changes: [change], edit: file.replacement(Array(lines.text.utf8)))
    }
}
